import type * as ApiModule from "../../src/client/api/index.ts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/client/api/errors.ts";
import type { FaceCheckRow, MemberDb } from "../../src/client/offline/db.ts";
import { flushFaceChecks, sendFaceCheck } from "../../src/client/offline/faceUpload.ts";
import { queueFaceCheck } from "../../src/client/offline/repository/index.ts";
import { backoffDelay, createSyncEngine, type SyncDeps, type SyncEngine } from "../../src/client/offline/sync.ts";
import { memberDbs } from "../helpers/memberDb.ts";

/**
 * Face checks of official exams: queued on the device, sent alone to their own endpoint, and
 * retried by the sync engine (its runs and its backoff), not by a loop of their own.
 */

const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; method?: string; data?: unknown; timeout?: number }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

const T0 = Date.UTC(2024, 0, 1);
// Registered before the engines' hook: after-each hooks run last-registered first, so the engines
// stop before their databases close.
const freshDb = memberDbs(50_000);
const engines: SyncEngine[] = [];
afterEach(() => {
  api.request.mockReset();
  for (const engine of engines.splice(0)) engine.stop();
});

function check(n: number, over: Partial<FaceCheckRow> = {}): Omit<FaceCheckRow, "tries"> {
  return { checkId: `a1:${n}`, uuid: "a1", kind: "interval", takenAt: T0 + n, image: `data:image/jpeg;base64,${n}`, deviceVerdict: "ok", ...over };
}

const VERDICT = { code: 1, msg: "", time: 0, data: { verdict: "match" } };
const offline = () => new ApiError({ msg: "You are disconnected!", network: true });
const refused = () => new ApiError({ code: 0, msg: "Unknown exam record", status: 200 });

describe("face check uploads", () => {
  it("sends each queued check alone, oldest first, with the body and options they always had", async () => {
    const db = freshDb();
    await queueFaceCheck(db, check(2, { kind: "random" }));
    await queueFaceCheck(db, check(1, { kind: "start", image: undefined, problem: "no_camera" }));
    api.request.mockResolvedValue(VERDICT);

    expect(await flushFaceChecks(db)).toBe(true);

    expect(api.request.mock.calls).toEqual([
      [
        { url: "/api/exam/official/face", method: "post", data: { uuid: "a1", checkId: "a1:1", kind: "start", takenAt: T0 + 1, image: undefined, problem: "no_camera", deviceVerdict: "ok" }, timeout: 60_000 },
        { showErrorMessage: false, showCodeMessage: false, cancelDuplicateRequest: false },
      ],
      [
        { url: "/api/exam/official/face", method: "post", data: { uuid: "a1", checkId: "a1:2", kind: "random", takenAt: T0 + 2, image: "data:image/jpeg;base64,2", problem: undefined, deviceVerdict: "ok" }, timeout: 60_000 },
        { showErrorMessage: false, showCodeMessage: false, cancelDuplicateRequest: false },
      ],
    ]);
    expect(await db.faceChecks.count()).toBe(0);
  });

  it("stops at a check the network does not carry and keeps it, counting the try; a refused one leaves", async () => {
    const db = freshDb();
    for (const n of [1, 2, 3]) await queueFaceCheck(db, check(n));
    api.request.mockRejectedValueOnce(refused()).mockRejectedValueOnce(offline());

    expect(await flushFaceChecks(db)).toBe(false);

    expect(api.request).toHaveBeenCalledTimes(2);
    expect((await db.faceChecks.orderBy("takenAt").toArray()).map((row) => [row.checkId, row.tries])).toEqual([
      ["a1:2", 1],
      ["a1:3", 0],
    ]);
  });

  it("answers a check sent at once with the server's verdict, or why not", async () => {
    const db = freshDb();
    api.request.mockResolvedValueOnce(VERDICT).mockRejectedValueOnce(refused()).mockRejectedValueOnce(offline());
    expect(await sendFaceCheck(db, check(1))).toEqual({ sent: true, result: { verdict: "match" } });
    expect(await sendFaceCheck(db, check(2))).toEqual({ sent: false, refused: "Unknown exam record" });
    expect(await sendFaceCheck(db, check(3))).toEqual({ sent: false, refused: null });
    expect((await db.faceChecks.toArray()).map((row) => row.checkId)).toEqual(["a1:3"]);
  });
});

/** Timers are recorded, not run: a test runs what a timer would (`engine.sync()`) itself. */
interface FakeTimer {
  fn: () => void;
  ms: number;
}

function engineWith(db: MemberDb, uploads: () => Promise<boolean>) {
  const timers: FakeTimer[] = [];
  const net = { online: true };
  const deps: SyncDeps = {
    db,
    send: vi.fn(async () => []),
    pull: async () => ({ favourites: [], wrong: [], progress: [] }),
    now: () => T0,
    random: () => 0.5,
    setTimer: (fn, ms) => {
      const timer = { fn, ms };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      const i = timers.indexOf(handle as FakeTimer);
      if (i >= 0) timers.splice(i, 1);
    },
    online: () => net.online,
    uploads,
    window: new EventTarget(),
    document: Object.assign(new EventTarget(), { visibilityState: "visible" }) as unknown as SyncDeps["document"],
  };
  const engine = createSyncEngine(deps);
  engines.push(engine);
  return { engine, timers, net };
}

describe("face check uploads ride the sync engine", () => {
  it("sends them at the end of every run that reaches the server, and schedules nothing more when they went", async () => {
    const db = freshDb();
    const uploads = vi.fn(async () => true);
    const { engine, timers } = engineWith(db, uploads);
    await engine.sync();
    expect(uploads).toHaveBeenCalledTimes(1);
    expect(timers).toEqual([]);
    expect(engine.getStatus().state).toBe("idle");
  });

  it("retries one the network did not carry with the outbox's backoff, leaving the sync status alone", async () => {
    const db = freshDb();
    const uploads = vi.fn<() => Promise<boolean>>().mockResolvedValueOnce(false).mockResolvedValueOnce(false).mockResolvedValue(true);
    const { engine, timers } = engineWith(db, uploads);

    await engine.sync();
    expect(engine.getStatus().state).toBe("idle");
    expect(timers.map((t) => t.ms)).toEqual([backoffDelay(0, () => 0.5)]);

    await engine.sync(); // what the timer runs
    expect(uploads).toHaveBeenCalledTimes(2);
    expect(timers.map((t) => t.ms)).toEqual([backoffDelay(1, () => 0.5)]);

    await engine.sync(); // what the timer runs
    expect(uploads).toHaveBeenCalledTimes(3);
    expect(timers).toEqual([]);
  });

  it("does not send them on a run that cannot reach the server: the 'online' event's run does", async () => {
    const db = freshDb();
    const uploads = vi.fn(async () => true);
    const { engine, net } = engineWith(db, uploads);
    net.online = false;
    await engine.sync();
    expect(uploads).not.toHaveBeenCalled();
    expect(engine.getStatus().state).toBe("offline");
  });

  it("retries a check whose first send failed under the backoff, unless offline or a run is due", async () => {
    const db = freshDb();
    const uploads = vi.fn(async () => true);
    const { engine, timers, net } = engineWith(db, uploads);

    net.online = false;
    engine.retryUploads();
    expect(timers).toEqual([]);

    net.online = true;
    engine.retryUploads();
    expect(timers.map((t) => t.ms)).toEqual([backoffDelay(0, () => 0.5)]);
    engine.retryUploads();
    expect(timers).toHaveLength(1);

    await engine.sync(); // what the timer runs
    expect(uploads).toHaveBeenCalledTimes(1);
    expect(timers).toEqual([]);
  });
});
