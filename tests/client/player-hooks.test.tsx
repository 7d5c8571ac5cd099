import { act, render, renderHook } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LessonDetail } from "../../src/shared/course/types.ts";
import { LESSON_PROGRESS_INTERVAL_SECONDS } from "../../src/shared/course/types.ts";
import { deleteMemberDb, openMemberDb, type LessonProgressRow, type MemberDb } from "../../src/client/offline/db.ts";
import { recordLessonProgress } from "../../src/client/offline/index.ts";
import type { PlayerAction } from "../../src/client/features/player/controls.ts";
import { useHlsSource } from "../../src/client/features/player/useHlsSource.ts";
import { PlaybackMeter, useProgressRecorder } from "../../src/client/features/player/useProgressRecorder.ts";
import { usePlayerShortcuts } from "../../src/client/features/player/useShortcuts.ts";

// ------------------------------------------------------------------ PlaybackMeter

/** Plays from `from` to `to` in time updates of `step` seconds; the times at which a save is due. */
function play(meter: PlaybackMeter, from: number, to: number, duration: number, step = 0.25): number[] {
  const saves: number[] = [];
  for (let at = from + step; at <= to + 1e-9; at += step) {
    const now = Math.round(at * 1000) / 1000;
    if (meter.tick(now, { playing: true, duration })) saves.push(now);
  }
  return saves;
}

describe("PlaybackMeter", () => {
  it("asks for a save after every LESSON_PROGRESS_INTERVAL_SECONDS of playback", () => {
    const meter = new PlaybackMeter();
    meter.moveTo(0);
    const interval = LESSON_PROGRESS_INTERVAL_SECONDS;
    expect(play(meter, 0, interval * 2.5, 600)).toEqual([interval, interval * 2]);
  });

  it("counts only time played: not paused or seeking updates, not jumps, not going backwards", () => {
    const meter = new PlaybackMeter(10);
    meter.moveTo(0);
    expect(play(meter, 0, 6, 600)).toEqual([]); // 6 s watched
    // Paused (or seeking) time updates move the position but count nothing.
    expect(meter.tick(8, { playing: false, duration: 600 })).toBe(false);
    // A jump of more than 3 s between two updates is a seek.
    expect(meter.tick(200, { playing: true, duration: 600 })).toBe(false);
    expect(meter.tick(199, { playing: true, duration: 600 })).toBe(false);
    // 3.75 s more: still short of 10.
    expect(play(meter, 199, 202.75, 600)).toEqual([]);
    // The 10th second watched.
    expect(play(meter, 202.75, 203.5, 600)).toEqual([203]);
  });

  it("asks for a save as soon as playback crosses into the end, once", () => {
    const meter = new PlaybackMeter(10);
    meter.moveTo(90);
    // 95 % of 100 s is the end: the update that crosses 95 saves, later ones wait for the interval.
    expect(play(meter, 90, 98, 100)).toEqual([95]);
  });

  it("starts counting again from where the player was moved to", () => {
    const meter = new PlaybackMeter(10);
    meter.moveTo(0);
    expect(play(meter, 0, 8, 600)).toEqual([]);
    meter.moveTo(300); // resumed or moved by the member: the next update is 0.25 s of playback
    expect(play(meter, 300, 302, 600)).toEqual([302]);
  });
});

// ------------------------------------------------------------------ usePlayerShortcuts

