import { useLingui } from "@lingui/react/macro";
import { Paperclip, X } from "lucide-react";
import { Button } from "../../../ui/Button.tsx";
import { FileUploadButton } from "../../../ui/FileUploadButton.tsx";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { previewImages } from "../../../ui/previewer/previewImages.tsx";
import { UploadStatus } from "./UploadProgress.tsx";
import { isImageUrl, suffixIconUrl, useUploader } from "./upload.ts";

/**
 * The `file` form field (one url): the chosen file is uploaded through `/admin/ajax/upload`
 * with progress; shown with its file-type icon (an image with a thumbnail that opens the
 * previewer), a link to it and a remove button.
 */
export function FileField({ control, value, onChange, topic }: { control: FieldControlProps; value: unknown; onChange: (value: unknown) => void; topic?: string }) {
  const { t } = useLingui();
  const uploader = useUploader(topic);
  const url = typeof value === "string" ? value : "";
  const name = url.split("/").pop() ?? "";

  async function choose([file]: File[]) {
    const done = await uploader.upload(file!);
    if (done) onChange(done.url);
  }

  return (
    <div className="space-y-2">
      {url && (
        <div className="flex min-h-11 items-center gap-3 rounded-md border border-slate-300 px-2 py-1 dark:border-slate-600">
          {isImageUrl(url) ? (
            <Button variant="bare" onClick={() => previewImages([url])} aria-label={t`Preview image`} className="size-10 shrink-0 overflow-hidden rounded">
              <img src={url} alt="" className="size-full object-cover" />
            </Button>
          ) : (
            <img src={suffixIconUrl(name)} alt="" className="size-10 shrink-0" />
          )}
          <a href={url} target="_blank" rel="noopener noreferrer" className="min-w-0 flex-1 truncate text-primary underline">
            {name}
          </a>
          <Button variant="dangerGhost" size="iconSm" onClick={() => onChange("")} aria-label={t`Remove file`}>
            <X className="size-4" aria-hidden />
          </Button>
        </div>
      )}
      <FileUploadButton {...control} variant="secondary" disabled={uploader.progress !== null} onFiles={(files) => void choose(files)} inputTestId="file-input">
        <Paperclip className="size-4" aria-hidden />
        {url ? t`Replace file` : t`Upload file`}
      </FileUploadButton>
      <UploadStatus progress={uploader.progress} problem={uploader.problem} />
    </div>
  );
}
