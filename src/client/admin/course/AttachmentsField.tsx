import { useLingui } from "@lingui/react/macro";
import { Paperclip, X } from "lucide-react";
import { MAX_LESSON_ATTACHMENTS } from "../../../shared/admin/courses.ts";
import { formatBytes } from "../../ui/format.ts";
import { Button } from "../../ui/Button.tsx";
import { FileUploadButton } from "../../ui/FileUploadButton.tsx";
import { UploadStatus } from "../crud/fields/UploadProgress.tsx";
import { suffixIconUrl, useUploader } from "../crud/fields/upload.ts";
import type { CustomFieldProps } from "../crud/types.ts";

interface Attachment {
  name: string;
  url: string;
  size: number;
}

const asList = (value: unknown): Attachment[] => (Array.isArray(value) ? (value as Attachment[]).filter((a) => a && typeof a.url === "string") : []);

/** A lesson's attachments [{name, url, size}]: each uploaded through `/admin/ajax/upload` with progress, removable. */
export function AttachmentsField({ value, onChange, control }: CustomFieldProps) {
  const { t } = useLingui();
  const list = asList(value);
  const uploader = useUploader("course");

  async function choose([file]: File[]) {
    if (!file) return;
    const done = await uploader.upload(file);
    if (done) onChange([...list, { name: file.name.slice(0, 100), url: done.url, size: done.size }]);
  }

  return (
    <div className="space-y-2">
      {list.length > 0 && (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-300 dark:divide-slate-700 dark:border-slate-600">
          {list.map((a, i) => {
            const name = a.name;
            return (
            <li key={`${a.url}-${i}`} className="flex min-h-11 items-center gap-3 px-2 py-1">
              <img src={suffixIconUrl(a.name)} alt="" className="size-8 shrink-0" />
              <a href={a.url} target="_blank" rel="noopener noreferrer" className="min-w-0 flex-1 truncate text-primary underline">
                {a.name}
              </a>
              <span className="text-sm tabular-nums text-slate-600 dark:text-slate-300">{formatBytes(a.size)}</span>
              <Button variant="dangerGhost" size="iconSm" onClick={() => onChange(list.filter((_, j) => j !== i))} aria-label={t`Remove ${name}`}>
                <X className="size-4" aria-hidden />
              </Button>
            </li>
            );
          })}
        </ul>
      )}
      {list.length < MAX_LESSON_ATTACHMENTS && (
        <FileUploadButton {...control} variant="secondary" disabled={uploader.progress !== null} onFiles={(files) => void choose(files)} inputTestId="attachment-input">
          <Paperclip className="size-4" aria-hidden />
          {t`Add attachment`}
        </FileUploadButton>
      )}
      <UploadStatus progress={uploader.progress} problem={uploader.problem} />
    </div>
  );
}
