import { useEffect, useEffectEvent, useRef, useState, type RefObject } from "react";
import { LESSON_PROGRESS_INTERVAL_SECONDS, isLessonComplete, type LessonDetail } from "../../../shared/course/types.ts";
import { recordLessonProgress, type LessonProgressRow, type MemberDb } from "../../offline/index.ts";
import { durationOf, resumePosition } from "./controls.ts";

type Lesson = LessonDetail["lesson"];

/** A step larger than this (seconds) between two time updates is a jump (a seek), not playback. */
const MAX_PLAYED_STEP_SECONDS = 3;

/**
 * The seconds of a lesson actually played since the last save. Time updates while paused or
 * seeking, backwards, or jumping more than MAX_PLAYED_STEP_SECONDS count nothing.
 */
export class PlaybackMeter {
  private last = 0;
  private watched = 0;

  constructor(private readonly interval: number = LESSON_PROGRESS_INTERVAL_SECONDS) {}

  /** The element is now at `at` without having played to it (resumed, or moved by the member). */
  moveTo(at: number): void {
    this.last = at;
  }

  /**
   * A time update at `now`. True when the position is due to be saved: every `interval` seconds
   * of playback, and as soon as playback crosses into the lesson's end (where it counts as done).
   */
  tick(now: number, { playing, duration }: { playing: boolean; duration: number }): boolean {
    const delta = now - this.last;
    this.last = now;
    if (!playing || delta <= 0 || delta > MAX_PLAYED_STEP_SECONDS) return false;
    this.watched += delta;
    const crossedEnd = isLessonComplete(now, duration) && !isLessonComplete(now - delta, duration);
    if (this.watched >= this.interval || crossedEnd) {
      this.watched = 0;
      return true;
    }
    return false;
  }
}

/** The video element's events the recorder listens to. */
export interface ProgressRecorder {
  onLoadedMetadata(): void;
  onTimeUpdate(): void;
  onSeeked(): void;
  onPause(): void;
  onEnded(): void;
}

/**
 * A lesson video's progress, recorded on this device first (recordLessonProgress: the offline
 * queue sends it): resumes at the saved position (the newer of the server's and this device's)
 * once the video's metadata and this device's copy are known; then saves the position every
 * LESSON_PROGRESS_INTERVAL_SECONDS of playback, on crossing into the end, on a seek by the
 * member, on pause and end, and when the member leaves: another tab or app, closing the page, or
 * another screen (unmount).
 *
 * `local` is this device's row (undefined while it loads, null when there is none); with no `db`
 * (no member) nothing is recorded.
 */
export function useProgressRecorder(
  videoRef: RefObject<HTMLVideoElement | null>,
  { lesson, db, local }: { lesson: Lesson; db: MemberDb | undefined; local: LessonProgressRow | null | undefined },
): ProgressRecorder {
  const [metaReady, setMetaReady] = useState(false);
  /** The saved position has been applied (progress is reported only after that). */
  const resumedRef = useRef(false);
  /** The next `seeked` is the player's own resume, not the member's. */
  const ownSeekRef = useRef(false);
  const [meter] = useState(() => new PlaybackMeter());
  const localReady = !db || local !== undefined;

  function report(position: number, ended = false): void {
    // Before the resume position is known the video sits at 0 unless the member moved it: a 0
    // then says nothing (and would overwrite the saved position), any other time is theirs.
    if (!db || (!resumedRef.current && !(position > 0))) return;
    const duration = durationOf(videoRef.current, lesson.duration);
    const completed = ended || isLessonComplete(position, duration) || lesson.progress.completed;
    void recordLessonProgress(db, { lessonId: lesson.id, courseId: lesson.courseId, position, completed }).catch(() => undefined);
  }

  // Resume at the saved position once both the video's metadata and this device's copy are known.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !metaReady || !localReady || resumedRef.current) return;
    const at = resumePosition(lesson.progress, local, durationOf(video, lesson.duration));
    resumedRef.current = true;
    meter.moveTo(at);
    if (at > 0 && Math.abs(video.currentTime - at) >= 0.5) {
      ownSeekRef.current = true;
      video.currentTime = at;
    }
  }, [videoRef, meter, metaReady, localReady, local, lesson]);

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
  }, [videoRef]);

  return {
    onLoadedMetadata: () => setMetaReady(true),
    onTimeUpdate: () => {
      const video = videoRef.current;
      if (!video) return;
      const now = video.currentTime;
      if (meter.tick(now, { playing: !video.paused && !video.seeking, duration: durationOf(video, lesson.duration) })) report(now);
    },
    onSeeked: () => {
      const video = videoRef.current;
      if (!video) return;
      meter.moveTo(video.currentTime);
      if (ownSeekRef.current) {
        ownSeekRef.current = false;
        return;
      }
      report(video.currentTime);
    },
    onPause: () => {
      const video = videoRef.current;
      if (video && !video.ended) report(video.currentTime);
    },
    onEnded: () => report(durationOf(videoRef.current, lesson.duration), true),
  };
}
