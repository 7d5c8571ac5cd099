import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { createRoot } from "react-dom/client";
import { ImagePreviewer } from "./ImagePreviewer.tsx";
import { clampIndex } from "./state.ts";

export interface PreviewImagesOptions {
  images: string[];
  index?: number;
}

/** SPEC §5: the previewer's two errors. */
export const PREVIEW_NEEDS_LIST = "previewImages needs an image list";
export const PREVIEW_INDEX_WITHOUT_LIST = "previewImages got an index but no image list";

function isImageList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string");
}

/** Checks the arguments and returns the list and the clamped start index, or throws (SPEC §5). */
export function resolvePreviewArgs(first?: unknown, second?: unknown): { images: string[]; index: number } {
  if (typeof first === "number") throw new Error(PREVIEW_INDEX_WITHOUT_LIST);
  const options = first !== null && typeof first === "object" && !Array.isArray(first) ? (first as Partial<PreviewImagesOptions>) : null;
  const images: unknown = options ? options.images : first;
  const rawIndex: unknown = typeof second === "number" ? second : options?.index;
  if (!isImageList(images)) {
    throw new Error(typeof rawIndex === "number" ? PREVIEW_INDEX_WITHOUT_LIST : PREVIEW_NEEDS_LIST);
  }
  return { images, index: clampIndex(typeof rawIndex === "number" ? rawIndex : 0, images.length) };
}

/**
 * Opens the full-screen previewer on `images` at `index` (the second argument wins over
 * `options.index`; out of range is clamped), in a React root of its own appended to
 * document.body. Returns a function that closes it; closing by Esc, the mask or the close button
 * unmounts it the same way.
 *
 * Throws "previewImages needs an image list" without arguments (or with an empty list) and
 * "previewImages got an index but no image list" when given an index instead of a list.
 */
export function previewImages(images: string[] | PreviewImagesOptions, index?: number): () => void;
export function previewImages(first?: unknown, second?: unknown): () => void {
  const args = resolvePreviewArgs(first, second);

  const container = document.createElement("div");
  container.dataset.imagePreviewer = "";
  document.body.append(container);
  const root = createRoot(container);

  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    render(false);
    // Unmount after the closing render, outside whatever React event asked for it.
    queueMicrotask(() => {
      root.unmount();
      container.remove();
    });
  };

  function render(open: boolean) {
    root.render(
      <I18nProvider i18n={i18n}>
        <ImagePreviewer
          images={args.images}
          index={args.index}
          open={open}
          onOpenChange={(next) => {
            if (!next) close();
          }}
        />
      </I18nProvider>,
    );
  }

  render(true);
  return close;
}
