import type * as ApiModule from "../../src/client/api/index.ts";
import { ApiError } from "../../src/client/api/errors.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { CourseDetail, CourseList, LessonDetail, MyCourses } from "../../src/shared/course/types.ts";
import { UUID_REGEX } from "../../src/shared/sync/protocol.ts";
import { deleteMemberDb, openMemberDb, type MemberDb } from "../../src/client/offline/db.ts";
import { recordLessonProgress } from "../../src/client/offline/repository/index.ts";
import { mergeLessonProgress, startOffline, stopOffline } from "../../src/client/offline/index.ts";
import {
  API_DATA_CACHE,
  CACHE_OWNER_KEY,
  IMAGES_CACHE,
  LESSON_VIDEOS_CACHE,
  MEMBER_IMAGES_CACHE,
  claimMemberCaches,
  isApiDataPath,
  isLazyAssetPath,
  isStorageImagePath,
  isSuccessEnvelope,
  mayBeSavedVideo,
  releaseMemberCaches,
} from "../../src/client/pwa/caches.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";
import CataloguePage, { SEARCH_DEBOUNCE_MS, catalogueParams } from "../../src/client/features/course/CataloguePage.tsx";
import CourseDetailPage, { balanceCents, watchedPercent } from "../../src/client/features/course/CourseDetailPage.tsx";
import MyCoursesPage from "../../src/client/features/course/MyCoursesPage.tsx";
import PlayerPage from "../../src/client/features/player/PlayerPage.tsx";
import { hlsPlayback, keyBelongsToTarget, nextSpeed, resumePosition, seekTarget, shortcutAction } from "../../src/client/features/player/controls.ts";
import { VideoSaveError, hlsReferences, removeSavedVideo, saveAvailability, saveVideo, savedVideoSize } from "../../src/client/features/player/videoCache.ts";
import { formatBytes, formatClock } from "../../src/client/ui/format.ts";

