import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import { previewImages } from "../../ui/previewer/previewImages.tsx";

/** The app's own screenshots (public/screenshots) with their sizes, so thumbnails do not shift. */
const SCREENSHOTS = [
  { src: "/screenshots/home-zh-cn.png", width: 1280, height: 800 },
  { src: "/screenshots/home-en-mobile.png", width: 390, height: 844 },
];
const SOURCES = SCREENSHOTS.map((shot) => shot.src);

/** "See the app": screenshot thumbnails on the start page; a click opens them full screen. */
export function ScreenshotGallery() {
  const { t } = useLingui();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        <Trans>See the app</Trans>
      </h2>
      <ul className="flex flex-wrap gap-4">
        {SCREENSHOTS.map(({ src, width, height }, i) => {
          const n = i + 1;
          return (
            <li key={src}>
              <button
                type="button"
                aria-label={t`Open screenshot ${n}`}
                onClick={() => previewImages(SOURCES, i)}
                className="block overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
              >
                <img src={src} width={width} height={height} alt="" loading="lazy" className="h-40 w-auto max-w-full object-cover object-top" />
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
