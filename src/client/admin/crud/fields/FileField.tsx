import { useLingui } from "@lingui/react/macro";
import { Paperclip, X } from "lucide-react";
import { useRef } from "react";
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
  const input = useRef<HTMLInputElement>(null);
  const uploader = useUploader(topic);
  const url = typeof value === "string" ? value : "";
  const name = url.split("/").pop() ?? "";

  async function choose(files: FileList | null) {
    const file = files?.[0];
    if (input.current) input.current.value = "";
    if (!file) return;
    const done = await uploader.upload(file);
    if (done) onChange(done.url);
  }

  return (
    <div className="space-y-2">
      {url && (
        <div className="flex min-h-11 items-center gap-3 rounded-md border border-slate-300 px-2 py-1 dark:border-slate-600">
          {isImageUrl(url) ? (
            <button type="button" onClick={() => previewImages([url])} aria-label={t`Preview image`} className="size-10 shrink-0 overflow-hidden rounded outline-none focus-visible:ring-2 focus-visible:ring-primary">
              <img src={url} alt="" className="size-full object-cover" />
            </button>
          ) : (
            <img src={suffixIconUrl(name)} alt="" className="size-10 shrink-0" />
          )}
          <a href={url} target="_blank" rel="noopener noreferrer" className="min-w-0 flex-1 truncate text-primary underline">
            {name}
          </a>
          <button type="button" onClick={() => onChange("")} aria-label={t`Remove file`} className="inline-flex size-9 items-center justify-center rounded-md text-slate-600 outline-none hover:bg-red-50 hover:text-red-700 focus-visible:ring-2 focus-visible:ring-primary dark:text-slate-300 dark:hover:bg-red-950">
            <X className="size-4" aria-hidden />
          </button>
        </div>
      )}
      <button
        {...control}
        type="button"
        disabled={uploader.progress !== null}
        onClick={() => input.current?.click()}
        className="inline-flex min-h-11 items-center gap-2 rounded-md border border-slate-300 bg-white px-4 text-slate-800 outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-primary disabled:opacity-60 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
      >
        <Paperclip className="size-4" aria-hidden />
        {url ? t`Replace file` : t`Upload file`}
      </button>
      <input ref={input} type="file" hidden tabIndex={-1} onChange={(e) => void choose(e.target.files)} data-testid="file-input" />
      <UploadStatus progress={uploader.progress} problem={uploader.problem} />
    </div>
  );
}