function press(target: Element, key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

describe("usePlayerShortcuts", () => {
  afterEach(() => {
    document.body.replaceChildren();
  });

  it("turns the page's keys into player actions and keeps their default from the page", () => {
    const perform = vi.fn<(action: PlayerAction) => void>();
    renderHook(() => usePlayerShortcuts(perform));
    const space = press(document.body, " ");
    expect(space.defaultPrevented).toBe(true);
    press(document.body, "ArrowLeft");
    press(document.body, "L");
    press(document.body, ">");
    press(document.body, "f");
    press(document.body, "m");
    expect(perform.mock.calls.map(([action]) => action)).toEqual([
      { kind: "toggle" },
      { kind: "seek", by: -5 },
      { kind: "seek", by: 10 },
      { kind: "speed", step: 1 },
      { kind: "fullscreen" },
      { kind: "mute" },
    ]);
  });

  it("leaves alone other keys, browser shortcuts, handled keys and keys that belong to the focused control", () => {
    const perform = vi.fn<(action: PlayerAction) => void>();
    renderHook(() => usePlayerShortcuts(perform));
    const field = document.createElement("input");
    const button = document.createElement("button");
    const slider = document.createElement("div");
    slider.setAttribute("role", "slider");
    document.body.append(field, button, slider);

    const other = press(document.body, "x");
    expect(other.defaultPrevented).toBe(false);
    const copy = press(document.body, "k", { ctrlKey: true });
    expect(copy.defaultPrevented).toBe(false);
    expect(press(field, "k").defaultPrevented).toBe(false);
    expect(press(slider, "ArrowRight").defaultPrevented).toBe(false);
    // Space presses a focused button; K on it is still the player's.
    expect(press(button, " ").defaultPrevented).toBe(false);
    // Something nearer the target already handled the key.
    field.addEventListener("keydown", (event) => event.preventDefault(), { once: true });
    button.addEventListener("keydown", (event) => event.preventDefault(), { once: true });
    press(button, "m");
    expect(perform).not.toHaveBeenCalled();

    expect(press(button, "k").defaultPrevented).toBe(true);
    expect(perform).toHaveBeenCalledExactlyOnceWith({ kind: "toggle" });
  });

  it("calls the newest callback, and stops listening when the player goes away", () => {
    const first = vi.fn<(action: PlayerAction) => void>();
    const second = vi.fn<(action: PlayerAction) => void>();
    const { rerender, unmount } = renderHook(({ perform }) => usePlayerShortcuts(perform), { initialProps: { perform: first } });
    rerender({ perform: second });
    press(document.body, "j");
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledExactlyOnceWith({ kind: "seek", by: -10 });
    unmount();
    const after = press(document.body, "j");
    expect(after.defaultPrevented).toBe(false);
    expect(second).toHaveBeenCalledTimes(1);
  });
});

// ------------------------------------------------------------------ useProgressRecorder

type Lesson = LessonDetail["lesson"];
const T0 = Date.UTC(2024, 0, 1);
let nextMemberId = 7_500;
const opened: MemberDb[] = [];

afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await deleteMemberDb(db.memberId);
  }
});

function freshDb(): MemberDb {
  const db = openMemberDb(++nextMemberId);
  opened.push(db);
  return db;
}

function lesson(progress: Partial<Lesson["progress"]> = {}): Lesson {
  return {
    id: 11,
    courseId: 3,
    title: "Road signs",
    duration: 120,
    freePreview: false,
    hasVideo: true,
    content: "",
    videoUrl: "/storage/videos/signs.mp4",
    videoType: "mp4",
    videoSize: 0,
    attachments: [],
    progress: { position: 0, completed: false, lastWatched: 0, ...progress },
  };
}

/** The hook on a real (happy-dom) video element, its events wired as the player wires them. */
function Recorder({ lesson, db, local }: { lesson: Lesson; db: MemberDb | undefined; local: LessonProgressRow | null | undefined }) {
  const ref = useRef<HTMLVideoElement>(null);
  const recorder = useProgressRecorder(ref, { lesson, db, local });
  return (
    <video
      ref={ref}
      onLoadedMetadata={recorder.onLoadedMetadata}
      onTimeUpdate={recorder.onTimeUpdate}
      onSeeked={recorder.onSeeked}
      onPause={recorder.onPause}
      onEnded={recorder.onEnded}
    />
  );
}

