import { Plural, useLingui } from "@lingui/react/macro";
import { BookOpen, Clock, Layers } from "lucide-react";
import { formatPrice } from "../../../shared/course/types.ts";
import { fullUrl } from "../../../shared/url.ts";
import { useSiteConfig } from "../../stores/siteConfig.ts";

/** "Free" or "¥12.50" (cents on the wire). */
export function PriceTag({ cents, className = "" }: { cents: number; className?: string }) {
  const { t } = useLingui();
  return cents > 0 ? (
    <span className={`font-semibold text-amber-800 dark:text-amber-300 ${className}`}>¥{formatPrice(cents)}</span>
  ) : (
    <span className={`font-semibold text-emerald-800 dark:text-emerald-300 ${className}`}>{t`Free`}</span>
  );
}

/**
 * A course cover (16:9), or a calm placeholder when the course has none. `first`: the cover at
 * the top of the screen (a detail page's, a list's first), usually its largest paint: fetched at
 * once and first, not when the layout finds it in view (lazy loading cost the catalog about 4 s
 * of Lighthouse's simulated phone before its cover started).
 */
export function CourseCover({ src, className = "", first = false }: { src: string; className?: string; first?: boolean }) {
  const cdnUrl = useSiteConfig((s) => s.cdnUrl);
  const apiUrl = useSiteConfig((s) => s.apiUrl);
  const url = fullUrl(src, cdnUrl, apiUrl);
  if (!url) {
    return (
      <div aria-hidden className={`flex aspect-video items-center justify-center bg-gradient-to-br from-blue-100 to-slate-100 dark:from-slate-800 dark:to-slate-900 ${className}`}>
        <BookOpen className="size-10 text-primary/70" />
      </div>
    );
  }
  return <img src={url} alt="" loading={first ? "eager" : "lazy"} fetchPriority={first ? "high" : "auto"} className={`aspect-video w-full object-cover ${className}`} />;
}

/** A duration in seconds as "45 min" or "2 h 5 min". */
export function useDurationText(): (seconds: number) => string {
  const { t } = useLingui();
  return (seconds) => {
    const totalMinutes = Math.max(0, Math.round(seconds / 60));
    const hours = Math.floor(totalMinutes / 60);
    const minutes = totalMinutes % 60;
    return hours > 0 ? t`${hours} h ${minutes} min` : t`${minutes} min`;
  };
}

export function LessonCount({ count }: { count: number }) {
  return <Plural value={count} one="# lesson" other="# lessons" />;
}

/** How large a course is, as its card and its page both show it: the lessons, and the length when it has one. */
export function CourseSize({ lessons, seconds }: { lessons: number; seconds: number }) {
  const durationText = useDurationText();
  return (
    <>
      <span className="inline-flex items-center gap-1">
        <Layers aria-hidden className="size-4" />
        <LessonCount count={lessons} />
      </span>
      {seconds > 0 && (
        <span className="inline-flex items-center gap-1">
          <Clock aria-hidden className="size-4" />
          {durationText(seconds)}
        </span>
      )}
    </>
  );
}

/** A labelled progress bar (value in percent); the number is also written out. */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const value = Math.min(100, Math.max(0, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
    >
      <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${value}%` }} />
    </div>
  );
}
