import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { DropdownMenu } from "radix-ui";
import {
  CheckCircle2,
  ChevronLeft,
  ChevronRight,
  FileDown,
  Gauge,
  Keyboard,
  Maximize,
  Minimize,
  Pause,
  Play,
  Redo2,
  Undo2,
  Volume2,
  VolumeX,
} from "lucide-react";
import { Link, useSearchParams } from "react-router-dom";
import { LESSON_PROGRESS_INTERVAL_SECONDS, isLessonComplete, type LessonDetail } from "../../../shared/course/types.ts";
import { fullUrl } from "../../../shared/url.ts";
import { useLessonProgress } from "../../offline/hooks.ts";
import { recordLessonProgress, useOfflineDb, type LessonProgressRow, type MemberDb } from "../../offline/index.ts";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { formatBytes, formatClock } from "../../ui/format.ts";
import { RichText } from "../../ui/RichText.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { playerQueries } from "./api.ts";
import { SPEEDS, keyBelongsToTarget, nextSpeed, resumePosition, seekTarget, shortcutAction, hlsPlayback, type PlayerAction } from "./controls.ts";
import { OfflineVideo } from "./OfflineVideo.tsx";
import { LoadFailed } from "../../ui/LoadFailed.tsx";

type Lesson = LessonDetail["lesson"];

const controlClass =
  "inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-md px-2.5 text-sm text-slate-800 outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-primary dark:text-slate-100 dark:hover:bg-slate-800";

function speedLabel(rate: number): string {
  return `${rate}×`;
}

/** Duration of the playing video, or the lesson's when the element does not know it yet. */
function durationOf(video: HTMLVideoElement | null, fallback: number): number {
  const d = video?.duration;
  return d !== undefined && Number.isFinite(d) && d > 0 ? d : fallback;
}

type FullscreenDocument = Document & { webkitFullscreenElement?: Element | null; webkitExitFullscreen?: () => void };

function fullscreenElement(): Element | null {
  const doc = document as FullscreenDocument;
  return doc.fullscreenElement ?? doc.webkitFullscreenElement ?? null;
}

/**
 * Full screen for the player's frame (the video with the app's controls), or out of it. Where a
 * page element cannot go full screen (iPhone Safari), the video goes into the system's own
 * full-screen player, which brings its native controls (the only place they are shown).
 */
function toggleFullscreen(frame: HTMLElement, video: HTMLVideoElement): void {
  const doc = document as FullscreenDocument;
  if (fullscreenElement()) {
    if (doc.exitFullscreen) void doc.exitFullscreen().catch(() => undefined);
    else doc.webkitExitFullscreen?.();
    return;
  }
  const box = frame as HTMLElement & { webkitRequestFullscreen?: () => void };
  const el = video as HTMLVideoElement & { webkitEnterFullscreen?: () => void };
  if (typeof box.requestFullscreen === "function" && document.fullscreenEnabled !== false) void box.requestFullscreen().catch(() => el.webkitEnterFullscreen?.());
  else if (typeof box.webkitRequestFullscreen === "function") box.webkitRequestFullscreen();
  else el.webkitEnterFullscreen?.();
}

/**
 * The video of a lesson with one set of controls, the app's: a control bar (play, position slider,
 * 10 s back and forward, speed, sound, full screen) and a keyboard layer, all reachable by
 * keyboard and named for screen readers. The browser's own controls are shown only inside the
 * system's full-screen player (iPhone), where the app's cannot be. HLS plays; HLS through hls.js only when the browser cannot play it itself (a separate chunk, loaded
 * then); resumes at the saved position and records progress on this device first (offline
 * queue), every LESSON_PROGRESS_INTERVAL_SECONDS of playback and whenever playback stops or the
 * page goes away.
 */
