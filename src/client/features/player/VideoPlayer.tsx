import { useId, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { LessonDetail } from "../../../shared/course/types.ts";
import type { LessonProgressRow, MemberDb } from "../../offline/index.ts";
import { formatClock } from "../../ui/format.ts";
import { durationOf, nextSpeed, seekTarget, speedLabel, type PlayerAction } from "./controls.ts";
import { ControlBar, ShortcutHelp, type Playback } from "./PlayerControls.tsx";
import { FINE_POINTER, useMediaQuery } from "../../ui/useMediaQuery.ts";
import { toggleFullscreen, useFullscreen } from "./useFullscreen.ts";
import { useHlsSource } from "./useHlsSource.ts";
import { useProgressRecorder } from "./useProgressRecorder.ts";
import { usePlayerShortcuts } from "./useShortcuts.ts";

type Lesson = LessonDetail["lesson"];

/**
 * The video of a lesson with one set of controls, the app's: a control bar and a keyboard layer
 * (usePlayerShortcuts). The browser's own controls are shown only inside the system's
 * full-screen player (iPhone), where the app's cannot be. HLS plays through hls.js only when the
 * browser cannot play it itself (useHlsSource); the player resumes at the saved position and
 * records progress on this device first (useProgressRecorder).
 */
export function VideoPlayer({ lesson, src, db, local }: { lesson: Lesson; src: string; db: MemberDb | undefined; local: LessonProgressRow | null | undefined }) {
  const { t } = useLingui();
  const helpId = useId();
  // The keyboard's shortcuts only where a keyboard is likely: a device with a mouse or trackpad
  // (a phone's touch screen is a coarse pointer; a tablet with a keyboard and trackpad is not).
  const keyboard = useMediaQuery(FINE_POINTER);
  const videoRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const [playback, setPlayback] = useState<Playback>({ time: 0, length: lesson.duration, paused: true, muted: false, rate: 1 });
  /** Changes what the control bar shows (an unchanged value keeps the same state: no render). */
  const show = (change: Partial<Playback>) => setPlayback((p) => ((Object.keys(change) as (keyof Playback)[]).every((k) => p[k] === change[k]) ? p : { ...p, ...change }));
  const [mediaFailed, setMediaFailed] = useState(false);
  const [announce, setAnnounce] = useState("");
  // Before useHlsSource: React runs effect cleanups in the order of the hooks, so the position is
  // saved when the player goes away before hls.js lets go of the element (which empties it: 0).
  const progress = useProgressRecorder(videoRef, { lesson, db, local });
  const source = useHlsSource(videoRef, src, lesson.videoType);
  const { frame: fullscreenFrame, native: nativeFullscreen } = useFullscreen(frameRef, videoRef);
  const fullscreen = fullscreenFrame !== null;
  const failed = mediaFailed || source.failed;

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

  usePlayerShortcuts(perform);

  return (
    <div ref={frameRef} data-testid="player-frame" className={fullscreen ? "flex h-full w-full flex-col bg-black text-white" : "space-y-2"}>
      <div className={fullscreen ? "flex min-h-0 flex-1 items-center justify-center" : "-mx-4 bg-black sm:mx-0 sm:overflow-hidden sm:rounded-xl"}>
        <video
          ref={videoRef}
          controls={nativeFullscreen}
          playsInline
          preload="metadata"
          src={source.src}
          aria-label={lesson.title}
          aria-describedby={keyboard ? helpId : undefined}
          className={fullscreen ? "h-full w-full bg-black" : "aspect-video w-full bg-black"}
          onClick={() => perform({ kind: "toggle" })}
          onLoadedMetadata={() => {
            progress.onLoadedMetadata();
            show({ length: durationOf(videoRef.current, lesson.duration) });
          }}
          onDurationChange={() => show({ length: durationOf(videoRef.current, lesson.duration) })}
          onPlay={() => show({ paused: false })}
          onPause={() => {
            show({ paused: true });
            progress.onPause();
          }}
          onEnded={() => {
            show({ paused: true });
            progress.onEnded();
          }}
          onSeeked={() => {
            const video = videoRef.current;
            if (video) show({ time: video.currentTime });
            progress.onSeeked();
          }}
          onTimeUpdate={() => {
            const video = videoRef.current;
            if (video) show({ time: video.currentTime });
            progress.onTimeUpdate();
          }}
          onRateChange={() => show({ rate: videoRef.current?.playbackRate ?? 1 })}
          onVolumeChange={() => show({ muted: videoRef.current?.muted ?? false })}
          onError={() => setMediaFailed(true)}
        />
      </div>
      {failed && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-300">
          {t`The video cannot be played right now. Check your connection, or save it for offline use when online.`}
        </p>
      )}
      <ControlBar
        playback={playback}
        fullscreenFrame={fullscreenFrame}
        announce={announce}
        onAction={perform}
        onSeekTo={(seconds) => {
          const video = videoRef.current;
          if (!video) return;
          const to = seekTarget(seconds, 0, durationOf(video, lesson.duration));
          video.currentTime = to;
          show({ time: to });
        }}
        onSpeed={(speed) => {
          const video = videoRef.current;
          if (video) video.playbackRate = speed;
        }}
      />
      {keyboard && <ShortcutHelp id={helpId} hidden={fullscreen} />}
    </div>
  );
}
