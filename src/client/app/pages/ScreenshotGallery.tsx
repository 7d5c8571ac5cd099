import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import { Button } from "../../ui/Button.tsx";

/**
 * The app's own screenshots (public/screenshots, made by src/tools/screenshots.mjs): a small WebP
 * thumbnail each, with its size so nothing shifts; the full image loads only when opened.
 */
const SCREENSHOTS = [
  { src: "/screenshots/desktop-zh-cn.png", thumb: "/screenshots/desktop-zh-cn-thumb.webp", width: 512, height: 320 },
  { src: "/screenshots/phone-zh-cn.png", thumb: "/screenshots/phone-zh-cn-thumb.webp", width: 148, height: 320 },
];
const SOURCES = SCREENSHOTS.map((shot) => shot.src);

/** "See the app": screenshot thumbnails on the start page; a click opens them full screen. */
export default function ScreenshotGallery() {
  const { t } = useLingui();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-slate-100">
        <Trans>See the app</Trans>
      </h2>
      <ul className="flex flex-wrap gap-4">
        {SCREENSHOTS.map(({ thumb, width, height }, i) => {
          const n = i + 1;
          return (
            <li key={thumb}>
              <Button
                variant="bare"
                aria-label={t`Open screenshot ${n}`}
                onClick={() => void import("../../ui/previewer/previewImages.tsx").then(({ previewImages }) => previewImages(SOURCES, i))}
                className="block overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md dark:border-slate-700"
              >
                <img src={thumb} width={width} height={height} alt="" loading="lazy" decoding="async" className="block h-40 w-auto max-w-full" />
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