// The app's HTTP client, replaced by the test's own fake server: no network in these tests.
type Config = { url?: string; method?: string; params?: Record<string, unknown>; data?: unknown };
const api = vi.hoisted(() => ({
  request: vi.fn<(config: Config, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

const ok = <T,>(data: T) => ({ code: 1, msg: "", time: 0, data });

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

afterEach(() => {
  stopOffline();
  api.request.mockReset();
  localStorage.clear();
  useUserInfo.getState().clear();
});

const T0 = Date.UTC(2024, 0, 1);
let nextMemberId = 7_000;
const opened: MemberDb[] = [];

function freshDb(): MemberDb {
  const db = openMemberDb(++nextMemberId);
  opened.push(db);
  return db;
}

afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await deleteMemberDb(db.memberId);
  }
});

function ids(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function wrap(ui: ReactNode, path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          {ui}
          <LocationProbe />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

// ------------------------------------------------------------------ offline lesson progress

describe("recordLessonProgress", () => {
  it("writes the row and its lesson.progress op together", async () => {
    const db = freshDb();
    const result = await recordLessonProgress(db, { lessonId: 5, courseId: 2, position: 42.123, completed: false }, { now: () => T0 });
    expect(result.queued).toBe(true);
    const row = await db.lessonProgress.get(5);
    expect(row).toMatchObject({ lessonId: 5, courseId: 2, position: 42.12, completed: false, updatedAt: T0 });
    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ type: "lesson.progress", at: T0, status: "pending", tries: 0, payload: { lessonId: 5, position: 42.12, completed: false } });
    expect(ops[0]!.id).toMatch(UUID_REGEX);
    expect(row!.opId).toBe(ops[0]!.id);
  });

  it("writes neither when the op cannot be queued (one transaction)", async () => {
    const db = freshDb();
    await recordLessonProgress(db, { lessonId: 1, courseId: 1, position: 10, completed: false }, { now: () => T0 });
    const boom = () => {
      throw new Error("disk full");
    };
    // The row is written first; the outbox insert then fails.
    db.outbox.hook("creating", boom);
    await expect(recordLessonProgress(db, { lessonId: 1, courseId: 1, position: 50, completed: true })).rejects.toThrow();
    await expect(recordLessonProgress(db, { lessonId: 2, courseId: 1, position: 20, completed: false })).rejects.toThrow();
    db.outbox.hook("creating").unsubscribe(boom);
    expect(await db.lessonProgress.get(1)).toMatchObject({ position: 10, completed: false, updatedAt: T0 });
    expect(await db.lessonProgress.get(2)).toBeUndefined();
    expect(await db.outbox.count()).toBe(1);
    await recordLessonProgress(db, { lessonId: 2, courseId: 1, position: 20, completed: false }, { newId: ids() });
    expect(await db.lessonProgress.get(2)).toMatchObject({ position: 20 });
  });

  it("keeps completed once set, locally and in later ops", async () => {
    const db = freshDb();
    const clock = { t: T0 };
    const opts = { now: () => (clock.t += 1000), newId: ids() };
    await recordLessonProgress(db, { lessonId: 9, courseId: 3, position: 118, completed: true }, opts);
    const later = await recordLessonProgress(db, { lessonId: 9, courseId: 3, position: 12, completed: false }, opts);
    expect(later.queued).toBe(true);
    expect(later.row).toMatchObject({ position: 12, completed: true });
    const ops = await db.outbox.orderBy("seq").toArray();
    expect(ops.map((op) => (op.type === "lesson.progress" ? op.payload : null))).toEqual([
      { lessonId: 9, position: 118, completed: true },
      { lessonId: 9, position: 12, completed: true },
    ]);
    expect((await db.lessonProgress.get(9))?.completed).toBe(true);
  });

  it("queues nothing when the position moved less than a second and completed did not change", async () => {
    const db = freshDb();
    const opts = { now: () => T0, newId: ids() };
    await recordLessonProgress(db, { lessonId: 4, courseId: 1, position: 30, completed: false }, opts);
    const same = await recordLessonProgress(db, { lessonId: 4, courseId: 1, position: 30.6, completed: false }, opts);
    expect(same.queued).toBe(false);
    expect(same.row.position).toBe(30);
    expect(await db.outbox.count()).toBe(1);
    // A second or more is a change; so is completing without moving.
    expect((await recordLessonProgress(db, { lessonId: 4, courseId: 1, position: 31, completed: false }, opts)).queued).toBe(true);
    expect((await recordLessonProgress(db, { lessonId: 4, courseId: 1, position: 31, completed: true }, opts)).queued).toBe(true);
    expect(await db.outbox.count()).toBe(3);
  });

  it("sends a finite, non-negative position", async () => {
    const db = freshDb();
    const opts = { now: () => T0, newId: ids() };
    await recordLessonProgress(db, { lessonId: 6, courseId: 1, position: Number.NaN, completed: false }, opts);
    await recordLessonProgress(db, { lessonId: 7, courseId: 1, position: -3, completed: false }, opts);
    const ops = await db.outbox.toArray();
    expect(ops.map((op) => (op.type === "lesson.progress" ? op.payload.position : null))).toEqual([0, 0]);
  });
});

describe("resume position", () => {
  const server = { position: 30, completed: false, lastWatched: T0 / 1000 };

  it("takes the newer of the server's and this device's", () => {
    const newerLocal = { lessonId: 1, courseId: 1, position: 50, completed: false, updatedAt: T0 + 5_000, opId: "x" };
    const olderLocal = { ...newerLocal, updatedAt: T0 - 5_000 };
    expect(resumePosition(server, newerLocal, 120)).toBe(50);
    expect(resumePosition(server, olderLocal, 120)).toBe(30);
    expect(resumePosition(server, null, 120)).toBe(30);
    expect(resumePosition({ position: 0, completed: false, lastWatched: 0 }, olderLocal, 120)).toBe(50);
  });

  it("starts at the beginning when nothing was watched or the lesson was watched to the end", () => {
    expect(resumePosition({ position: 0.4, completed: false, lastWatched: 1 }, null, 120)).toBe(0);
    expect(resumePosition({ position: 115, completed: true, lastWatched: 1 }, null, 120)).toBe(0);
    expect(resumePosition({ position: 200, completed: false, lastWatched: 1 }, null, 0)).toBe(200);
    expect(resumePosition(null, null, 120)).toBe(0);
  });

  it("merges completion from either side", () => {
    const local = { lessonId: 1, courseId: 1, position: 10, completed: true, updatedAt: T0 - 1_000, opId: "x" };
    expect(mergeLessonProgress(server, local)).toEqual({ position: 30, completed: true, lastWatched: T0 / 1000 });
    expect(mergeLessonProgress({ ...server, completed: true }, { ...local, completed: false, updatedAt: T0 + 2_000 })).toEqual({
      position: 10,
      completed: true,
      lastWatched: T0 / 1000 + 2,
    });
  });
});

// ------------------------------------------------------------------ player controls

describe("player controls", () => {
  it("plays HLS with hls.js wherever Media Source Extensions exist, else natively", () => {
    expect(hlsPlayback({ mediaSource: true, nativeHls: true })).toBe("hls.js");
    expect(hlsPlayback({ mediaSource: true, nativeHls: false })).toBe("hls.js");
    expect(hlsPlayback({ mediaSource: false, nativeHls: true })).toBe("native");
    expect(hlsPlayback({ mediaSource: false, nativeHls: false })).toBe("none");
  });

  it("maps the shortcut keys, leaving modified keys to the browser", () => {
    const key = (k: string, mods: Partial<KeyboardEvent> = {}) => shortcutAction({ key: k, ctrlKey: false, altKey: false, metaKey: false, ...mods });
    expect(key(" ")).toEqual({ kind: "toggle" });
    expect(key("k")).toEqual({ kind: "toggle" });
    expect(key("ArrowLeft")).toEqual({ kind: "seek", by: -5 });
    expect(key("ArrowRight")).toEqual({ kind: "seek", by: 5 });
    expect(key("J")).toEqual({ kind: "seek", by: -10 });
    expect(key("l")).toEqual({ kind: "seek", by: 10 });
    expect(key(">")).toEqual({ kind: "speed", step: 1 });
    expect(key("<")).toEqual({ kind: "speed", step: -1 });
    expect(key("f")).toEqual({ kind: "fullscreen" });
    expect(key("m")).toEqual({ kind: "mute" });
    expect(key("l", { ctrlKey: true })).toBeNull();
    expect(key("x")).toBeNull();
  });

  it("keeps seeks inside the video and steps through the speeds", () => {
    expect(seekTarget(3, -5, 100)).toBe(0);
    expect(seekTarget(98, 10, 100)).toBe(100);
    expect(seekTarget(50, 10, Number.NaN)).toBe(60);
    expect(nextSpeed(1, 1)).toBe(1.25);
    expect(nextSpeed(2, 1)).toBe(2);
    expect(nextSpeed(0.5, -1)).toBe(0.5);
    expect(nextSpeed(1.1, -1)).toBe(0.75);
  });

  it("leaves keys to text fields, and Space to buttons", () => {
    const input = document.createElement("input");
    const button = document.createElement("button");
    const div = document.createElement("div");
    document.body.append(input, button, div);
    expect(keyBelongsToTarget(input, "l")).toBe(true);
    expect(keyBelongsToTarget(button, " ")).toBe(true);
    expect(keyBelongsToTarget(button, "l")).toBe(false);
    expect(keyBelongsToTarget(div, " ")).toBe(false);
    input.remove();
    button.remove();
    div.remove();
  });

  it("formats sizes and clocks", () => {
    expect(formatBytes(0)).toBe("");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MB");
    expect(formatClock(65)).toBe("1:05");
    expect(formatClock(3723)).toBe("1:02:03");
    expect(formatClock(-1)).toBe("0:00");
  });
});

// ------------------------------------------------------------------ the player screen

function lessonDetail(overrides: Partial<LessonDetail["lesson"]> = {}, serverProgress = { position: 30, completed: false, lastWatched: T0 / 1000 }): LessonDetail {
  return {
    lesson: {
      id: 11,
      courseId: 3,
      title: "Road signs",
      duration: 120,
      freePreview: false,
      hasVideo: true,
      progress: serverProgress,
      content: "<p>Read the <strong>signs</strong>.</p>",
      videoUrl: "/storage/videos/signs.mp4",
      videoType: "mp4",
      videoSize: 2 * 1024 * 1024,
      attachments: [{ name: "signs.pdf", url: "/storage/files/signs.pdf", size: 2048 }],
      ...overrides,
    },
    course: { id: 3, title: "Driving basics" },
    prevLessonId: 10,
    nextLessonId: 12,
  };
}

/** The test's server: the lesson answers; sync traffic fails (the ops stay in the outbox to inspect). */
function serveLesson(detail: LessonDetail) {
  api.request.mockImplementation(async (config) => {
    if (config.url === "/api/course/lesson" && Number(config.params?.id) === detail.lesson.id) return ok(detail);
    throw new Error("offline");
  });
}

async function openPlayer(memberId: number, detail: LessonDetail) {
  useUserInfo.setState({ id: memberId, token: "t" });
  serveLesson(detail);
  const db = await act(async () => startOffline(memberId));
  return { db };
}

/** happy-dom's media element has no media: give it a duration and say the metadata is loaded. */
async function loadMetadata(video: HTMLVideoElement, duration: number) {
  Object.defineProperty(video, "duration", { configurable: true, get: () => duration });
  await act(async () => {
    video.dispatchEvent(new Event("loadedmetadata"));
  });
}

describe("PlayerPage", () => {
  it("sends a member who is not enrolled to the course page instead of offering a retry", async () => {
    useUserInfo.setState({ id: 7_950, token: "t" });
    api.request.mockImplementation(async () => {
      throw ApiError.fromEnvelope({ code: 0, msg: "Please enrol in this course first", data: { courseId: 3 } }, 200);
    });
    wrap(<PlayerPage />, "/player/txPlayer?id=12");
    const link = await screen.findByRole("link", { name: "Go to the course" });
    expect(link).toHaveAttribute("href", "/course/lesson?id=3");
    expect(screen.getByRole("alert")).toHaveTextContent("Enrol in the course to watch this lesson.");
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
  });

  it("resumes at this device's newer position, and the keyboard seeks, changes speed and mutes", async () => {
    const memberId = 7_901;
    const { db } = await openPlayer(memberId, lessonDetail());
    await db.lessonProgress.put({ lessonId: 11, courseId: 3, position: 50, completed: false, updatedAt: T0 + 60_000, opId: "local" });
    const { container } = wrap(<PlayerPage />, "/player/txPlayer?id=11");
    expect(await screen.findByRole("heading", { name: "Road signs" })).toBeInTheDocument();
    const video = container.querySelector("video")!;
    expect(video.getAttribute("src")).toBe("/storage/videos/signs.mp4");
    await loadMetadata(video, 120);
    await vi.waitFor(() => expect(video.currentTime).toBe(50));

    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(video.currentTime).toBe(55);
    fireEvent.keyDown(document.body, { key: "l" });
    expect(video.currentTime).toBe(65);
    fireEvent.keyDown(document.body, { key: "J" });
    fireEvent.keyDown(document.body, { key: "ArrowLeft" });
    expect(video.currentTime).toBe(50);
    fireEvent.keyDown(document.body, { key: ">" });
    expect(video.playbackRate).toBe(1.25);
    fireEvent.keyDown(document.body, { key: "<" });
    fireEvent.keyDown(document.body, { key: "<" });
    expect(video.playbackRate).toBe(0.75);
    fireEvent.keyDown(document.body, { key: "m" });
    expect(video.muted).toBe(true);
    expect(within(screen.getByRole("toolbar", { name: "Video controls" })).getByRole("status")).toHaveTextContent("Muted");

    // Not while typing in a field.
    const field = document.createElement("input");
    document.body.append(field);
    field.focus();
    fireEvent.keyDown(field, { key: "l" });
    expect(video.currentTime).toBe(50);
    field.remove();

    // The control bar does the same as the keys.
    expect(screen.getByRole("button", { name: "Forward 10 seconds" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Forward 10 seconds" }));
    expect(video.currentTime).toBe(60);
  });

  it("resumes at the server's position when it is newer, and reports progress on pause and end", async () => {
    const memberId = 7_902;
    const serverTime = T0 / 1000 + 3600;
    const { db } = await openPlayer(memberId, lessonDetail({}, { position: 80, completed: false, lastWatched: serverTime }));
    await db.lessonProgress.put({ lessonId: 11, courseId: 3, position: 20, completed: false, updatedAt: T0, opId: "local" });
    const { container } = wrap(<PlayerPage />, "/player/txPlayer?id=11");
    const video = (await vi.waitFor(() => {
      const found = container.querySelector("video");
      if (!found) throw new Error("no video yet");
      return found;
    })) as HTMLVideoElement;
    await loadMetadata(video, 120);
    await vi.waitFor(() => expect(video.currentTime).toBe(80));

    video.currentTime = 90;
    await act(async () => {
      video.dispatchEvent(new Event("pause"));
    });
    await vi.waitFor(async () => expect(await db.lessonProgress.get(11)).toMatchObject({ position: 90, completed: false }));
    await act(async () => {
      video.dispatchEvent(new Event("ended"));
    });
    await vi.waitFor(async () => expect(await db.lessonProgress.get(11)).toMatchObject({ position: 120, completed: true }));
    const ops = await db.outbox.orderBy("seq").toArray();
    expect(ops.map((op) => (op.type === "lesson.progress" ? op.payload : null))).toEqual([
      { lessonId: 11, position: 90, completed: false },
      { lessonId: 11, position: 120, completed: true },
    ]);
    // The lesson's notes and attachments are below the video.
    expect(screen.getByText("signs", { selector: "strong" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /signs\.pdf/ })).toHaveAttribute("href", "/storage/files/signs.pdf");
    expect(screen.getByRole("link", { name: /Next lesson/ })).toHaveAttribute("href", "/player/txPlayer?id=12");
  });

  it("reports the position when the member leaves the lesson", async () => {
    const memberId = 7_903;
    const { db } = await openPlayer(memberId, lessonDetail({}, { position: 0, completed: false, lastWatched: 0 }));
    const { container, unmount } = wrap(<PlayerPage />, "/player/txPlayer?id=11");
    const video = (await vi.waitFor(() => {
      const found = container.querySelector("video");
      if (!found) throw new Error("no video yet");
      return found;
    })) as HTMLVideoElement;
    await loadMetadata(video, 120);
    video.currentTime = 33;
    unmount();
    await vi.waitFor(async () => expect(await db.lessonProgress.get(11)).toMatchObject({ position: 33, completed: false }));
  });

  it("lets a text-only lesson be marked done", async () => {
    const memberId = 7_904;
    const { db } = await openPlayer(memberId, lessonDetail({ hasVideo: false, videoUrl: "", videoType: "", videoSize: 0, duration: 0 }));
    wrap(<PlayerPage />, "/player/txPlayer?id=11");
    const button = await screen.findByRole("button", { name: "Mark as done" });
    expect(document.querySelector("video")).toBeNull();
    await userEvent.setup().click(button);
    expect(await screen.findByText("Lesson done")).toBeInTheDocument();
    expect(await db.lessonProgress.get(11)).toMatchObject({ completed: true, position: 0 });
  });

  it.each([
    { pointer: "a mouse or trackpad", fine: true },
    { pointer: "a touch screen only", fine: false },
  ])("lists the keyboard shortcuts under the video with $pointer: $fine", async ({ fine }) => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: query === "(any-pointer: fine)" ? fine : false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    try {
      await openPlayer(fine ? 7_909 : 7_910, lessonDetail());
      const { container } = wrap(<PlayerPage />, "/player/txPlayer?id=11");
      await screen.findByRole("heading", { name: "Road signs" });
      const video = container.querySelector("video")!;
      expect(screen.queryByText("Keyboard shortcuts") !== null).toBe(fine);
      expect(video.hasAttribute("aria-describedby")).toBe(fine);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("keeps a text lesson's previous and next on one row, with its done button above them", async () => {
    await openPlayer(7_905, lessonDetail({ hasVideo: false, videoUrl: "", videoType: "", videoSize: 0, duration: 0 }));
    wrap(<PlayerPage />, "/player/txPlayer?id=11");
    const done = await screen.findByRole("button", { name: "Mark as done" });
    const nav = screen.getByRole("navigation", { name: "Lessons" });
    expect(within(nav).getAllByRole("link").map((link) => link.textContent)).toEqual(["Previous lesson", "Next lesson"]);
    // Nothing else in the row, and it does not wrap: "next" stays beside "previous" on a phone.
    expect(nav.contains(done)).toBe(false);
    expect(nav.className).not.toMatch(/flex-wrap/);
    expect(done.compareDocumentPosition(nav) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("says an unsaved lesson cannot open offline, without a toast, and opens it once back online", async () => {
    useUserInfo.setState({ id: 7_906, token: "t" });
    const online = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    let reachable = false;
    api.request.mockImplementation(async (config) => {
      if (reachable && config.url === "/api/course/lesson") return ok(lessonDetail());
      throw new ApiError({ msg: "Network error", network: true });
    });
    try {
      wrap(<PlayerPage />, "/player/txPlayer?id=11");
      const alert = await screen.findByRole("alert");
      expect(alert).toHaveTextContent("This lesson is not saved on this device, so it cannot open offline.");
      expect(alert).toHaveTextContent("When you are back online it opens here and is kept on this device for next time.");
      // One message: the page's, no retry that cannot work while offline.
      expect(screen.getAllByRole("alert")).toHaveLength(1);
      expect(within(alert).queryByRole("button")).toBeNull();
      expect(api.request.mock.calls[0]?.[1]).toMatchObject({ showErrorMessage: false });
      reachable = true;
      online.mockReturnValue(true);
      act(() => void window.dispatchEvent(new Event("online")));
      expect(await screen.findByRole("heading", { name: "Road signs" })).toBeInTheDocument();
    } finally {
      online.mockRestore();
    }
  });

  it("offers to open and keep the lesson when online but the network did not answer", async () => {
    useUserInfo.setState({ id: 7_907, token: "t" });
    let reachable = false;
    api.request.mockImplementation(async (config) => {
      if (reachable && config.url === "/api/course/lesson") return ok(lessonDetail());
      throw new ApiError({ msg: "Network error", network: true });
    });
    wrap(<PlayerPage />, "/player/txPlayer?id=11");
    const open = await screen.findByRole("button", { name: "Open and save it" });
    expect(screen.getByRole("alert")).toHaveTextContent("You are online again: open it now and it is kept on this device for next time.");
    reachable = true;
    fireEvent.click(open);
    expect(await screen.findByRole("heading", { name: "Road signs" })).toBeInTheDocument();
  });

  it("gives the server's reason when it refuses the lesson", async () => {
    useUserInfo.setState({ id: 7_908, token: "t" });
    api.request.mockImplementation(async () => {
      throw ApiError.fromEnvelope({ code: 0, msg: "This lesson has been removed", data: null }, 200);
    });
    wrap(<PlayerPage />, "/player/txPlayer?id=11");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("This lesson could not be opened.");
    expect(alert).toHaveTextContent("This lesson has been removed");
    expect(within(alert).getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});

// ------------------------------------------------------------------ saved videos and the SW caches

/** A minimal Cache Storage for the test (happy-dom has none): URL -> Response. */
function fakeCaches() {
  const stores = new Map<string, Map<string, Response>>();
  const open = async (name: string) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const store = stores.get(name)!;
    return {
      match: async (key: string) => store.get(key)?.clone(),
      put: async (key: string, response: Response) => {
        // Like the real one: the body is read to the end before the entry exists.
        const body = await response.arrayBuffer();
        store.set(key, new Response(body, { status: response.status, headers: response.headers }));
      },
      delete: async (key: string) => store.delete(key),
    };
  };
  return { stores, open, delete: async (name: string) => stores.delete(name) };
}

describe("save for offline", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("downloads the whole video into the lesson-videos cache with progress, reads its size and removes it", async () => {
    const storage = fakeCaches();
    vi.stubGlobal("caches", storage);
    const bytes = new Uint8Array(300_000).fill(7);
    const fetchMock = vi.fn(async () => new Response(bytes, { status: 200, headers: { "content-type": "video/mp4", "content-length": String(bytes.length), vary: "Accept" } }));
    vi.stubGlobal("fetch", fetchMock);
    const progress: number[] = [];
    const size = await saveVideo("/storage/videos/a.mp4", { onProgress: (loaded, total) => progress.push(total > 0 ? loaded / total : -1) });
    expect(size).toBe(300_000);
    expect(progress.at(-1)).toBe(1);
    const key = new URL("/storage/videos/a.mp4", location.href).href;
    const stored = storage.stores.get(LESSON_VIDEOS_CACHE)?.get(key);
    expect(stored?.status).toBe(200);
    expect(stored?.headers.get("vary")).toBeNull();
    expect(await savedVideoSize("/storage/videos/a.mp4")).toBe(300_000);
    expect(await removeSavedVideo("/storage/videos/a.mp4")).toBe(true);
    expect(await savedVideoSize("/storage/videos/a.mp4")).toBeNull();
  });

  it("tells which videos can be saved here", () => {
    expect(saveAvailability("/storage/v/a.m3u8", "hls", "http://localhost")).toBe("unsupported"); // no Cache API
    vi.stubGlobal("caches", fakeCaches());
    expect(saveAvailability("/storage/v/a.m3u8", "hls", "http://localhost")).toBe("ok");
    expect(saveAvailability("/storage/v/a.webm", "webm", "http://localhost")).toBe("ok");
    expect(saveAvailability("https://cdn.example.com/a.mp4", "mp4", "http://localhost")).toBe("external");
    expect(saveAvailability("", "", "http://localhost")).toBe("no-video");
  });

  it("reads what an HLS playlist needs: variants, renditions, init sections, keys, segments", () => {
    const master = ["#EXTM3U", '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="zh",URI="audio/zh.m3u8"', "#EXT-X-STREAM-INF:BANDWIDTH=800000", "low/index.m3u8?v=2", "#EXT-X-STREAM-INF:BANDWIDTH=1600000", "high/index"].join("\n");
    expect(hlsReferences(master, "http://localhost/storage/c/master.m3u8")).toEqual({
      playlists: ["http://localhost/storage/c/audio/zh.m3u8", "http://localhost/storage/c/low/index.m3u8?v=2", "http://localhost/storage/c/high/index"],
      files: [],
    });
    const media = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", '#EXT-X-MAP:URI="init.mp4"', '#EXT-X-KEY:METHOD=AES-128,URI="/keys/k1"', "#EXTINF:4.0,", "seg-0.m4s", "", "#EXTINF:4.0,", "seg-1.m4s", "#EXTINF:4.0,", "seg-1.m4s", "#EXT-X-ENDLIST"].join("\r\n");
    expect(hlsReferences(media, "http://localhost/storage/c/low/index.m3u8")).toEqual({
      playlists: [],
      files: ["http://localhost/storage/c/low/init.mp4", "http://localhost/keys/k1", "http://localhost/storage/c/low/seg-0.m4s", "http://localhost/storage/c/low/seg-1.m4s"],
    });
  });

  it("saves an HLS video with its playlists and segments, counts them all, removes them all", async () => {
    const storage = fakeCaches();
    vi.stubGlobal("caches", storage);
    const files: Record<string, string | Uint8Array<ArrayBuffer>> = {
      "/storage/h/index.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv/media.m3u8\n",
      "/storage/h/v/media.m3u8": '#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4,\ns0.m4s\n#EXTINF:4,\ns1.m4s\n#EXT-X-ENDLIST\n',
      "/storage/h/v/init.mp4": new Uint8Array(1_000).fill(1),
      "/storage/h/v/s0.m4s": new Uint8Array(40_000).fill(2),
      "/storage/h/v/s1.m4s": new Uint8Array(30_000).fill(3),
    };
    const fetchMock = vi.fn(async (input: string | URL | Request) => {
      const body = files[new URL(String(input)).pathname];
      return body === undefined ? new Response("missing", { status: 404 }) : new Response(body, { status: 200 });
    });
    vi.stubGlobal("fetch", fetchMock);
    const playlistBytes = String(files["/storage/h/index.m3u8"]).length + String(files["/storage/h/v/media.m3u8"]).length;
    const expected = playlistBytes + 71_000;
    const progress: number[] = [];
    const size = await saveVideo("/storage/h/index.m3u8", { hls: true, expectedSize: expected, onProgress: (loaded) => progress.push(loaded) });
    expect(size).toBe(expected);
    expect(progress.at(-1)).toBe(expected);
    const cache = storage.stores.get(LESSON_VIDEOS_CACHE)!;
    for (const path of Object.keys(files)) expect(cache.has(new URL(path, location.href).href), path).toBe(true);
    expect(await savedVideoSize("/storage/h/index.m3u8")).toBe(expected);
    expect(await removeSavedVideo("/storage/h/index.m3u8")).toBe(true);
    expect(cache.size).toBe(0);
    expect(await savedVideoSize("/storage/h/index.m3u8")).toBeNull();

    // A missing segment (or one on another site) leaves nothing behind.
    delete files["/storage/h/v/s1.m4s"];
    await expect(saveVideo("/storage/h/index.m3u8", { hls: true })).rejects.toThrow(/404/);
    expect(cache.size).toBe(0);
    files["/storage/h/v/media.m3u8"] = "#EXTM3U\n#EXTINF:4,\nhttps://cdn.example.com/s0.m4s\n";
    await expect(saveVideo("/storage/h/index.m3u8", { hls: true })).rejects.toThrow(VideoSaveError);
    expect(cache.size).toBe(0);
  });

  it("keeps nothing when the server refuses the file", async () => {
    const storage = fakeCaches();
    vi.stubGlobal("caches", storage);
    vi.stubGlobal("fetch", vi.fn(async () => new Response("no", { status: 404 })));
    await expect(saveVideo("/storage/videos/b.mp4")).rejects.toThrow(/404/);
    expect(await savedVideoSize("/storage/videos/b.mp4")).toBeNull();
  });
});

describe("service worker caches", () => {
  it("caches course and exam reads, storage images and saved videos by path", () => {
    for (const path of ["/api/course/list", "/api/course/detail", "/api/course/my", "/api/course/lesson", "/api/exam/catalog"]) {
      expect(isApiDataPath(path)).toBe(true);
    }
    for (const path of ["/api/course/buy", "/api/course/enrol", "/api/exam/sync", "/api/exam/bank", "/api/course/lessons"]) {
      expect(isApiDataPath(path)).toBe(false);
    }
    expect(isStorageImagePath("/storage/2024/a.JPG")).toBe(true);
    expect(isStorageImagePath("/storage/2024/a.webp")).toBe(true);
    expect(isStorageImagePath("/storage/2024/a.pdf")).toBe(false);
    expect(isStorageImagePath("/assets/a.png")).toBe(false);
    expect(isLazyAssetPath("/assets/hls-D6a35TnA.js")).toBe(true);
    expect(isLazyAssetPath("/assets/index-D6a35TnA.js")).toBe(false);
    expect(isLazyAssetPath("/storage/assets/hls-x.js")).toBe(false);
    expect(mayBeSavedVideo("/storage/v/a.mp4", "")).toBe(true);
    expect(mayBeSavedVideo("/storage/v/stream", "video")).toBe(true);
    expect(mayBeSavedVideo("/storage/v/a.m3u8", "")).toBe(true);
    expect(mayBeSavedVideo("/storage/v/seg-001.m4s", "")).toBe(true);
    expect(mayBeSavedVideo("/src/client/main.ts", "")).toBe(false);
    expect(mayBeSavedVideo("/storage/v/notes.pdf", "")).toBe(false);
  });

  it("keeps only successful envelopes", async () => {
    expect(await isSuccessEnvelope(new Response(JSON.stringify({ code: 1, data: {} }), { status: 200 }))).toBe(true);
    expect(await isSuccessEnvelope(new Response(JSON.stringify({ code: 409, msg: "expired" }), { status: 200 }))).toBe(false);
    expect(await isSuccessEnvelope(new Response(JSON.stringify({ code: 0 }), { status: 200 }))).toBe(false);
    expect(await isSuccessEnvelope(new Response("<html>", { status: 200 }))).toBe(false);
    expect(await isSuccessEnvelope(new Response(JSON.stringify({ code: 1 }), { status: 500 }))).toBe(false);
  });

  it("clears the member caches when another member signs in or the member signs out", async () => {
    const deleted: string[] = [];
    const cacheStorage = { delete: async (name: string) => (deleted.push(name), true) };
    const deps = { storage: localStorage, caches: cacheStorage };
    expect(await claimMemberCaches(1, deps)).toBe(true);
    expect(localStorage.getItem(CACHE_OWNER_KEY)).toBe("1");
    deleted.length = 0;
    // The same member again (a reload): their copies stay.
    expect(await claimMemberCaches(1, deps)).toBe(false);
    expect(deleted).toEqual([]);
    // Another member: the first one's data goes, their paid lesson images too (and the shared
    // image cache of earlier versions, which held them); images anyone may have stay.
    const memberCaches = [API_DATA_CACHE, LESSON_VIDEOS_CACHE, MEMBER_IMAGES_CACHE, "images"].sort();
    expect(await claimMemberCaches(2, deps)).toBe(true);
    expect(deleted.sort()).toEqual(memberCaches);
    expect(deleted).not.toContain(IMAGES_CACHE);
    deleted.length = 0;
    expect(await releaseMemberCaches(deps)).toBe(true);
    expect(deleted.sort()).toEqual(memberCaches);
    expect(localStorage.getItem(CACHE_OWNER_KEY)).toBeNull();
    deleted.length = 0;
    expect(await releaseMemberCaches(deps)).toBe(false);
    expect(deleted).toEqual([]);
  });

  it("signing out through the member store releases the caches", async () => {
    const deleted: string[] = [];
    vi.stubGlobal("caches", { delete: async (name: string) => (deleted.push(name), true) });
    try {
      useUserInfo.setState({ id: 7_950, token: "t" });
      api.request.mockImplementation(async () => {
        throw new Error("offline");
      });
      await act(async () => startOffline(7_950));
      await vi.waitFor(() => expect(localStorage.getItem(CACHE_OWNER_KEY)).toBe("7950"));
      deleted.length = 0;
      act(() => useUserInfo.getState().clear());
      await vi.waitFor(() => expect(localStorage.getItem(CACHE_OWNER_KEY)).toBeNull());
      expect(deleted.sort()).toEqual([API_DATA_CACHE, LESSON_VIDEOS_CACHE, MEMBER_IMAGES_CACHE, "images"].sort());
    } finally {
      vi.unstubAllGlobals();
      await deleteMemberDb(7_950);
    }
  });
});

// ------------------------------------------------------------------ course screens

const courseList: CourseList = {
  categories: [
    { id: 1, pid: 0, title: "Driving", courseCount: 2, children: [{ id: 3, pid: 1, title: "Theory", courseCount: 1, children: [] }] },
    { id: 2, pid: 0, title: "Safety", courseCount: 1, children: [] },
  ],
  list: [
    { id: 1, categoryId: 3, title: "Road rules", cover: "", summary: "The rules of the road.", price: 0, lessonCount: 3, duration: 1500, enrolled: true },
    { id: 2, categoryId: 2, title: "First aid", cover: "/storage/covers/aid.png", summary: "Help in an emergency.", price: 1250, lessonCount: 1, duration: 3900, enrolled: false },
  ],
  total: 2,
};

describe("CataloguePage", () => {
  it("shows course cards from the list and filters by category and search through the URL", async () => {
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/course/list") return ok(courseList);
      throw new Error(`unexpected ${config.url}`);
    });
    wrap(<CataloguePage />, "/user/course/index");
    const road = await screen.findByRole("link", { name: "Road rules" });
    expect(road).toHaveAttribute("href", "/course/lesson?id=1");
    const roadCard = road.closest("li")!;
    expect(roadCard).toHaveTextContent("Free");
    expect(roadCard).toHaveTextContent("3 lessons");
    expect(roadCard).toHaveTextContent("25 min");
    expect(roadCard).toHaveTextContent("Enrolled");
    const aidCard = screen.getByRole("link", { name: "First aid" }).closest("li")!;
    expect(aidCard).toHaveTextContent("¥12.50");
    expect(aidCard).toHaveTextContent("1 lesson");
    expect(aidCard).toHaveTextContent("1 h 5 min");
    expect(aidCard).not.toHaveTextContent("Enrolled");
    expect(screen.getByText("2 courses found")).toHaveAttribute("role", "status");
    expect(api.request.mock.calls[0]![0].params).toEqual({ page: 1, limit: 12 });

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: /^Driving/ }));
    expect(screen.getByTestId("location")).toHaveTextContent("/user/course/index?category=1");
    // The chosen category's children appear in their own row.
    expect(await screen.findByRole("button", { name: /^Theory/ })).toBeInTheDocument();
    await vi.waitFor(() => expect(api.request.mock.calls.at(-1)![0].params).toEqual({ categoryId: 1, page: 1, limit: 12 }));

    await user.type(screen.getByRole("searchbox", { name: "Search courses" }), "aid");
    await vi.waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("keyword=aid"), { timeout: SEARCH_DEBOUNCE_MS + 1000 });
    await vi.waitFor(() => expect(api.request.mock.calls.at(-1)![0].params).toEqual({ categoryId: 1, keyword: "aid", page: 1, limit: 12 }));
  });

  it("reads its filter from the URL", () => {
    expect(catalogueParams(new URLSearchParams("category=4&keyword=%20x%20&page=3"))).toEqual({ categoryId: 4, keyword: "x", page: 3 });
    expect(catalogueParams(new URLSearchParams("category=-1&page=abc"))).toEqual({ categoryId: 0, keyword: "", page: 1 });
  });
});

describe("MyCoursesPage", () => {
  it("shows progress and continues at the lesson to continue with", async () => {
    const my: MyCourses = {
      list: [
        { ...courseList.list[0]!, lessonCount: 4, completedLessons: 2, percent: 50, continueLessonId: 7, lastWatched: T0 / 1000, enrolledAt: T0 / 1000 },
      ],
    };
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/course/my") return ok(my);
      throw new Error(`unexpected ${config.url}`);
    });
    wrap(<MyCoursesPage />, "/user/course/my_course");
    const bar = await screen.findByRole("progressbar", { name: "Progress of Road rules" });
    expect(bar).toHaveAttribute("aria-valuenow", "50");
    const row = bar.closest("li")!;
    expect(row).toHaveTextContent("50% complete");
    expect(row).toHaveTextContent("2 of 4 lessons done");
    expect(within(row).getByRole("link", { name: "Continue learning" })).toHaveAttribute("href", "/player/txPlayer?id=7");
  });

  it("points to the catalogue when the member has no course", async () => {
    api.request.mockResolvedValue(ok({ list: [] }));
    wrap(<MyCoursesPage />, "/user/course/my_course");
    expect(await screen.findByText("You have not enrolled in any course yet.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Browse courses" })).toHaveAttribute("href", "/user/course/index");
  });
});

describe("CourseDetailPage", () => {
  const detail: CourseDetail = {
    course: { ...courseList.list[1]!, introduction: "<p>Learn <em>first aid</em>.</p>", categoryTitle: "Safety", lessonCount: 3 },
    lessons: [
      { id: 21, courseId: 2, title: "Calling for help", duration: 600, freePreview: true, hasVideo: true, progress: { position: 300, completed: false, lastWatched: T0 / 1000 } },
      { id: 22, courseId: 2, title: "Bandages", duration: 600, freePreview: false, hasVideo: true, progress: { position: 0, completed: false, lastWatched: 0 } },
      { id: 23, courseId: 2, title: "Checklist", duration: 0, freePreview: false, hasVideo: false, progress: { position: 0, completed: false, lastWatched: 0 } },
    ],
    enrolment: null,
    continueLessonId: 21,
  };

  it("shows the introduction and lessons, and buys a paid course after confirming price and balance", async () => {
    useUserInfo.setState({ id: 7_960, token: "t", money: "100.00" });
    let enrolled = false;
    const bought: unknown[] = [];
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/course/detail") {
        return ok(enrolled ? { ...detail, enrolment: { courseId: 2, enrolledAt: 1, paid: 1250 } } : detail);
      }
      if (config.url === "/api/course/buy") {
        bought.push(config.data);
        enrolled = true;
        return ok({ enrolment: { courseId: 2, enrolledAt: 1, paid: 1250 }, money: 8750 });
      }
      if (config.url === "/api/account/profile") throw new Error("offline");
      throw new Error(`unexpected ${config.url}`);
    });
    await act(async () => startOffline(7_960));
    wrap(<CourseDetailPage />, "/course/lesson?id=2");
    expect(await screen.findByRole("heading", { name: "First aid", level: 1 })).toBeInTheDocument();
    expect(screen.getByText("first aid", { selector: "em" })).toBeInTheDocument();
    const lessons = screen.getByRole("region", { name: "Lessons" });
    const items = within(lessons).getAllByRole("listitem");
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent("50% watched");
    expect(items[0]).toHaveTextContent("Free preview");
    expect(within(items[0]!).getByRole("link")).toHaveAttribute("href", "/player/txPlayer?id=21");
    expect(within(items[1]!).queryByRole("link")).toBeNull();
    // A paid course's locked lesson opens by buying, not by enrolling.
    expect(items[1]).toHaveTextContent("Buy the course to open this lesson");
    expect(items[2]).toHaveTextContent("Text only");

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Buy for ¥12.50" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("costs ¥12.50");
    expect(dialog).toHaveTextContent("Your balance: ¥100.00");
    expect(dialog).not.toHaveTextContent("not enough");
    await user.click(within(dialog).getByRole("button", { name: "Pay ¥12.50" }));
    await vi.waitFor(() => expect(bought).toEqual([{ courseId: 2, price: 1250 }]));
    expect(await screen.findByRole("link", { name: "Continue where you left off" })).toHaveAttribute("href", "/player/txPlayer?id=21");
    expect(useUserInfo.getState().money).toBe("87.50");
    await deleteMemberDb(7_960);
  });

  it("shows progress recorded on this device that the server has not seen yet", async () => {
    useUserInfo.setState({ id: 7_961, token: "t", money: "5.00" });
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/course/detail") return ok(detail);
      throw new Error("offline");
    });
    const db = await act(async () => startOffline(7_961));
    await db.lessonProgress.put({ lessonId: 22, courseId: 2, position: 600, completed: true, updatedAt: T0 + 1000, opId: "x" });
    wrap(<CourseDetailPage />, "/course/lesson?id=2");
    const lessons = await screen.findByRole("region", { name: "Lessons" });
    await vi.waitFor(() => expect(within(lessons).getAllByRole("listitem")[1]).toHaveTextContent("Completed"));
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Buy for ¥12.50" }));
    expect(await screen.findByRole("alertdialog")).toHaveTextContent("Your balance is not enough for this course.");
    await deleteMemberDb(7_961);
  });

  it("offers to continue, not to start, once a lesson was watched on this device only", async () => {
    useUserInfo.setState({ id: 7_962, token: "t", money: "5.00" });
    const unwatched = detail.lessons.map((l) => ({ ...l, progress: { position: 0, completed: false, lastWatched: 0 } }));
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/course/detail") return ok({ ...detail, lessons: unwatched, enrolment: { courseId: 2, enrolledAt: 1, paid: 1250 } });
      throw new Error("offline");
    });
    const db = await act(async () => startOffline(7_962));
    wrap(<CourseDetailPage />, "/course/lesson?id=2");
    expect(await screen.findByRole("link", { name: "Start learning" })).toBeInTheDocument();
    await act(async () => db.lessonProgress.put({ lessonId: 21, courseId: 2, position: 100, completed: false, updatedAt: T0 + 1000, opId: "y" }));
    expect(await screen.findByRole("link", { name: "Continue where you left off" })).toHaveAttribute("href", "/player/txPlayer?id=21");
    await deleteMemberDb(7_962);
  });

  it("computes watched percent and balance", () => {
    expect(watchedPercent({ position: 60, completed: false, lastWatched: 1 }, 120)).toBe(50);
    expect(watchedPercent({ position: 119, completed: false, lastWatched: 1 }, 120)).toBe(99);
    expect(watchedPercent({ position: 0, completed: true, lastWatched: 1 }, 0)).toBe(100);
    expect(balanceCents("12.50")).toBe(1250);
    expect(balanceCents("")).toBeNull();
  });
});
