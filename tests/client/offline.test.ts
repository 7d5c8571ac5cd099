import type * as ApiModule from "../../src/client/api/index.ts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import fc from "fast-check";
import { gradeAnswer } from "../../src/shared/exam/grading.ts";
import { applyOp, applyOps, emptyState, toExamState, type ExamStateModel, type GradedOutcome } from "../../src/shared/exam/state.ts";
import type { ExamState } from "../../src/shared/sync/exam.ts";
import type { Op } from "../../src/shared/sync/ops.ts";
import { UUID_REGEX, type SyncResult } from "../../src/shared/sync/protocol.ts";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import { ApiError } from "../../src/client/api/errors.ts";
import { SessionExpiredError } from "../../src/client/api/http.ts";
import { deleteMemberDb, openMemberDb, type MemberDb, type OutboxRow } from "../../src/client/offline/db.ts";
import {
  answerPractice,
  gradedOf,
  localState,
  pendingCount,
  recordLessonProgress,
  rejectedOps,
  removeWrong,
  retrySetAside,
  saveBank,
  setFavourite,
  setProgress,
  submitMockAttempt,
  toOp,
} from "../../src/client/offline/repository/index.ts";
import {
  BACKOFF_CAP_MS,
  MAX_SOLO_FAILURES,
  PERIODIC_SYNC_MS,
  QUIET_PULL_MAX_AGE_MS,
  backoffDelay,
  classifyError,
  createSyncEngine,
  mergeIntoDb,
  mergeState,
  type SyncDeps,
  type SyncEngine,
  type SyncEngineStatus,
} from "../../src/client/offline/sync.ts";
import { getOfflineDb, prepareOffline, startOffline, stopOffline, syncNow, useOfflineDb, useSyncStatus } from "../../src/client/offline/index.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";

// The app's HTTP client, replaced: no network in these tests.
const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; method?: string; data?: unknown }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

// ------------------------------------------------------------------ fixtures

const T0 = Date.UTC(2024, 0, 1);
let nextMemberId = 1_000;
const opened: MemberDb[] = [];
const engines: SyncEngine[] = [];

function freshDb(): MemberDb {
  const db = openMemberDb(++nextMemberId);
  opened.push(db);
  return db;
}

afterEach(async () => {
  for (const engine of engines.splice(0)) engine.stop();
  for (const db of opened.splice(0)) {
    db.close();
    await deleteMemberDb(db.memberId);
  }
});

function question(id: number, overrides: Partial<ExamQuestion> = {}): ExamQuestion {
  return { id, type: "single", classifyId: 1, stem: `Q${id}`, options: [{ key: "A", text: "a" }, { key: "B", text: "b" }], answer: "A", score: 2, difficulty: 1, ...overrides };
}

const BANK = { id: 7, classifyId: 1, title: "Bank", version: "1" };
const QUESTIONS = [1, 2, 3, 4, 5].map((id) => question(id));

/** A clock that moves 1 s per call, from 2024. */
function steppingClock(start = T0): () => number {
  let t = start;
  return () => (t += 1_000);
}

async function outbox(db: MemberDb): Promise<OutboxRow[]> {
  return db.outbox.orderBy("seq").toArray();
}

/** The server side of the contract: each op id applied once per member, graded on the server. */
class FakeServer {
  model: ExamStateModel = emptyState();
  readonly seen = new Set<string>();
  readonly batches: string[][] = [];
  readonly questions = new Map(QUESTIONS.map((q) => [q.id, q]));
  /** Ops with this question id are refused. */
  rejectQuestionId = -1;

  handle(ops: Op[]): SyncResult[] {
    this.batches.push(ops.map((op) => op.id));
    return ops.map((op): SyncResult => {
      if (this.seen.has(op.id)) return { id: op.id, status: "duplicate" };
      if ("questionId" in op.payload && op.payload.questionId === this.rejectQuestionId) {
        return { id: op.id, status: "rejected", msg: "questionId: no such question" };
      }
      this.seen.add(op.id);
      let graded: GradedOutcome | undefined;
      if (op.type === "practice.answer") {
        const q = this.questions.get(op.payload.questionId);
        graded = q?.answer === undefined ? undefined : gradeAnswer({ type: q.type, answer: q.answer, score: q.score }, op.payload.answer);
      }
      this.model = applyOp(this.model, op, graded);
      return { id: op.id, status: "applied" };
    });
  }

  state(): ExamState {
    return toExamState(this.model);
  }
}

interface FakeTimer {
  fn: () => void;
  ms: number;
}

interface Harness {
  engine: SyncEngine;
  deps: SyncDeps;
  timers: FakeTimer[];
  statuses: SyncEngineStatus[];
  server: FakeServer;
  send: ReturnType<typeof vi.fn<(ops: Op[]) => Promise<SyncResult[]>>>;
  win: EventTarget;
  doc: EventTarget & { visibilityState: DocumentVisibilityState };
  net: { online: boolean };
  fire(): Promise<void>;
}

function harness(db: MemberDb, overrides: Partial<SyncDeps> = {}): Harness {
  const server = new FakeServer();
  const timers: FakeTimer[] = [];
  const statuses: SyncEngineStatus[] = [];
  const net = { online: true };
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: "visible" as DocumentVisibilityState });
  const send = vi.fn(async (ops: Op[]) => server.handle(ops));
  const deps: SyncDeps = {
    db,
    send,
    pull: async () => server.state(),
    now: () => T0 + 99_000_000,
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
    onChange: (status) => statuses.push(status),
    window: win,
    document: doc as unknown as SyncDeps["document"],
    ...overrides,
  };
  const engine = createSyncEngine(deps);
  engines.push(engine);
  return {
    engine,
    deps,
    timers,
    statuses,
    server,
    send,
    win,
    doc,
    net,
    /** Fires the one pending timer and waits for the sync it starts. */
    async fire() {
      const timer = timers.shift();
      if (!timer) throw new Error("no timer scheduled");
      timer.fn();
      await engine.sync();
    },
  };
}