export function VideoPlayer({ lesson, src, db, local }: { lesson: Lesson; src: string; db: MemberDb | undefined; local: LessonProgressRow | null | undefined }) {
  const { t } = useLingui();
  const helpId = useId();
  const videoRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const [time, setTime] = useState(0);
  const [length, setLength] = useState(lesson.duration);
  /** The frame while it is full screen (the speed menu opens inside it then). */
  const [fullscreenFrame, setFullscreenFrame] = useState<HTMLElement | null>(null);
  const fullscreen = fullscreenFrame !== null;
  /** The video is in the system's own full-screen player (iPhone): its native controls are needed there. */
  const [nativeFullscreen, setNativeFullscreen] = useState(false);
  const [paused, setPaused] = useState(true);
  const [muted, setMuted] = useState(false);
  const [rate, setRate] = useState(1);
  const [metaReady, setMetaReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [announce, setAnnounce] = useState("");
  /** The saved position has been applied (progress is reported only after that). */
  const resumedRef = useRef(false);
  /** The next `seeked` is the player's own resume, not the member's. */
  const ownSeekRef = useRef(false);
  const lastTimeRef = useRef(0);
  const watchedRef = useRef(0);
  const useHlsJs = lesson.videoType === "hls" && hlsPlayback() === "hls.js";
  const localReady = !db || local !== undefined;

  function report(position: number, ended = false): void {
    // Before the resume position is known the video sits at 0 unless the member moved it: a 0
    // then says nothing (and would overwrite the saved position), any other time is theirs.
    if (!db || (!resumedRef.current && !(position > 0))) return;
    const duration = durationOf(videoRef.current, lesson.duration);
    const completed = ended || isLessonComplete(position, duration) || lesson.progress.completed;
    void recordLessonProgress(db, { lessonId: lesson.id, courseId: lesson.courseId, position, completed }).catch(() => undefined);
  }

  function perform(action: PlayerAction): void {
    const video = videoRef.current;
    if (!video) return;
    switch (action.kind) {
      case "toggle":
        if (video.paused || video.ended) void video.play()?.catch(() => undefined);
        else video.pause();
        break;
      case "seek": {
        const to = seekTarget(video.currentTime, action.by, durationOf(video, lesson.duration));
        video.currentTime = to;
        const clock = formatClock(to);
        setAnnounce(t`Jumped to ${clock}`);
        break;
      }
      case "speed": {
        const next = nextSpeed(video.playbackRate, action.step);
        video.playbackRate = next;
        const label = speedLabel(next);
        setAnnounce(t`Speed ${label}`);
        break;
      }
      case "mute":
        video.muted = !video.muted;
        setAnnounce(video.muted ? t`Muted` : t`Sound on`);
        break;
      case "fullscreen":
        if (frameRef.current) toggleFullscreen(frameRef.current, video);
        break;
    }
  }

  // hls.js, only for HLS lessons (see hlsPlayback); its own chunk, destroyed on unmount.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !useHlsJs) return;
    let cancelled = false;
    let hls: { destroy(): void } | null = null;
    import("hls.js").then(
      ({ default: Hls }) => {
        if (cancelled) return;
        if (!Hls.isSupported()) {
          setFailed(true);
          return;
        }
        const instance = new Hls();
        hls = instance;
        instance.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) setFailed(true);
        });
        instance.loadSource(src);
        instance.attachMedia(video);
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      hls?.destroy();
    };
  }, [useHlsJs, src]);

  // Full screen: the frame's (app controls included), or the system player's (native controls).
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const onChange = () => {
      const current = fullscreenElement();
      setFullscreenFrame(current !== null && current === frameRef.current ? frameRef.current : null);
      setNativeFullscreen(current !== null && current === video);
    };
    const onBegin = () => setNativeFullscreen(true);
    const onEnd = () => setNativeFullscreen(false);
    document.addEventListener("fullscreenchange", onChange);
    document.addEventListener("webkitfullscreenchange", onChange);
    video.addEventListener("webkitbeginfullscreen", onBegin);
    video.addEventListener("webkitendfullscreen", onEnd);
    return () => {
      document.removeEventListener("fullscreenchange", onChange);
      document.removeEventListener("webkitfullscreenchange", onChange);
      video.removeEventListener("webkitbeginfullscreen", onBegin);
      video.removeEventListener("webkitendfullscreen", onEnd);
    };
  }, []);

  // Resume at the saved position once both the video's metadata and this device's copy are known.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !metaReady || !localReady || resumedRef.current) return;
    const at = resumePosition(lesson.progress, local, durationOf(video, lesson.duration));
    resumedRef.current = true;
    lastTimeRef.current = at;
    if (at > 0 && Math.abs(video.currentTime - at) >= 0.5) {
      ownSeekRef.current = true;
      video.currentTime = at;
    }
  }, [metaReady, localReady, local, lesson]);

  // The keyboard layer (whole page, except where the key belongs to the focused control).
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented) return;
    const action = shortcutAction(event);
    if (!action || keyBelongsToTarget(event.target, event.key)) return;
    event.preventDefault();
    perform(action);
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);

  // Leaving: another tab or app, closing the page, or another screen.
  const onLeave = useEffectEvent((video: HTMLVideoElement) => report(video.currentTime));
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const onPageHide = () => onLeave(video);
    const onVisibility = () => {
      if (document.visibilityState === "hidden") onLeave(video);
    };
    window.addEventListener("pagehide", onPageHide);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      document.removeEventListener("visibilitychange", onVisibility);
      onLeave(video);
    };
  }, []);

  function onTimeUpdate() {
    const video = videoRef.current;
    if (!video) return;
    const now = video.currentTime;
    setTime(now);
    const delta = now - lastTimeRef.current;
    lastTimeRef.current = now;
    if (video.paused || video.seeking || delta <= 0 || delta > 3) return;
    watchedRef.current += delta;
    const crossedEnd = isLessonComplete(now, durationOf(video, lesson.duration)) && !isLessonComplete(now - delta, durationOf(video, lesson.duration));
    if (watchedRef.current >= LESSON_PROGRESS_INTERVAL_SECONDS || crossedEnd) {
      watchedRef.current = 0;
      report(now);
    }
  }

  function onSeeked() {
    const video = videoRef.current;
    if (!video) return;
    lastTimeRef.current = video.currentTime;
    setTime(video.currentTime);
    if (ownSeekRef.current) {
      ownSeekRef.current = false;
      return;
    }
    report(video.currentTime);
  }

  const rateText = speedLabel(rate);
  const timeText = formatClock(time);
  const lengthText = formatClock(length);
  const sliderMax = Math.max(1, Math.floor(length));
  const onDark = fullscreen ? "text-white hover:bg-white/15 dark:hover:bg-white/15" : "";
  const button = `${controlClass} ${onDark}`;
  return (
    <div ref={frameRef} data-testid="player-frame" className={fullscreen ? "flex h-full w-full flex-col bg-black text-white" : "space-y-2"}>
      <div className={fullscreen ? "flex min-h-0 flex-1 items-center justify-center" : "-mx-4 bg-black sm:mx-0 sm:overflow-hidden sm:rounded-xl"}>
        <video
          ref={videoRef}
          controls={nativeFullscreen}
          playsInline
          preload="metadata"
          src={useHlsJs ? undefined : src}
          aria-label={lesson.title}
          aria-describedby={helpId}
          className={fullscreen ? "h-full w-full bg-black" : "aspect-video w-full bg-black"}
          onClick={() => perform({ kind: "toggle" })}
          onLoadedMetadata={() => {
            setMetaReady(true);
            setLength(durationOf(videoRef.current, lesson.duration));
          }}
          onDurationChange={() => setLength(durationOf(videoRef.current, lesson.duration))}
          onPlay={() => setPaused(false)}
          onPause={() => {
            setPaused(true);
            const video = videoRef.current;
            if (video && !video.ended) report(video.currentTime);
          }}
          onEnded={() => {
            setPaused(true);
            const video = videoRef.current;
            report(durationOf(video, lesson.duration), true);
          }}
          onSeeked={onSeeked}
          onTimeUpdate={onTimeUpdate}
          onRateChange={() => setRate(videoRef.current?.playbackRate ?? 1)}
          onVolumeChange={() => setMuted(videoRef.current?.muted ?? false)}
          onError={() => setFailed(true)}
        />
      </div>
      {failed && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-300">
          {t`The video cannot be played right now. Check your connection, or save it for offline use when online.`}
        </p>
      )}
      <div role="toolbar" aria-label={t`Video controls`} className={`flex flex-wrap items-center gap-1 ${fullscreen ? "bg-black/90 px-3 pb-2" : ""}`}>
        <div className="flex basis-full items-center gap-3 px-1">
          <span className="text-sm tabular-nums" aria-hidden>
            {timeText}
          </span>
          <input
            type="range"
            min={0}
            max={sliderMax}
            step={1}
            value={Math.min(sliderMax, Math.floor(time))}
            aria-label={t`Playback position`}
            aria-valuetext={t`${timeText} of ${lengthText}`}
            onChange={(event) => {
              const video = videoRef.current;
              if (!video) return;
              const to = seekTarget(Number(event.target.value), 0, durationOf(video, lesson.duration));
              video.currentTime = to;
              setTime(to);
            }}
            className="h-11 min-w-0 flex-1 cursor-pointer rounded accent-primary outline-none focus-visible:ring-2 focus-visible:ring-primary"
          />
          <span className="text-sm tabular-nums" aria-hidden>
            {lengthText}
          </span>
        </div>
        <button type="button" onClick={() => perform({ kind: "toggle" })} className={button} aria-label={paused ? t`Play` : t`Pause`}>
          {paused ? <Play aria-hidden className="size-5" /> : <Pause aria-hidden className="size-5" />}
        </button>
        <button type="button" onClick={() => perform({ kind: "seek", by: -10 })} className={button} aria-label={t`Back 10 seconds`}>
          <Undo2 aria-hidden className="size-5" />
          <span aria-hidden>10</span>
        </button>
        <button type="button" onClick={() => perform({ kind: "seek", by: 10 })} className={button} aria-label={t`Forward 10 seconds`}>
          <Redo2 aria-hidden className="size-5" />
          <span aria-hidden>10</span>
        </button>
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className={button} aria-label={t`Playback speed: ${rateText}`}>
            <Gauge aria-hidden className="size-5" />
            <span aria-hidden>{rateText}</span>
          </DropdownMenu.Trigger>
          {/* In full screen only the frame is shown: the menu opens inside it. */}
          <DropdownMenu.Portal container={fullscreenFrame ?? undefined}>
            <DropdownMenu.Content sideOffset={4} className="z-50 min-w-32 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
              <DropdownMenu.RadioGroup
                value={String(rate)}
                onValueChange={(value) => {
                  const video = videoRef.current;
                  if (video) video.playbackRate = Number(value);
                }}
              >
                {SPEEDS.map((speed) => (
                  <DropdownMenu.RadioItem
                    key={speed}
                    value={String(speed)}
                    className="flex min-h-11 cursor-pointer items-center gap-2 rounded px-3 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800"
                  >
                    <span className="w-4">
                      <DropdownMenu.ItemIndicator>
                        <CheckCircle2 aria-hidden className="size-4 text-primary" />
                      </DropdownMenu.ItemIndicator>
                    </span>
                    {speedLabel(speed)}
                  </DropdownMenu.RadioItem>
                ))}
              </DropdownMenu.RadioGroup>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
        <button type="button" onClick={() => perform({ kind: "mute" })} className={button} aria-label={muted ? t`Unmute` : t`Mute`} aria-pressed={muted}>
          {muted ? <VolumeX aria-hidden className="size-5" /> : <Volume2 aria-hidden className="size-5" />}
        </button>
        <button type="button" onClick={() => perform({ kind: "fullscreen" })} className={button} aria-label={fullscreen ? t`Exit full screen` : t`Full screen`}>
          {fullscreen ? <Minimize aria-hidden className="size-5" /> : <Maximize aria-hidden className="size-5" />}
        </button>
        <p role="status" className="sr-only">
          {announce}
        </p>
      </div>
      <details id={helpId} hidden={fullscreen} className="text-sm text-slate-600 dark:text-slate-300">
        <summary className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md px-1 outline-none focus-visible:ring-2 focus-visible:ring-primary">
          <Keyboard aria-hidden className="size-4" />
          <Trans>Keyboard shortcuts</Trans>
        </summary>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 pl-1">
          <dt><kbd>{t`Space`}</kbd> / <kbd>K</kbd></dt>
          <dd>{t`Play or pause`}</dd>
          <dt><kbd>←</kbd> / <kbd>→</kbd></dt>
          <dd>{t`Back or forward 5 seconds`}</dd>
          <dt><kbd>J</kbd> / <kbd>L</kbd></dt>
          <dd>{t`Back or forward 10 seconds`}</dd>
          <dt><kbd>&lt;</kbd> / <kbd>&gt;</kbd></dt>
          <dd>{t`Slower or faster`}</dd>
          <dt><kbd>F</kbd></dt>
          <dd>{t`Full screen`}</dd>
          <dt><kbd>M</kbd></dt>
          <dd>{t`Mute or unmute`}</dd>
        </dl>
      </details>
    </div>
  );
}

