import { isLessonComplete, type LessonProgress } from "../../../shared/course/types.ts";
import { mergeLessonProgress, type LessonProgressRow } from "../../offline/index.ts";

/** Playback speeds of the speed menu and the < / > shortcuts. */
export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** How a speed is shown: "1.25×". */
export function speedLabel(rate: number): string {
  return `${rate}×`;
}

/** Duration of the playing video, or the lesson's when the element does not know it yet. */
export function durationOf(video: HTMLVideoElement | null, fallback: number): number {
  const d = video?.duration;
  return d !== undefined && Number.isFinite(d) && d > 0 ? d : fallback;
}

/** Positions below this (seconds) are not worth resuming at. */
export const RESUME_MIN_SECONDS = 1;

/**
 * Where the player starts: the newer of the server's and this device's saved position; the start
 * when there is none, or when it was watched to the end (LESSON_COMPLETE_FRACTION) — a finished
 * lesson plays again from the beginning.
 */
export function resumePosition(server: LessonProgress | null | undefined, local: LessonProgressRow | null | undefined, duration: number): number {
  const { position } = mergeLessonProgress(server, local);
  if (!Number.isFinite(position) || position < RESUME_MIN_SECONDS) return 0;
  if (duration > 0) {
    if (isLessonComplete(position, duration)) return 0;
    return Math.min(position, duration);
  }
  return position;
}

export type PlayerAction =
  | { kind: "toggle" }
  | { kind: "seek"; by: number }
  | { kind: "speed"; step: 1 | -1 }
  | { kind: "fullscreen" }
  | { kind: "mute" };

/**
 * The keyboard layer: Space/K play or pause, ←/→ 5 s, J/L 10 s, < / > speed, F fullscreen,
 * M mute. Keys with Ctrl, Alt or Meta are left to the browser.
 */
export function shortcutAction(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "altKey" | "metaKey">): PlayerAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  // Letters either case: K and k.
  return SHORTCUTS.get(event.key.length === 1 ? event.key.toLowerCase() : event.key) ?? null;
}

/** Each shortcut key (letters in lower case) and what it does. */
const SHORTCUTS = new Map<string, PlayerAction>([
  [" ", { kind: "toggle" }],
  ["k", { kind: "toggle" }],
  ["ArrowLeft", { kind: "seek", by: -5 }],
  ["ArrowRight", { kind: "seek", by: 5 }],
  ["j", { kind: "seek", by: -10 }],
  ["l", { kind: "seek", by: 10 }],
  ["<", { kind: "speed", step: -1 }],
  [">", { kind: "speed", step: 1 }],
  ["f", { kind: "fullscreen" }],
  ["m", { kind: "mute" }],
]);

/**
 * Whether a key pressed on `target` belongs to it rather than to the player: text fields, selects
 * and editable content; menus, listboxes and sliders (their arrow keys); Space and Enter on
 * buttons and links (they press them).
 */
export function keyBelongsToTarget(target: EventTarget | null, key: string): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  if (el.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']")) return true;
  if (el.closest("[role=menu], [role=menubar], [role=listbox], [role=slider], [role=dialog], [role=alertdialog]")) return true;
  if ((key === " " || key === "Enter") && el.closest("button, a[href], summary, [role=button], [role=link], [role=checkbox], [role=switch]")) return true;
  return false;
}

/** The time after a seek of `by` seconds, kept within the video. */
export function seekTarget(current: number, by: number, duration: number): number {
  const next = (Number.isFinite(current) ? current : 0) + by;
  const end = Number.isFinite(duration) && duration > 0 ? duration : Number.POSITIVE_INFINITY;
  return Math.min(Math.max(0, next), end);
}

/** The next speed of SPEEDS up or down from `current` (the nearest one when it is not in the list). */
export function nextSpeed(current: number, step: 1 | -1): number {
  let nearest = 0;
  SPEEDS.forEach((s, i) => {
    if (Math.abs(s - current) < Math.abs(SPEEDS[nearest]! - current)) nearest = i;
  });
  const index = Math.min(SPEEDS.length - 1, Math.max(0, nearest + step));
  return SPEEDS[index]!;
}

/**
 * How to play HLS here: hls.js wherever Media Source Extensions exist (Chromium, Firefox, desktop
 * Safari, iOS 17.1+ with ManagedMediaSource) — its requests go through the service worker, so a
 * lesson saved for offline plays offline (Chromium's own HLS fetches segments around it) —, else
 * the browser's own HLS (older iPhones), else none.
 */
export function hlsPlayback(env: { mediaSource: boolean; nativeHls: boolean } = hlsEnvironment()): "hls.js" | "native" | "none" {
  if (env.mediaSource) return "hls.js";
  return env.nativeHls ? "native" : "none";
}

function hlsEnvironment(): { mediaSource: boolean; nativeHls: boolean } {
  if (typeof window === "undefined") return { mediaSource: false, nativeHls: false };
  const mediaSource = "MediaSource" in window || "ManagedMediaSource" in window;
  try {
    return { mediaSource, nativeHls: document.createElement("video").canPlayType("application/vnd.apple.mpegurl") !== "" };
  } catch {
    return { mediaSource, nativeHls: false };
  }
}
