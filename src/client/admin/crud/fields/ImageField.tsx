import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { ImagePlus, X } from "lucide-react";
import { Button } from "../../../ui/Button.tsx";
import { FileUploadButton } from "../../../ui/FileUploadButton.tsx";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { previewImages } from "../../../ui/previewer/previewImages.tsx";
import { UploadStatus } from "./UploadProgress.tsx";
import { useUploader } from "./upload.ts";

const notImage = msg`Please choose an image`;

/** The urls of an `images` value (an array, or older comma-separated text). */
export function imageList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string" && v !== "");
  return typeof value === "string" && value !== "" ? value.split(",").filter(Boolean) : [];
}

/**
 * The `image` (one url) and `images` (a list of urls) form fields: thumbnails that open the
 * image previewer, a remove button on each, and an add tile that uploads the chosen image(s)
 * through `/admin/ajax/upload` with progress.
 */
export function ImageField({ control, value, onChange, multiple = false, topic }: { control: FieldControlProps; value: unknown; onChange: (value: unknown) => void; multiple?: boolean; topic?: string }) {
  const { t } = useLingui();
  const uploader = useUploader(topic, (file) => (file.type && !file.type.startsWith("image/") ? notImage : null));
  const urls = multiple ? imageList(value) : typeof value === "string" && value !== "" ? [value] : [];
  const set = (next: string[]) => onChange(multiple ? next : (next[0] ?? ""));

  async function choose(chosen: File[]) {
    let next = urls;
    for (const file of multiple ? chosen : chosen.slice(0, 1)) {
      const done = await uploader.upload(file);
      if (!done) break;
      next = multiple ? [...next, done.url] : [done.url];
      set(next);
    }
  }

  return (
    <div className="space-y-2">
      <ul className="flex flex-wrap gap-2">
        {urls.map((url, i) => {
          const n = i + 1;
          return (
          <li key={`${url}-${i}`} className="relative size-24 overflow-hidden rounded-md border border-slate-300 bg-slate-50 dark:border-slate-600 dark:bg-slate-800">
            <Button variant="bare" className="size-full" onClick={() => previewImages(urls, i)} aria-label={t`Preview image ${n}`}>
              <img src={url} alt="" className="size-full object-cover" loading="lazy" />
            </Button>
            {/* Drawn over the thumbnail, so it keeps its own dark chip rather than a row button's look. */}
            <Button
              variant="bare"
              onClick={() => set(urls.filter((_, j) => j !== i))}
              aria-label={t`Remove image ${n}`}
              className="absolute top-1 right-1 inline-flex size-7 items-center justify-center rounded-full bg-slate-900/70 text-white hover:bg-red-600"
            >
              <X className="size-4" aria-hidden />
            </Button>
          </li>
          );
        })}
        {(multiple || urls.length === 0) && (
          <li>
            <FileUploadButton
              {...control}
              variant="bare"
              disabled={uploader.progress !== null}
              accept="image/*"
              multiple={multiple}
              onFiles={(files) => void choose(files)}
              inputTestId="image-input"
              className="flex size-24 flex-col items-center justify-center gap-1 rounded-md border-2 border-dashed border-slate-300 text-sm text-slate-600 hover:border-primary hover:text-primary dark:border-slate-600 dark:text-slate-300"
            >
              <ImagePlus className="size-6" aria-hidden />
              {multiple ? t`Add images` : t`Upload image`}
            </FileUploadButton>
          </li>
        )}
      </ul>
      <UploadStatus progress={uploader.progress} problem={uploader.problem} />
    </div>
  );
}