/** A text-only lesson counts as done when the member says so. */
function MarkDone({ lesson, db, local }: { lesson: Lesson; db: MemberDb | undefined; local: LessonProgressRow | null | undefined }) {
  const { t } = useLingui();
  const done = lesson.progress.completed || Boolean(local?.completed);
  if (done) {
    return (
      <p role="status" className="inline-flex min-h-11 items-center gap-2 font-medium text-emerald-800 dark:text-emerald-300">
        <CheckCircle2 aria-hidden className="size-5" />
        {t`Lesson done`}
      </p>
    );
  }
  return (
    <button
      type="button"
      disabled={!db}
      onClick={() => {
        if (db) void recordLessonProgress(db, { lessonId: lesson.id, courseId: lesson.courseId, position: 0, completed: true });
      }}
      className="inline-flex min-h-11 items-center gap-2 rounded-md bg-primary px-5 font-medium text-white hover:bg-primary-strong disabled:opacity-50"
    >
      <CheckCircle2 aria-hidden className="size-5" />
      <Trans>Mark as done</Trans>
    </button>
  );
}

function LessonView({ detail }: { detail: LessonDetail }) {
  const { t } = useLingui();
  const { lesson, course, prevLessonId, nextLessonId } = detail;
  const db = useOfflineDb() ?? undefined;
  const local = useLessonProgress(db, lesson.id);
  const cdnUrl = useSiteConfig((s) => s.cdnUrl);
  const apiUrl = useSiteConfig((s) => s.apiUrl);
  const src = fullUrl(lesson.videoUrl, cdnUrl, apiUrl);
  const hasVideo = lesson.hasVideo && Boolean(src);

  // Opening a text-only lesson counts as studying it (the course's "continue" goes by it).
  useEffect(() => {
    if (!db || hasVideo) return;
    void recordLessonProgress(db, { lessonId: lesson.id, courseId: lesson.courseId, position: 0, completed: lesson.progress.completed }).catch(() => undefined);
  }, [db, hasVideo, lesson]);

  const navClass =
    "inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";
  return (
    <article className="space-y-5">
      <header className="space-y-1">
        <Link to={`/course/lesson?id=${course.id}`} className="inline-flex min-h-11 items-center gap-1 text-sm text-primary hover:underline">
          <ChevronLeft aria-hidden className="size-4" />
          {course.title}
        </Link>
        <h1 className="text-xl leading-snug font-semibold sm:text-2xl">{lesson.title}</h1>
      </header>

      {hasVideo ? <VideoPlayer lesson={lesson} src={src} db={db} local={local} /> : null}

      <nav aria-label={t`Lessons`} className="flex flex-wrap items-center justify-between gap-2">
        {prevLessonId ? (
          <Link to={`/player/txPlayer?id=${prevLessonId}`} className={navClass}>
            <ChevronLeft aria-hidden className="size-4" />
            <Trans>Previous lesson</Trans>
          </Link>
        ) : (
          <span />
        )}
        {!hasVideo && <MarkDone lesson={lesson} db={db} local={local} />}
        {nextLessonId ? (
          <Link to={`/player/txPlayer?id=${nextLessonId}`} className={navClass}>
            <Trans>Next lesson</Trans>
            <ChevronRight aria-hidden className="size-4" />
          </Link>
        ) : (
          <Link to={`/course/lesson?id=${course.id}`} className={navClass}>
            <Trans>Back to the course</Trans>
          </Link>
        )}
      </nav>

      {hasVideo && <OfflineVideo url={src} videoType={lesson.videoType} videoSize={lesson.videoSize} />}

      {lesson.content && (
        <section aria-label={t`Lesson notes`} className="rounded-xl border border-slate-200 bg-white p-5 text-base sm:text-lg dark:border-slate-700 dark:bg-slate-900">
          <RichText html={lesson.content} />
        </section>
      )}

      {lesson.attachments.length > 0 && (
        <section aria-labelledby="lesson-attachments" className="space-y-2">
          <h2 id="lesson-attachments" className="text-lg font-semibold">
            <Trans>Attachments</Trans>
          </h2>
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-700 dark:bg-slate-900">
            {lesson.attachments.map((file) => (
              <li key={file.url}>
                <a
                  href={fullUrl(file.url, cdnUrl, apiUrl)}
                  download={file.name}
                  className="flex min-h-11 items-center gap-3 px-4 py-2 outline-none hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-primary dark:hover:bg-slate-800"
                >
                  <FileDown aria-hidden className="size-5 shrink-0 text-primary" />
                  <span className="min-w-0 flex-1 truncate">{file.name}</span>
                  {file.size > 0 && <span className="text-sm text-slate-600 dark:text-slate-300">{formatBytes(file.size)}</span>}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}

/** `/player/txPlayer?id=<lessonId>`: a lesson's video (or text), notes, attachments, previous and next. */
export default function PlayerPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const lessonId = Number(params.get("id"));
  const valid = Number.isSafeInteger(lessonId) && lessonId > 0;
  const query = useQuery({ ...playerQueries.lesson(lessonId), enabled: valid });

  if (!valid) {
    return (
      <p className="py-12 text-center">
        <Link to="/user/course/my_course" className="text-primary underline">
          <Trans>Choose a lesson from your courses</Trans>
        </Link>
      </p>
    );
  }
  if (query.isPending) return <Spinner className="mx-auto my-16 size-8" />;
  if (query.isError) {
    // Refused because the member is not enrolled: the way on is the course page.
    const courseId = (query.error as { data?: { courseId?: unknown } } | null)?.data?.courseId;
    if (typeof courseId === "number") {
      return (
        <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
          <p>{t`Enrol in the course to watch this lesson.`}</p>
          <Link to={`/course/lesson?id=${courseId}`} className="inline-flex min-h-11 items-center rounded-md bg-primary px-4 text-white hover:bg-primary-strong">
            <Trans>Go to the course</Trans>
          </Link>
        </div>
      );
    }
    return <LoadFailed message={t`This lesson could not be opened.`} onRetry={() => void query.refetch()} backTo="/user/course/my_course" backLabel={<Trans>My courses</Trans>} />;
  }
  // A new lesson is a new player (its own state, and the previous one reports on its way out).
  return <LessonView key={query.data.lesson.id} detail={query.data} />;
}