function fire(video: HTMLVideoElement, type: string) {
  act(() => {
    video.dispatchEvent(new Event(type));
  });
}

async function loadMetadata(video: HTMLVideoElement, duration: number) {
  Object.defineProperty(video, "duration", { configurable: true, get: () => duration });
  await act(async () => {
    video.dispatchEvent(new Event("loadedmetadata"));
  });
}

/** A lesson whose progress settled() writes; queued() leaves it out. */
const FENCE_LESSON = 999;

/** The lesson's progress ops queued so far, oldest first. */
async function queued(db: MemberDb): Promise<{ position: number; completed: boolean }[]> {
  const ops = await db.outbox.orderBy("seq").toArray();
  return ops.flatMap((op) => {
    if (op.type !== "lesson.progress") throw new Error(`unexpected op ${op.type}`);
    return op.payload.lessonId === FENCE_LESSON ? [] : [{ position: op.payload.position, completed: op.payload.completed }];
  });
}

/**
 * Lets writes already asked for land: a write of another lesson's progress, queued after them
 * in the same tables, has finished once they have.
 */
async function settled(db: MemberDb): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  await recordLessonProgress(db, { lessonId: FENCE_LESSON, courseId: 3, position: 1, completed: false });
}

describe("useProgressRecorder", () => {
  it("waits for this device's copy and the metadata, resumes there, and does not report its own seek", async () => {
    const db = freshDb();
    const local: LessonProgressRow = { lessonId: 11, courseId: 3, position: 50, completed: false, updatedAt: T0 + 60_000, opId: "local" };
    const view = render(<Recorder lesson={lesson({ position: 20, lastWatched: T0 / 1000 })} db={db} local={undefined} />);
    const video = view.container.querySelector("video")!;
    await loadMetadata(video, 120);
    expect(video.currentTime).toBe(0); // this device's copy is still loading
    // Until the resume the position says nothing: a pause at 0 is not saved.
    fire(video, "pause");
    view.rerender(<Recorder lesson={lesson({ position: 20, lastWatched: T0 / 1000 })} db={db} local={local} />);
    expect(video.currentTime).toBe(50);
    fire(video, "seeked"); // the resume's own seek
    expect(await queued(db)).toEqual([]);
    // The member's seek is saved.
    video.currentTime = 70;
    fire(video, "seeked");
    await vi.waitFor(async () => expect(await queued(db)).toEqual([{ position: 70, completed: false }]));
  });

  it("saves while playing every interval of playback, not on every time update", async () => {
    const db = freshDb();
    const view = render(<Recorder lesson={lesson()} db={db} local={null} />);
    const video = view.container.querySelector("video")!;
    await loadMetadata(video, 120);
    await act(async () => {
      await video.play();
    });
    for (let at = 0.25; at <= LESSON_PROGRESS_INTERVAL_SECONDS * 2 + 3; at += 0.25) {
      video.currentTime = at;
      fire(video, "timeupdate");
    }
    await vi.waitFor(async () =>
      expect(await queued(db)).toEqual([
        { position: LESSON_PROGRESS_INTERVAL_SECONDS, completed: false },
        { position: LESSON_PROGRESS_INTERVAL_SECONDS * 2, completed: false },
      ]),
    );
    // Pausing saves where it stopped.
    video.pause();
    const stop = LESSON_PROGRESS_INTERVAL_SECONDS * 2 + 3;
    await vi.waitFor(async () => expect((await queued(db)).at(-1)).toEqual({ position: stop, completed: false }));
    // Time updates while paused (the member stepping through frames) are not playback.
    for (let at = stop + 0.25; at <= stop + LESSON_PROGRESS_INTERVAL_SECONDS * 2; at += 0.25) {
      video.currentTime = at;
      fire(video, "timeupdate");
    }
    await settled(db);
    expect(await queued(db)).toHaveLength(3);
    // The end saves the whole length as done.
    video.currentTime = 120;
    fire(video, "ended");
    await vi.waitFor(async () => expect((await queued(db)).at(-1)).toEqual({ position: 120, completed: true }));
  });

  it("saves when the page is hidden, when it goes away, and when the player unmounts", async () => {
    const db = freshDb();
    const view = render(<Recorder lesson={lesson()} db={db} local={null} />);
    const video = view.container.querySelector("video")!;
    await loadMetadata(video, 120);

    video.currentTime = 12;
    const visibility = vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    act(() => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
    visibility.mockRestore();
    await vi.waitFor(async () => expect(await queued(db)).toEqual([{ position: 12, completed: false }]));

    video.currentTime = 30;
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    await vi.waitFor(async () => expect((await queued(db)).at(-1)).toEqual({ position: 30, completed: false }));

    video.currentTime = 45;
    view.unmount();
    await vi.waitFor(async () => expect((await queued(db)).at(-1)).toEqual({ position: 45, completed: false }));
    // Gone: the page's later events save nothing more.
    video.currentTime = 60;
    window.dispatchEvent(new Event("pagehide"));
    vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    document.dispatchEvent(new Event("visibilitychange"));
    vi.restoreAllMocks();
    await settled(db);
    expect(await queued(db)).toHaveLength(3);
  });

  it("keeps a lesson done once the server has it done", async () => {
    const db = freshDb();
    const view = render(<Recorder lesson={lesson({ completed: true, position: 0 })} db={db} local={null} />);
    const video = view.container.querySelector("video")!;
    await loadMetadata(video, 120);
    video.currentTime = 5;
    fire(video, "seeked");
    await vi.waitFor(async () => expect(await queued(db)).toEqual([{ position: 5, completed: true }]));
  });
});

// ------------------------------------------------------------------ useHlsSource

function Source({ url, videoType, onResult }: { url: string; videoType: string; onResult: (r: { src: string | undefined; failed: boolean }) => void }) {
  const ref = useRef<HTMLVideoElement>(null);
  const result = useHlsSource(ref, url, videoType);
  onResult(result);
  return <video ref={ref} src={result.src} />;
}

describe("useHlsSource", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("gives files to the element itself", () => {
    const seen: { src: string | undefined; failed: boolean }[] = [];
    const view = render(<Source url="/storage/v/a.webm" videoType="webm" onResult={(r) => seen.push(r)} />);
    expect(view.container.querySelector("video")!.getAttribute("src")).toBe("/storage/v/a.webm");
    expect(seen.at(-1)).toEqual({ src: "/storage/v/a.webm", failed: false });
  });

  it("leaves HLS to a browser that plays it itself and has no Media Source Extensions (older iPhones)", () => {
    expect("MediaSource" in window).toBe(false);
    vi.spyOn(HTMLMediaElement.prototype, "canPlayType").mockImplementation((type) => (type === "application/vnd.apple.mpegurl" ? "maybe" : ""));
    const view = render(<Source url="/storage/v/index.m3u8" videoType="hls" onResult={() => undefined} />);
    expect(view.container.querySelector("video")!.getAttribute("src")).toBe("/storage/v/index.m3u8");
  });

  it("plays HLS through hls.js where Media Source Extensions exist, and says so when hls.js cannot play here", async () => {
    // Media Source Extensions that play no codec hls.js needs: hls.js loads and declines.
    vi.stubGlobal(
      "MediaSource",
      class {
        static isTypeSupported() {
          return false;
        }
      },
    );
    const seen: { src: string | undefined; failed: boolean }[] = [];
    const view = render(<Source url="/storage/v/index.m3u8" videoType="hls" onResult={(r) => seen.push(r)} />);
    expect(view.container.querySelector("video")!.hasAttribute("src")).toBe(false);
    await vi.waitFor(() => expect(seen.at(-1)).toEqual({ src: undefined, failed: true }), { timeout: 5_000 });
  });
});