/** Puts n valid favourite ops straight into the outbox (fast set-up for engine tests). */
async function seedOps(db: MemberDb, n: number, start = 0): Promise<string[]> {
  const ops: Op[] = Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(start + i).padStart(12, "0")}`,
    type: "favourite.set",
    at: T0 + start + i,
    payload: { questionId: 1 + ((start + i) % 50), on: true },
  }));
  await db.outbox.bulkAdd(ops.map((op) => ({ ...op, status: "pending", tries: 0 })));
  return ops.map((op) => op.id);
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const networkError = () => new ApiError({ msg: "Network Error", network: true });
const serverError = () => new ApiError({ msg: "Service unavailable!", status: 503 });

// ------------------------------------------------------------------ repository

describe("offline database", () => {
  it("gives each member a database of their own", async () => {
    const a = freshDb();
    const b = freshDb();
    expect(a.name).toBe(`examhub-member-${a.memberId}`);
    expect(b.name).not.toBe(a.name);
    await setFavourite(a, 1, true);
    await saveBank(a, BANK, QUESTIONS);
    expect(await a.favourites.count()).toBe(1);
    expect(await b.favourites.count()).toBe(0);
    expect(await b.outbox.count()).toBe(0);
    expect(await b.questions.count()).toBe(0);
  });

  it("rejects a member id that is not a positive integer", () => {
    expect(() => openMemberDb(0)).toThrow();
    expect(() => openMemberDb(1.5)).toThrow();
  });
});

describe("repository", () => {
  it("stores a bank with its questions in order and replaces an older copy", async () => {
    const db = freshDb();
    await saveBank(db, BANK, QUESTIONS, { now: () => T0 });
    await saveBank(db, { ...BANK, version: "2" }, QUESTIONS.slice(0, 3), { now: () => T0 + 1 });
    const bank = await db.banks.get(BANK.id);
    expect(bank).toMatchObject({ version: "2", questionCount: 3, downloadedAt: T0 + 1 });
    const rows = await db.questions.where("[bankId+position]").between([BANK.id, 0], [BANK.id, Infinity]).toArray();
    expect(rows.map((r) => [r.id, r.position])).toEqual([[1, 0], [2, 1], [3, 2]]);
    expect(await db.outbox.count()).toBe(0);
  });

  it("grades a practice answer locally and writes answer, wrong book, progress and ops together", async () => {
    const db = freshDb();
    await saveBank(db, BANK, QUESTIONS);
    const now = steppingClock();
    const right = await answerPractice(db, { bankId: BANK.id, question: QUESTIONS[0]!, answer: "A" }, { now });
    expect(right).toEqual({ correct: true, score: 2 });
    const wrong = await answerPractice(db, { bankId: BANK.id, question: QUESTIONS[1]!, answer: "B" }, { now });
    expect(wrong).toEqual({ correct: false, score: 0 });

    const answers = await db.answers.orderBy("localId").toArray();
    expect(answers.map((a) => [a.questionId, a.correct])).toEqual([[1, true], [2, false]]);
    expect(await db.wrong.get(2)).toMatchObject({ count: 1, lastTime: T0 + 2_000, removed: false });
    expect(await db.wrong.get(1)).toBeUndefined();
    expect(await db.progress.get(BANK.id)).toMatchObject({ position: 2, updatedAt: T0 + 2_000 });

    const ops = await outbox(db);
    expect(ops.map((o) => o.type)).toEqual(["practice.answer", "progress.set", "practice.answer", "progress.set"]);
    expect(ops[0]).toMatchObject({ payload: { questionId: 1, answer: "A", bankId: BANK.id }, correct: true, status: "pending", tries: 0 });
    expect(answers[1]!.opId).toBe(ops[2]!.id);
    expect(await pendingCount(db)).toBe(4);
  });

  it("counts a wrong answer again and puts a removed question back", async () => {
    const db = freshDb();
    const now = steppingClock();
    const q = question(9);
    await answerPractice(db, { bankId: BANK.id, question: q, answer: "B" }, { now });
    await removeWrong(db, 9, { now });
    expect(await db.wrong.get(9)).toMatchObject({ count: 1, removed: true });
    await answerPractice(db, { bankId: BANK.id, question: q, answer: "C" }, { now });
    expect(await db.wrong.get(9)).toMatchObject({ count: 2, removed: false });
    // Not in a downloaded bank: no progress op.
    expect((await outbox(db)).map((o) => o.type)).toEqual(["practice.answer", "wrong.remove", "practice.answer"]);
  });

  it("queues answers as the server can store them: NULs dropped, unpaired surrogates replaced", async () => {
    const db = freshDb();
    await answerPractice(db, { bankId: BANK.id, question: question(1, { type: "fill", answer: ["ab"] }), answer: ["a\u0000b"] });
    await submitMockAttempt(db, { paperId: 1, questions: QUESTIONS, answers: { "1": "A\u0000", "2": "x\ud800" }, startedAt: T0 });
    const [practice, mock] = await outbox(db);
    expect(practice).toMatchObject({ payload: { answer: ["ab"] }, correct: true });
    expect(mock).toMatchObject({ payload: { answers: { "1": "A", "2": "x\ufffd" } } });
    expect((await db.answers.toArray())[0]!.answer).toEqual(["ab"]);
  });

  it("leaves a question without an answer key ungraded", async () => {
    const db = freshDb();
    const result = await answerPractice(db, { bankId: BANK.id, question: question(3, { answer: undefined }), answer: "A" });
    expect(result).toEqual({ correct: null, score: 0 });
    expect(await db.wrong.count()).toBe(0);
    expect((await outbox(db))[0]).toMatchObject({ correct: null });
  });

  it("writes neither the row nor the op when the transaction fails half-way", async () => {
    const db = freshDb();
    await saveBank(db, BANK, QUESTIONS);
    const boom = () => {
      throw new Error("disk full");
    };
    // The local rows are written first; the outbox insert then fails.
    db.outbox.hook("creating", boom);
    await expect(answerPractice(db, { bankId: BANK.id, question: QUESTIONS[1]!, answer: "B" })).rejects.toThrow();
    await expect(setFavourite(db, 1, true)).rejects.toThrow();
    await expect(removeWrong(db, 2)).rejects.toThrow();
    await expect(setProgress(db, BANK.id, 3)).rejects.toThrow();
    await expect(
      submitMockAttempt(db, { paperId: 1, questions: QUESTIONS, answers: { "1": "A" }, startedAt: T0 }),
    ).rejects.toThrow();
    db.outbox.hook("creating").unsubscribe(boom);

    expect(await db.answers.count()).toBe(0);
    expect(await db.wrong.count()).toBe(0);
    expect(await db.progress.count()).toBe(0);
    expect(await db.favourites.count()).toBe(0);
    expect(await db.attempts.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it("gives each op its 36-char id and time when it is made, not when it is sent", async () => {
    const db = freshDb();
    await setFavourite(db, 4, true, { now: () => T0 + 5 });
    await setProgress(db, BANK.id, 2, { now: () => T0 + 6 });
    const rows = await outbox(db);
    for (const row of rows) {
      expect(row.id).toHaveLength(36);
      expect(row.id).toMatch(UUID_REGEX);
    }
    expect(rows.map((r) => r.at)).toEqual([T0 + 5, T0 + 6]);
    // No token, no local bookkeeping on the wire.
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(["at", "id", "payload", "seq", "status", "tries", "type"]);
      expect(Object.keys(toOp(row)).sort()).toEqual(["at", "id", "payload", "type"]);
    }

    const h = harness(db, { now: () => T0 + 10_000_000 });
    await h.engine.sync();
    const sent = h.send.mock.calls[0]![0];
    expect(sent).toEqual(rows.map(toOp));
  });

  it("keeps the outbox in creation order", async () => {
    const db = freshDb();
    const now = steppingClock();
    await setFavourite(db, 1, true, { now });
    await removeWrong(db, 2, { now });
    await setProgress(db, BANK.id, 1, { now });
    await setFavourite(db, 1, false, { now });
    const rows = await outbox(db);
    expect(rows.map((r) => r.type)).toEqual(["favourite.set", "wrong.remove", "progress.set", "favourite.set"]);
    expect(rows.map((r) => r.at)).toEqual([...rows.map((r) => r.at)].sort((a, b) => a - b));
    expect(await db.favourites.get(1)).toMatchObject({ on: false });
  });

  it("grades and queues a mock attempt once", async () => {
    const db = freshDb();
    const attempt = { paperId: 3, questions: QUESTIONS, answers: { "1": "A", "2": "B", "3": "A" }, startedAt: T0 };
    const result = await submitMockAttempt(db, attempt, { now: () => T0 + 60_000 });
    expect(result.score).toBe(4);
    expect(result.attemptId).toMatch(UUID_REGEX);
    expect(result.results["2"]).toEqual({ correct: false, score: 0 });
    expect(result.results["5"]).toEqual({ correct: false, score: 0 });
    const stored = await db.attempts.get(result.attemptId);
    expect(stored).toMatchObject({ status: "submitted", score: 4, submittedAt: T0 + 60_000 });
    const again = await submitMockAttempt(db, { ...attempt, attemptId: result.attemptId });
    expect(again.score).toBe(4);
    const rows = await outbox(db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: "attempt.submit",
      at: T0 + 60_000,
      payload: { attemptId: result.attemptId, paperId: 3, startedAt: T0, submittedAt: T0 + 60_000, answers: attempt.answers },
    });
  });
});

// ------------------------------------------------------------------ engine

describe("sync engine", () => {
  it("sends the outbox in order, in batches of 200, one request at a time", async () => {
    const db = freshDb();
    const ids = await seedOps(db, 450);
    const h = harness(db);
    let inFlight = 0;
    let maxInFlight = 0;
    h.send.mockImplementation(async (ops) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      return h.server.handle(ops);
    });
    await h.engine.sync();
    expect(h.send.mock.calls.map(([ops]) => ops.length)).toEqual([200, 200, 50]);
    expect(h.server.batches.flat()).toEqual(ids);
    expect(maxInFlight).toBe(1);
    expect(await db.outbox.count()).toBe(0);
    expect(h.engine.getStatus()).toMatchObject({ state: "idle", pending: 0, rejected: 0, lastSyncAt: T0 + 99_000_000 });
    expect(h.timers).toHaveLength(0);
  });

  it("removes applied and duplicate ops and keeps a rejected one, never resending it", async () => {
    const db = freshDb();
    await setFavourite(db, 1, true);
    await setFavourite(db, 666, true);
    await setFavourite(db, 2, true);
    const h = harness(db);
    h.server.rejectQuestionId = 666;
    const first = (await outbox(db))[0]!;
    h.server.seen.add(first.id); // already applied once: duplicate
    await h.engine.sync();

    const rejected = await rejectedOps(db);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ status: "rejected", msg: "questionId: no such question", payload: { questionId: 666 } });
    expect(await pendingCount(db)).toBe(0);
    expect(h.engine.getStatus()).toMatchObject({ state: "idle", pending: 0, rejected: 1 });

    await setFavourite(db, 3, true);
    await h.engine.sync();
    expect(h.send).toHaveBeenCalledTimes(2);
    expect(h.send.mock.calls[1]![0].map((op) => op.payload)).toEqual([{ questionId: 3, on: true }]);
    expect(await rejectedOps(db)).toHaveLength(1);
  });

  it("keeps ops without a result pending and tries again on the periodic timer", async () => {
    const db = freshDb();
    await seedOps(db, 3);
    const h = harness(db);
    h.send.mockImplementationOnce(async (ops) => h.server.handle(ops).slice(0, 2));
    await h.engine.sync();
    expect(h.send).toHaveBeenCalledTimes(1); // no hot loop
    expect(await pendingCount(db)).toBe(1);
    expect((await outbox(db))[0]!.tries).toBe(1);
    expect(h.timers.map((t) => t.ms)).toEqual([PERIODIC_SYNC_MS]);
    await h.fire();
    expect(await pendingCount(db)).toBe(0);
    expect(h.timers).toHaveLength(0);
  });

  it("keeps ops on a network error and retries with backoff and jitter", async () => {
    const db = freshDb();
    await seedOps(db, 5);
    const h = harness(db, { random: () => 0.25 });
    h.send.mockRejectedValueOnce(networkError()).mockRejectedValueOnce(serverError());
    await h.engine.sync();
    expect(await pendingCount(db)).toBe(5);
    expect(h.engine.getStatus()).toMatchObject({ state: "offline", pending: 5 });
    expect(h.timers.map((t) => t.ms)).toEqual([backoffDelay(0, () => 0.25)]);

    await h.fire();
    expect(h.engine.getStatus().state).toBe("error");
    expect(h.timers.map((t) => t.ms)).toEqual([backoffDelay(1, () => 0.25)]);
    expect(await pendingCount(db)).toBe(5);

    await h.fire();
    expect(h.send).toHaveBeenCalledTimes(3);
    expect(await db.outbox.count()).toBe(0);
    expect(h.engine.getStatus().state).toBe("idle");
    expect(h.timers).toHaveLength(0);
  });

  it("does not send while the browser is offline and syncs on the 'online' event", async () => {
    const db = freshDb();
    await seedOps(db, 2);
    const h = harness(db);
    h.net.online = false;
    h.engine.start();
    await h.engine.sync();
    expect(h.send).not.toHaveBeenCalled();
    expect(h.engine.getStatus()).toMatchObject({ state: "offline", pending: 2 });

    h.net.online = true;
    h.win.dispatchEvent(new Event("online"));
    await h.engine.sync();
    expect(await db.outbox.count()).toBe(0);
    expect(h.engine.getStatus().state).toBe("idle");
  });

  it("syncs at once when the network comes back while a run is failing, not when the offline spell's backoff ends", async () => {
    const db = freshDb();
    await seedOps(db, 3);
    const h = harness(db);
    // A run under way when the 'online' event comes: its request is lost in the switch.
    let fail!: () => void;
    h.send.mockImplementationOnce(() => new Promise((_resolve, reject) => (fail = () => reject(networkError()))));
    h.engine.start();
    await vi.waitFor(() => expect(h.send).toHaveBeenCalledTimes(1));
    h.win.dispatchEvent(new Event("online"));
    fail();
    await h.engine.sync();
    // Sent again at once: no timer had to fire.
    expect(h.send).toHaveBeenCalledTimes(2);
    expect(await db.outbox.count()).toBe(0);
    expect(h.engine.getStatus().state).toBe("idle");
  });

  it.each([
    ["SessionExpiredError", () => new SessionExpiredError("user")],
    ["envelope 303", () => ApiError.fromEnvelope({ code: 303, msg: "Please login first", data: { type: "need login" } }, 200)],
    ["envelope 409", () => ApiError.fromEnvelope({ code: 409, msg: "Token expiration", data: null }, 200)],
  ])("keeps every op and stops on an auth failure (%s)", async (_name, error) => {
    const db = freshDb();
    await seedOps(db, 3);
    const h = harness(db);
    h.send.mockRejectedValueOnce(error());
    h.engine.start();
    await h.engine.sync();
    expect(await pendingCount(db)).toBe(3);
    expect(h.engine.getStatus()).toMatchObject({ state: "auth", pending: 3 });
    expect(h.timers).toHaveLength(0);
    // Triggers do nothing until the member signs in again (start()).
    h.win.dispatchEvent(new Event("focus"));
    await h.engine.sync();
    expect(h.send).toHaveBeenCalledTimes(1);
    h.engine.stop();
    h.engine.start();
    await h.engine.sync();
    expect(await pendingCount(db)).toBe(0);
  });

  it("classifies errors", () => {
    expect(classifyError(new SessionExpiredError("user"))).toBe("auth");
    expect(classifyError(ApiError.fromEnvelope({ code: 303, msg: "" }, 200))).toBe("auth");
    expect(classifyError(ApiError.fromEnvelope({ code: 0, msg: "bad" }, 200))).toBe("error");
    expect(classifyError(networkError())).toBe("offline");
    expect(classifyError(serverError())).toBe("error");
    expect(classifyError(new Error("zod"))).toBe("error");
  });

  it("coalesces triggers during a run into exactly one more run", async () => {
    const db = freshDb();
    await seedOps(db, 2);
    const h = harness(db);
    const gate = deferred<void>();
    let inFlight = 0;
    let maxInFlight = 0;
    h.send.mockImplementation(async (ops) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (h.send.mock.calls.length === 1) await gate.promise;
      inFlight--;
      return h.server.handle(ops);
    });
    const first = h.engine.sync();
    await vi.waitFor(() => expect(h.send).toHaveBeenCalledTimes(1));
    expect(h.engine.getStatus().state).toBe("syncing");
    await seedOps(db, 1, 100);
    const more = [h.engine.sync(), h.engine.sync(), h.engine.sync()];
    h.win.dispatchEvent(new Event("focus"));
    gate.resolve();
    await Promise.all([first, ...more]);
    expect(h.send).toHaveBeenCalledTimes(2);
    expect(h.send.mock.calls[1]![0]).toHaveLength(1);
    expect(maxInFlight).toBe(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it("resends after a lost answer and drops the ops the server reports as duplicate", async () => {
    const db = freshDb();
    await saveBank(db, BANK, QUESTIONS);
    await answerPractice(db, { bankId: BANK.id, question: QUESTIONS[0]!, answer: "B" });
    const h = harness(db);
    // The server applies the batch, then the connection drops before the answer arrives.
    h.send.mockImplementationOnce(async (ops) => {
      h.server.handle(ops);
      throw networkError();
    });
    await h.engine.sync();
    expect(await pendingCount(db)).toBe(2);
    await h.fire();
    expect(h.send.mock.calls[1]![0].map((op) => op.id)).toEqual(h.send.mock.calls[0]![0].map((op) => op.id));
    expect(await db.outbox.count()).toBe(0);
    // Applied once: one wrong answer counted.
    expect(h.server.state().wrong).toEqual([{ questionId: 1, count: 1, lastTime: expect.any(Number) }]);
    expect(await localState(db)).toEqual(h.server.state());
  });

  it("installs and removes its triggers", async () => {
    const db = freshDb();
    const h = harness(db);
    h.engine.start();
    await h.engine.sync();
    const calls = () => h.statuses.filter((s) => s.state === "syncing").length;
    const before = calls();
    h.win.dispatchEvent(new Event("focus"));
    await h.engine.sync();
    h.doc.visibilityState = "visible";
    h.doc.dispatchEvent(new Event("visibilitychange"));
    await h.engine.sync();
    expect(calls()).toBeGreaterThan(before);

    h.engine.stop();
    const stopped = h.statuses.length;
    h.win.dispatchEvent(new Event("online"));
    h.win.dispatchEvent(new Event("focus"));
    h.doc.dispatchEvent(new Event("visibilitychange"));
    await new Promise((r) => setTimeout(r, 5));
    expect(h.statuses.length).toBe(stopped);
    expect(h.timers).toHaveLength(0);
  });

  it("runs once more when ops are made while a run is in flight", async () => {
    const db = freshDb();
    await seedOps(db, 1);
    const h = harness(db);
    const gate = deferred<void>();
    h.send.mockImplementationOnce(async (ops) => {
      await gate.promise;
      return h.server.handle(ops);
    });
    const run = h.engine.sync();
    await vi.waitFor(() => expect(h.send).toHaveBeenCalledTimes(1));
    await setFavourite(db, 9, true);
    await h.engine.notifyLocalChange();
    gate.resolve();
    await run;
    expect(h.send).toHaveBeenCalledTimes(2);
    expect(await db.outbox.count()).toBe(0);
  });

  it("schedules a sync soon after a local change", async () => {
    const db = freshDb();
    const h = harness(db);
    await h.engine.sync();
    await setFavourite(db, 1, true);
    await h.engine.notifyLocalChange();
    expect(h.engine.getStatus().pending).toBe(1);
    expect(h.timers).toHaveLength(1);
    await h.fire();
    expect(h.engine.getStatus().pending).toBe(0);
  });

  it("pulls after a push and merges the server's state under the pending ops", async () => {
    const db = freshDb();
    const h = harness(db);
    // Another device's changes, already on the server.
    h.server.handle([
      { id: "10000000-0000-4000-8000-000000000001", type: "favourite.set", at: T0, payload: { questionId: 40, on: true } },
      { id: "10000000-0000-4000-8000-000000000002", type: "progress.set", at: T0, payload: { bankId: 8, position: 4 } },
    ]);
    await setFavourite(db, 41, true);
    // The push fails: local changes stay local.
    h.send.mockRejectedValueOnce(serverError());
    await h.engine.sync();
    expect((await localState(db)).favourites).toEqual([41]);
    await h.fire();
    expect(await localState(db)).toEqual({ favourites: [40, 41], wrong: [], progress: [{ bankId: 8, position: 4, updatedAt: T0 }] });
  });

  it("skips the state pulls after pushing only ops they cannot show (an exam's answers), while the last pull is younger than 5 minutes", async () => {
    const db = freshDb();
    let now = T0;
    let pulls = 0;
    const h = harness(db, { now: () => now, pull: async () => (pulls++, h.server.state()) });
    const lesson = (position: number) => recordLessonProgress(db, { lessonId: 3, courseId: 1, position, completed: false }, { now: () => now });
    await h.engine.sync();
    expect(pulls).toBe(1);
    // Quiet pushes: sent, acknowledged, no pull.
    now += 30_000;
    await lesson(40);
    await h.engine.sync();
    now += 30_000;
    await lesson(80);
    await h.engine.sync();
    expect(h.send).toHaveBeenCalledTimes(2);
    expect(await pendingCount(db)).toBe(0);
    expect(pulls).toBe(1);
    // A push that changes what the pull reads pulls at once.
    await setFavourite(db, 4, true);
    await h.engine.sync();
    expect(pulls).toBe(2);
    // A run with nothing to push (a start, a reconnect, focus) always pulls.
    await h.engine.sync();
    expect(pulls).toBe(3);
    // Past QUIET_PULL_MAX_AGE_MS a quiet push pulls again.
    now += QUIET_PULL_MAX_AGE_MS - 1;
    await lesson(120);
    await h.engine.sync();
    expect(pulls).toBe(3);
    now += 1;
    await lesson(160);
    await h.engine.sync();
    expect(pulls).toBe(4);
    expect(h.send).toHaveBeenCalledTimes(5);
  });

  it("keeps ops queued after a pull when they are still pending", async () => {
    const db = freshDb();
    const server: ExamState = { favourites: [1, 2], wrong: [{ questionId: 5, count: 2, lastTime: T0 }], progress: [] };
    await setFavourite(db, 2, false, { now: () => T0 + 1 });
    await answerPractice(db, { bankId: BANK.id, question: question(5), answer: "B" }, { now: () => T0 + 2 });
    await mergeIntoDb(db, server);
    expect(await localState(db)).toEqual({ favourites: [1], wrong: [{ questionId: 5, count: 3, lastTime: T0 + 2 }], progress: [] });
    expect(await pendingCount(db)).toBe(2);
  });
});

describe("backoffDelay", () => {
  it("is full jitter over an exponential capped at 5 minutes", () => {
    expect(backoffDelay(0, () => 0)).toBe(0);
    expect(backoffDelay(0, () => 0.999)).toBeCloseTo(999);
    expect(backoffDelay(3, () => 0.5)).toBe(4_000);
    expect(backoffDelay(8, () => 1)).toBe(256_000);
    expect(backoffDelay(9, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(60, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(2_000, () => 0.999)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
  });

  it("stays within [0, min(cap, 1 s * 2^attempt)]", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const delay = backoffDelay(attempt, () => r);
        return delay >= 0 && delay <= Math.min(BACKOFF_CAP_MS, 1_000 * 2 ** attempt);
      }),
    );
  });
});

// ------------------------------------------------------------------ mergeState

describe("mergeState", () => {
  const server: ExamState = {
    favourites: [1, 2],
    wrong: [{ questionId: 3, count: 2, lastTime: T0 + 100 }],
    progress: [{ bankId: 7, position: 5, updatedAt: T0 + 100 }],
  };
  let n = 0;
  const op = <O extends Op>(o: Omit<O, "id">): O => ({ ...o, id: `20000000-0000-4000-8000-${String(++n).padStart(12, "0")}` }) as O;

  it("is the server state when nothing is pending", () => {
    expect(mergeState(server, [])).toEqual(server);
  });

  it("re-applies pending favourites on top", () => {
    const ops = [
      op<Op>({ type: "favourite.set", at: T0, payload: { questionId: 2, on: false } }),
      op<Op>({ type: "favourite.set", at: T0, payload: { questionId: 9, on: true } }),
    ];
    expect(mergeState(server, ops).favourites).toEqual([1, 9]);
  });

  it("removes a wrong question unless the server saw a newer wrong answer", () => {
    expect(mergeState(server, [op<Op>({ type: "wrong.remove", at: T0 + 200, payload: { questionId: 3 } })]).wrong).toEqual([]);
    expect(mergeState(server, [op<Op>({ type: "wrong.remove", at: T0 + 50, payload: { questionId: 3 } })]).wrong).toEqual(server.wrong);
  });

  it("counts a pending wrong answer with its local grading", () => {
    const answer = op<Op>({ type: "practice.answer", at: T0 + 300, payload: { questionId: 3, answer: "B", bankId: 7 } });
    expect(mergeState(server, [answer], () => ({ correct: false })).wrong).toEqual([{ questionId: 3, count: 3, lastTime: T0 + 300 }]);
    expect(mergeState(server, [answer], () => ({ correct: true })).wrong).toEqual(server.wrong);
    expect(mergeState(server, [answer]).wrong).toEqual(server.wrong);
  });

  it("keeps the newer progress", () => {
    const newer = op<Op>({ type: "progress.set", at: T0 + 200, payload: { bankId: 7, position: 6 } });
    const older = op<Op>({ type: "progress.set", at: T0 + 50, payload: { bankId: 7, position: 1 } });
    expect(mergeState(server, [newer]).progress).toEqual([{ bankId: 7, position: 6, updatedAt: T0 + 200 }]);
    expect(mergeState(server, [older]).progress).toEqual(server.progress);
  });

  it("ignores ops that do not touch the state and never mutates its input", () => {
    const copy = structuredClone(server);
    const ops: Op[] = [
      op<Op>({ type: "lesson.progress", at: T0, payload: { lessonId: 1, position: 3, completed: false } }),
      op<Op>({ type: "favourite.set", at: T0, payload: { questionId: 1, on: false } }),
    ];
    mergeState(server, ops);
    expect(server).toEqual(copy);
    expect(mergeState(server, ops.slice(0, 1))).toEqual(server);
  });
});

// ------------------------------------------------------------------ property

type Action =
  | { kind: "favourite"; questionId: number; on: boolean }
  | { kind: "answer"; questionId: number; right: boolean }
  | { kind: "remove"; questionId: number }
  | { kind: "progress"; position: number }
  | { kind: "sync"; mode: "ok" | "fail" | "lost" | "twice" }
  | { kind: "pull" };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("favourite" as const), questionId: fc.integer({ min: 1, max: 5 }), on: fc.boolean() }),
  fc.record({ kind: fc.constant("answer" as const), questionId: fc.integer({ min: 1, max: 5 }), right: fc.boolean() }),
  fc.record({ kind: fc.constant("remove" as const), questionId: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant("progress" as const), position: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant("sync" as const), mode: fc.constantFrom("ok" as const, "fail" as const, "lost" as const, "twice" as const) }),
  fc.record({ kind: fc.constant("pull" as const) }),
);

describe("sync property", () => {
  it("ends, after a final successful sync, with every op applied exactly once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, { maxLength: 25 }), async (actions) => {
        const db = freshDb();
        try {
          await saveBank(db, BANK, QUESTIONS);
          let mode: "ok" | "fail" | "lost" | "twice" = "ok";
          const h = harness(db);
          h.send.mockImplementation(async (ops) => {
            if (mode === "fail") throw networkError();
            const results = h.server.handle(ops);
            if (mode === "lost") throw networkError();
            if (mode === "twice") return h.server.handle(ops); // the request was delivered twice
            return results;
          });
          const now = steppingClock();
          const made: OutboxRow[] = [];
          let lastSeq = 0;
          const collect = async () => {
            const rows = await db.outbox.where("seq").above(lastSeq).toArray();
            made.push(...rows);
            lastSeq = rows.at(-1)?.seq ?? lastSeq;
          };

          for (const action of actions) {
            switch (action.kind) {
              case "favourite":
                await setFavourite(db, action.questionId, action.on, { now });
                break;
              case "answer": {
                const q = QUESTIONS[action.questionId - 1]!;
                await answerPractice(db, { bankId: BANK.id, question: q, answer: action.right ? "A" : "B" }, { now });
                break;
              }
              case "remove":
                await removeWrong(db, action.questionId, { now });
                break;
              case "progress":
                await setProgress(db, BANK.id, action.position, { now });
                break;
              case "sync":
                mode = action.mode;
                await h.engine.sync();
                break;
              case "pull": {
                await mergeIntoDb(db, h.server.state());
                const pending = await db.outbox.where("status").equals("pending").sortBy("seq");
                const expected = mergeState(h.server.state(), pending.map(toOp), (o) => {
                  const row = pending.find((p) => p.id === o.id);
                  return row ? gradedOf(row) : undefined;
                });
                expect(await localState(db)).toEqual(expected);
                break;
              }
            }
            await collect();
          }

          mode = "ok";
          await h.engine.sync();
          expect(await db.outbox.count()).toBe(0);
          const expected = toExamState(applyOps(emptyState(), made.map(toOp), (o) => gradedOf(made.find((m) => m.id === o.id)!)));
          expect(h.server.seen.size).toBe(made.length);
          expect(h.server.state()).toEqual(expected);
          expect(await localState(db)).toEqual(expected);
        } finally {
          opened.splice(opened.indexOf(db), 1);
          for (const engine of engines.splice(0)) engine.stop();
          db.close();
          await deleteMemberDb(db.memberId);
        }
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});

// ------------------------------------------------------------------ app wiring

describe("startOffline / stopOffline", () => {
  afterEach(() => {
    stopOffline();
    api.request.mockReset();
  });

  it("opens the member's database, syncs through the app's client and closes on sign-out", async () => {
    const memberId = ++nextMemberId;
    useUserInfo.setState({ id: memberId, token: "t" });
    const server = new FakeServer();
    server.handle([{ id: "30000000-0000-4000-8000-000000000001", type: "favourite.set", at: T0, payload: { questionId: 3, on: true } }]);
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/sync") {
        const { ops } = config.data as { ops: Op[] };
        return { code: 1, msg: "", time: 0, data: { results: server.handle(ops) } };
      }
      // The review logs are pulled after the exam state: none here.
      if (config.url === "/api/exam/review/state") return { code: 1, msg: "", time: 0, data: { retention: 0.9, retentionAt: 0, logs: [] } };
      return { code: 1, msg: "", time: 0, data: server.state() };
    });
    const status = renderHook(() => useSyncStatus());
    const dbHook = renderHook(() => useOfflineDb());
    const db = await act(async () => startOffline(memberId));
    expect(db.name).toBe(`examhub-member-${memberId}`);
    expect(getOfflineDb()).toBe(db);
    expect(dbHook.result.current).toBe(db);

    await act(async () => {
      await syncNow();
      await setFavourite(db, 5, true);
    });
    await vi.waitFor(() => expect(status.result.current.pending).toBe(1));
    await act(async () => {
      await syncNow();
    });
    expect(status.result.current).toMatchObject({ state: "idle", pending: 0, rejected: 0 });
    expect(api.request.mock.calls.some(([config]) => config.url === "/api/exam/review/state")).toBe(true);
    const syncCall = api.request.mock.calls.find(([config]) => config.url === "/api/exam/sync");
    expect(syncCall?.[0]).toMatchObject({ method: "post" });
    expect(syncCall?.[1]).toMatchObject({ showErrorMessage: false, showCodeMessage: false, cancelDuplicateRequest: false });
    expect((await localState(db)).favourites).toEqual([3, 5]);

    // Signing out closes this member's data.
    act(() => useUserInfo.getState().clear());
    expect(getOfflineDb()).toBeNull();
    expect(db.isOpen()).toBe(false);
    expect(status.result.current.state).toBe("idle");
    await deleteMemberDb(memberId);
  });

  it("starts on the database prepareOffline opened ahead", async () => {
    const memberId = ++nextMemberId;
    useUserInfo.setState({ id: memberId, token: "t" });
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/review/state") return { code: 1, msg: "", time: 0, data: { retention: 0.9, retentionAt: 0, logs: [] } };
      return { code: 1, msg: "", time: 0, data: { favourites: [], wrong: [], progress: [] } };
    });
    await prepareOffline(memberId);
    const db = startOffline(memberId);
    // Open as startOffline returns it: its tables were made in prepareOffline's tasks, not with the first query.
    expect(db.isOpen()).toBe(true);
    expect(getOfflineDb()).toBe(db);
    await setFavourite(db, 7, true);
    expect((await localState(db)).favourites).toEqual([7]);
    stopOffline();
    expect(db.isOpen()).toBe(false);
    await deleteMemberDb(memberId);
  });
});

// ------------------------------------------------------------------ one bad op

describe("a batch the server keeps failing on", () => {
  const http = (status: number) => new ApiError({ msg: `Request failed with status code ${status}`, status });

  /** A server that fails with HTTP `status` on every batch holding one of `poison` (applying nothing of it). */
  function failOn(h: Harness, poison: Set<string>, status = 500) {
    h.send.mockImplementation(async (ops) => {
      if (ops.some((op) => poison.has(op.id))) throw http(status);
      return h.server.handle(ops);
    });
  }

  /** Fires timers until nothing is scheduled (at most `max`). */
  async function drain(h: Harness, max = 200): Promise<number> {
    let fired = 0;
    while (h.timers.length > 0 && fired < max) {
      await h.fire();
      fired++;
    }
    return fired;
  }

  it("splits the batch until the op is alone, sets it aside after a few tries, and syncs the rest in order, once", async () => {
    const db = freshDb();
    const ids = await seedOps(db, 450);
    const poison = ids[290]!;
    const h = harness(db);
    failOn(h, new Set([poison]));
    await h.engine.sync();
    await drain(h);

    const applied = h.server.batches.flat().filter((id) => h.server.seen.has(id));
    expect(applied).toEqual(ids.filter((id) => id !== poison));
    expect(new Set(applied).size).toBe(applied.length);
    // Batches that went through were never sent again.
    expect(h.server.batches.flat().filter((id) => id !== poison)).toEqual(ids.filter((id) => id !== poison));
    const [aside] = await rejectedOps(db);
    expect(aside).toMatchObject({ id: poison, status: "rejected", setAside: true, msg: "HTTP 500", failures: MAX_SOLO_FAILURES });
    expect(await pendingCount(db)).toBe(0);
    expect(h.engine.getStatus()).toMatchObject({ state: "idle", pending: 0, rejected: 1 });
    // Bisection: about log2(200) splits plus the tries of the op alone, not one request per op.
    expect(h.send.mock.calls.length).toBeLessThan(30);
    const alone = h.send.mock.calls.filter(([ops]) => ops.length === 1 && ops[0]!.id === poison);
    expect(alone).toHaveLength(MAX_SOLO_FAILURES);
    // Every retry waited for the backoff (with jitter); none came from a hot loop.
    expect(h.timers).toHaveLength(0);
  });

  it("isolates two bad ops in one batch and keeps the order of the rest", async () => {
    const db = freshDb();
    const ids = await seedOps(db, 40);
    const poison = new Set([ids[0]!, ids[37]!]);
    const h = harness(db);
    failOn(h, poison);
    await h.engine.sync();
    await drain(h);
    expect(h.server.batches.flat().filter((id) => !poison.has(id))).toEqual(ids.filter((id) => !poison.has(id)));
    expect((await rejectedOps(db)).map((r) => r.id)).toEqual([ids[0], ids[37]]);
    expect(await pendingCount(db)).toBe(0);
  });

  it.each([502, 503, 504, 429])("neither splits nor sets aside on HTTP %i (the server is busy, not failing on an op)", async (status) => {
    const db = freshDb();
    const ids = await seedOps(db, 10);
    const h = harness(db);
    failOn(h, new Set([ids[3]!]), status);
    await h.engine.sync();
    for (let i = 0; i < 12; i++) await h.fire();
    expect(h.send.mock.calls.every(([ops]) => ops.length === 10)).toBe(true);
    expect(await pendingCount(db)).toBe(10);
    expect(await rejectedOps(db)).toEqual([]);
    // Backoff grows as before.
    expect(h.timers.map((t) => t.ms)).toEqual([backoffDelay(12, () => 0.5)]);
    h.send.mockImplementation(async (ops) => h.server.handle(ops));
    await h.fire();
    expect(h.server.seen.size).toBe(10);
  });

  it("keeps an op that fails alone while the server does not answer at all (no pull either)", async () => {
    const db = freshDb();
    const ids = await seedOps(db, 4);
    let down = true;
    const h = harness(db, {
      pull: async () => {
        if (down) throw http(500);
        return toExamState(emptyState());
      },
    });
    failOn(h, new Set(ids));
    await h.engine.sync();
    for (let i = 0; i < 20; i++) await h.fire();
    expect(await rejectedOps(db)).toEqual([]);
    expect(await pendingCount(db)).toBe(4);
    // The server comes back: everything goes through, nothing was set aside.
    down = false;
    h.send.mockImplementation(async (ops) => h.server.handle(ops));
    await drain(h);
    expect([...h.server.seen]).toEqual(ids);
  });

  it("goes back to full batches when the op it suspected goes through after all", async () => {
    const db = freshDb();
    const ids = await seedOps(db, 3);
    const h = harness(db);
    let failing = 4;
    // Four failures of whatever is sent (a passing fault that answers 500), then the server is fine.
    h.send.mockImplementation(async (ops) => {
      if (failing > 0) {
        failing--;
        throw http(500);
      }
      return h.server.handle(ops);
    });
    await h.engine.sync();
    await drain(h);
    expect(h.send.mock.calls.map(([ops]) => ops.length)).toEqual([3, 2, 1, 1, 1, 2]);
    expect(h.server.batches.flat()).toEqual(ids);
    expect(await rejectedOps(db)).toEqual([]);
    // Full batches again.
    await seedOps(db, 250, 1_000);
    await h.engine.sync();
    expect(h.send.mock.calls.slice(6).map(([ops]) => ops.length)).toEqual([200, 50]);
  });

  it("treats a refusal of the whole request (a code-0 envelope, a malformed answer) like a failure on the batch", async () => {
    const db = freshDb();
    const ids = await seedOps(db, 6);
    const h = harness(db);
    h.send.mockImplementation(async (ops) => {
      if (ops.some((op) => op.id === ids[2])) throw ApiError.fromEnvelope({ code: 0, msg: "Incorrect parameter!", data: null }, 200);
      if (ops.some((op) => op.id === ids[4])) throw new Error("results: expected array");
      return h.server.handle(ops);
    });
    await h.engine.sync();
    await drain(h);
    expect((await rejectedOps(db)).map((r) => [r.id, r.msg])).toEqual([
      [ids[2], "Incorrect parameter!"],
      [ids[4], "results: expected array"],
    ]);
    expect([...h.server.seen]).toEqual([ids[0], ids[1], ids[3], ids[5]]);
  });

  it("lets the member send a set-aside op again: it goes back in the queue and syncs once", async () => {
    const db = freshDb();
    const ids = await seedOps(db, 3);
    const h = harness(db);
    const poison = new Set([ids[1]!]);
    failOn(h, poison);
    await h.engine.sync();
    await drain(h);
    expect(await rejectedOps(db)).toHaveLength(1);
    // A rejected (not set-aside) op stays rejected.
    await db.outbox.add({ id: "40000000-0000-4000-8000-000000000001", type: "favourite.set", at: T0, payload: { questionId: 2, on: true }, status: "rejected", msg: "Unknown question", tries: 1 });
    await retrySetAside(db, "40000000-0000-4000-8000-000000000001");
    poison.clear(); // the server was fixed
    await retrySetAside(db, ids[1]!);
    expect(await pendingCount(db)).toBe(1);
    expect((await db.outbox.where("id").equals(ids[1]!).first())).toMatchObject({ status: "pending", failures: 0 });
    await h.engine.sync();
    expect([...h.server.seen]).toEqual([ids[0], ids[2], ids[1]]);
    expect((await rejectedOps(db)).map((r) => r.msg)).toEqual(["Unknown question"]);
  });
});
