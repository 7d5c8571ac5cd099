import { applyOps, emptyState, toExamState, type ExamStateModel, type GradedOutcome } from "../../shared/exam/state.ts";
import type { ExamState } from "../../shared/sync/exam.ts";
import type { ReviewState } from "../../shared/sync/review.ts";
import type { Op } from "../../shared/sync/ops.ts";
import { MAX_OPS_PER_SYNC, type SyncResult } from "../../shared/sync/wire.ts";
import { ApiCode } from "../../shared/constants.ts";
import { ApiError } from "../api/errors.ts";
import { SessionExpiredError } from "../api/http.ts";
import type { MemberDb, OutboxRow } from "./db.ts";
import { gradedOf, mergeReviewIntoDb, replaceModel, toOp } from "./repository/index.ts";

/**
 * The sync engine (ARCHITECTURE.md "The offline loop"): pushes the outbox in `seq` order, in
 * batches of MAX_OPS_PER_SYNC, one request at a time, then pulls the server's state and merges
 * it into Dexie. Everything around it (network, clock, randomness, timers, connectivity) is
 * injected, so it runs in tests without either.
 *
 * One op must never hold the queue back: when the server fails on a batch as a whole (HTTP 500,
 * 413, a refusal of the whole request), the next try sends the first half of it, and so on
 * (bisection, with the usual backoff), until the op the server fails on is sent alone. While it
 * fails alone and the server still answers the state pull (so the server works, the op is the
 * problem), its failures are counted; at MAX_SOLO_FAILURES it is set aside (status "rejected",
 * `setAside`, the failure as its reason: listed for the member, who may send it again) and the
 * rest of the queue syncs, in order. Passing failures (no network, 502/503/504/429/408) only
 * back off: the batch is not split and nothing is set aside.
 */

export type SyncState = "idle" | "syncing" | "offline" | "error" | "auth";

export interface SyncEngineStatus {
  state: SyncState;
  /** Ops waiting to be sent. */
  pending: number;
  /** Ops the server refused, or set aside because it kept failing on them (kept, shown, never retried automatically). */
  rejected: number;
  /** ms of the last complete push + pull. */
  lastSyncAt?: number;
  /** The last failed sync (not a lost connection): when, and what the server or network said. Cleared by a sync that succeeds. */
  lastError?: { at: number; msg: string };
}

export interface SyncDeps {
  db: MemberDb;
  /** POST /api/exam/sync: one result per op, in order. Throws on transport or auth failure. */
  send(ops: Op[]): Promise<SyncResult[]>;
  /** GET /api/exam/state. */
  pull(): Promise<ExamState>;
  /** GET /api/exam/review/state (the review logs and retention), pulled after the exam state. */
  pullReview?(): Promise<ReviewState>;
  now(): number;
  /** [0, 1), for the jitter. */
  random(): number;
  /** One-shot timer (setTimeout). */
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  online(): boolean;
  onChange?(status: SyncEngineStatus): void;
  /**
   * Uploads beside the outbox, on an endpoint of their own (face checks: faceUpload.ts), sent at
   * the end of every run that reached the server; false when one still waits for the network
   * (or the server), and the run is tried again with the outbox's backoff.
   */
  uploads?(): Promise<boolean>;
  /** Where `online` / `focus` are listened for (window by default). */
  window?: Pick<EventTarget, "addEventListener" | "removeEventListener">;
  /** Where `visibilitychange` is listened for (document by default). */
  document?: Pick<Document, "addEventListener" | "removeEventListener" | "visibilityState">;
}

export interface SyncEngine {
  /** Installs the listeners and runs a first sync. */
  start(): void;
  /** Removes the listeners and timers; a run in flight finishes but schedules nothing. */
  stop(): void;
  /** Runs a sync now, or coalesces into one more run when one is running. Never rejects. */
  sync(): Promise<void>;
  /** The outbox changed locally: recount, and sync soon when idle and online. */
  notifyLocalChange(): Promise<void>;
  /** An upload beside the outbox (`uploads`) was not carried: try again under the backoff. */
  retryUploads(): void;
  getStatus(): SyncEngineStatus;
}

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 5 * 60 * 1_000;
/** How many times an op sent alone may fail (while the server answers otherwise) before it is set aside. */
export const MAX_SOLO_FAILURES = 3;
/** HTTP statuses that say "not now" rather than "not this": back off, never split or set aside. */
const PASSING_STATUSES = new Set([408, 429, 502, 503, 504]);
/** While ops are pending, try again this often. */
export const PERIODIC_SYNC_MS = 60_000;
/** After a local change, sync this soon (lets a burst of answers go in one request). */
export const LOCAL_CHANGE_DELAY_MS = 1_000;
/**
 * Ops that change nothing the state pulls read (favourites, wrong book, progress, review logs
 * and retention): a run that pushed only these skips the pull while the last one is younger than
 * QUIET_PULL_MAX_AGE_MS. An official exam's answers are each a run of their own; without this,
 * every answer cost the server two state reads besides its write, for nothing new.
 */
const QUIET_OP_TYPES: ReadonlySet<Op["type"]> = new Set(["official.answer", "official.leave", "lesson.progress"]);
/** How stale the pulled state may grow while only quiet ops are pushed (starts, reconnects, focus and every other push still pull). */
export const QUIET_PULL_MAX_AGE_MS = 5 * 60_000;

/** Exponential backoff with full jitter: random() * min(5 min, 1 s * 2^attempt). */
export function backoffDelay(attempt: number, random: () => number): number {
  const exp = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  const r = Math.min(Math.max(random(), 0), 1);
  return r * exp;
}

export type FailureKind = "auth" | "offline" | "error";

/**
 * What a thrown send/pull error means: a session that could not be refreshed (or a 303/409
 * envelope) is "auth"; no response at all (network down, timeout, cancelled) is "offline";
 * anything else (HTTP 5xx, other envelopes, a malformed answer) is "error".
 */
export function classifyError(error: unknown): FailureKind {
  if (!(error instanceof ApiError)) return "error";
  if (error instanceof SessionExpiredError || error.code === ApiCode.LOGIN || error.code === ApiCode.TOKEN_EXPIRED) return "auth";
  if (error.network || error.cancelled) return "offline";
  return "error";
}

/**
 * True when a failed push may be the fault of what the batch holds: the server answered, but
 * with an error for the request as a whole (HTTP 500, 413 too large, 400, a code-0 envelope, an
 * answer that is not a sync answer). Not for auth failures, no answer at all, or "busy, try
 * again later" statuses.
 */
export function blamesBatch(error: unknown): boolean {
  if (classifyError(error) !== "error") return false;
  const status = error instanceof ApiError ? error.status : null;
  return status === null || !PASSING_STATUSES.has(status);
}

/** What to tell the member about a failure that set an op aside: the HTTP status or the server's message. */
export function failureReason(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code !== null && error.msg) return error.msg.slice(0, 200);
    if (error.status !== null) return `HTTP ${error.status}`;
  }
  return error instanceof Error && error.message ? error.message.slice(0, 200) : "error";
}

/** The server's state as a model: pulled entries carry no op id, favourites no time. */
export function modelFromServer(server: ExamState): ExamStateModel {
  const model = emptyState();
  for (const questionId of server.favourites) model.favourites.set(questionId, { on: true, at: 0, opId: "" });
  for (const w of server.wrong) {
    model.wrong.set(w.questionId, { count: w.count, lastTime: w.lastTime, removed: false, removedAt: 0 });
  }
  for (const p of server.progress) model.progress.set(p.bankId, { position: p.position, at: p.updatedAt, opId: "" });
  return model;
}

/** The server state with the still-pending local ops re-applied on top, as a model. */
export function mergeModel(
  server: ExamState,
  pendingOps: readonly Op[],
  gradedFor?: (op: Op) => GradedOutcome | undefined,
): ExamStateModel {
  return applyOps(modelFromServer(server), pendingOps, gradedFor);
}

/**
 * Pure merge: the server's favourites, wrong-question book and progress with the local ops the
 * server has not seen yet re-applied on top (`applyOp`). `gradedFor` gives a pending
 * `practice.answer` its local grading (without it, the op does not touch the wrong book).
 */
export function mergeState(
  server: ExamState,
  pendingOps: readonly Op[],
  gradedFor?: (op: Op) => GradedOutcome | undefined,
): ExamState {
  return toExamState(mergeModel(server, pendingOps, gradedFor));
}

/**
 * Replaces the local favourites / wrong / progress with the merge, in one transaction, writing
 * only the rows that differ: a round trip that changed nothing writes nothing and wakes no live
 * query. Returns how many rows were written or deleted.
 */
export async function mergeIntoDb(db: MemberDb, server: ExamState): Promise<number> {
  return db.transaction("rw", [db.favourites, db.wrong, db.progress, db.outbox], async () => {
    const pending = await pendingRows(db);
    const byId = new Map(pending.map((row) => [row.id, row]));
    const model = mergeModel(server, pending.map(toOp), (op) => {
      const row = byId.get(op.id);
      return row ? gradedOf(row) : undefined;
    });
    return replaceModel(db, model);
  });
}

function pendingRows(db: MemberDb, limit?: number): Promise<OutboxRow[]> {
  const collection = db.outbox.where("[status+seq]").between(["pending", -Infinity], ["pending", Infinity]);
  return (limit === undefined ? collection : collection.limit(limit)).toArray();
}

type TimerKind = "retry" | "periodic" | "soon";

export function createSyncEngine(deps: SyncDeps): SyncEngine {
  const { db } = deps;
  let status: SyncEngineStatus = { state: "idle", pending: 0, rejected: 0 };
  let running: Promise<void> | null = null;
  let again = false;
  /**
   * The network came back (`online`) while a run was under way: should that run fail (it began
   * offline, or its request was lost in the switch), the next one starts at once, not when the
   * retry it scheduled (on the backoff of the offline spell, up to minutes) comes due.
   */
  let reconnected = false;
  let started = false;
  /** After stop(): nothing is scheduled any more. */
  let stopped = false;
  let attempt = 0;
  /** Ops per request: MAX_OPS_PER_SYNC, halved while the server keeps failing on a batch. */
  let batchLimit = MAX_OPS_PER_SYNC;
  let timer: { handle: unknown; kind: TimerKind } | null = null;
  let removeListeners: (() => void) | null = null;
  /** When the state was last pulled and merged (deps.now() ms), or null before the first. */
  let lastPullAt: number | null = null;

  function emit(patch: Partial<SyncEngineStatus>): void {
    const next = { ...status, ...patch };
    if (
      next.state === status.state &&
      next.pending === status.pending &&
      next.rejected === status.rejected &&
      next.lastSyncAt === status.lastSyncAt &&
      next.lastError === status.lastError
    ) {
      return;
    }
    status = next;
    deps.onChange?.(status);
  }

  async function counts(): Promise<Pick<SyncEngineStatus, "pending" | "rejected">> {
    const [pending, rejected] = await Promise.all([
      db.outbox.where("status").equals("pending").count(),
      db.outbox.where("status").equals("rejected").count(),
    ]);
    return { pending, rejected };
  }

  function clearTimer(): void {
    if (timer) deps.clearTimer(timer.handle);
    timer = null;
  }

  function schedule(ms: number, kind: TimerKind): void {
    clearTimer();
    if (stopped) return;
    const handle = deps.setTimer(() => {
      if (timer?.handle === handle) timer = null;
      void sync();
    }, ms);
    timer = { handle, kind };
  }

  function fail(kind: FailureKind, error?: unknown): void {
    // Being offline is no error to report; a refused session or a failing server is.
    const lastError = kind === "offline" || error === undefined ? status.lastError : { at: deps.now(), msg: failureReason(error) };
    if (kind === "auth") {
      clearTimer();
      emit({ state: "auth", lastError });
      return;
    }
    schedule(backoffDelay(attempt, deps.random), "retry");
    attempt++;
    emit({ state: kind === "offline" || !deps.online() ? "offline" : "error", lastError });
  }

  /**
   * Marks the ops of a batch after an answer (the answered ones leave the outbox, the refused
   * ones are marked, the ones left without a result count a try); true when every op got a result.
   */
  async function acknowledge(batch: OutboxRow[], results: SyncResult[]): Promise<boolean> {
    const byId = new Map<string, SyncResult>();
    for (const result of results) if (result && typeof result.id === "string") byId.set(result.id, result);
    let complete = true;
    const done: number[] = [];
    const changes: { key: number; changes: Partial<OutboxRow> }[] = [];
    for (const row of batch) {
      const result = byId.get(row.id);
      if (row.seq === undefined) continue;
      if (result?.status === "applied" || result?.status === "duplicate") {
        done.push(row.seq);
      } else if (result?.status === "rejected") {
        changes.push({ key: row.seq, changes: { status: "rejected", msg: result.msg ?? "", tries: row.tries + 1 } });
      } else {
        complete = false;
        changes.push({ key: row.seq, changes: { tries: row.tries + 1 } });
      }
    }
    // Two requests for the whole batch (not one per op), in one transaction.
    await db.transaction("rw", db.outbox, async () => {
      if (done.length > 0) await db.outbox.bulkDelete(done);
      if (changes.length > 0) await db.outbox.bulkUpdate(changes);
    });
    return complete;
  }

  /** Does the server answer at all (the state pull)? Then a failure on one op alone is that op's. */
  async function serverAnswers(): Promise<boolean> {
    try {
      await deps.pull();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The server failed on `batch` as a whole: split it for the next try, or, sent alone, count the
   * failure and set the op aside at MAX_SOLO_FAILURES. True when an op was set aside (the rest
   * can be sent at once).
   */
  async function isolate(batch: OutboxRow[], error: unknown): Promise<boolean> {
    if (batch.length > 1) {
      batchLimit = Math.ceil(batch.length / 2);
      return false;
    }
    const row = batch[0]!;
    if (row.seq === undefined || !(await serverAnswers())) return false;
    const failures = (row.failures ?? 0) + 1;
    if (failures < MAX_SOLO_FAILURES) {
      await db.outbox.update(row.seq, { failures });
      return false;
    }
    await db.outbox.update(row.seq, { failures, status: "rejected", setAside: true, msg: failureReason(error) });
    batchLimit = MAX_OPS_PER_SYNC;
    return true;
  }

  /** One push of the whole outbox (batch after batch) and one pull. */
  async function runOnce(): Promise<"ok" | "failed"> {
    if (!deps.online()) {
      fail("offline");
      emit(await counts());
      return "failed";
    }
    emit({ state: "syncing" });
    let incomplete = false;
    /** Whether this run pushed anything, and whether everything it pushed was quiet. */
    let pushed = false;
    let quiet = true;
    for (;;) {
      const batch = await pendingRows(db, batchLimit);
      if (batch.length === 0) {
        batchLimit = MAX_OPS_PER_SYNC;
        break;
      }
      let results: SyncResult[];
      try {
        results = await deps.send(batch.map(toOp));
      } catch (error) {
        await db.outbox
          .where("seq")
          .anyOf(batch.map((row) => row.seq ?? -1))
          .modify((row) => {
            row.tries += 1;
          })
          .catch(() => undefined);
        // The rest of the queue goes on at once when the op the server fails on was set aside.
        if (blamesBatch(error) && (await isolate(batch, error))) {
          emit(await counts());
          continue;
        }
        fail(classifyError(error), error);
        emit(await counts());
        return "failed";
      }
      attempt = 0;
      pushed = true;
      if (batch.some((row) => !QUIET_OP_TYPES.has(row.type))) quiet = false;
      // The op the server failed on alone went through after all: full batches again.
      if (batch.length === 1 && (batch[0]!.failures ?? 0) > 0) batchLimit = MAX_OPS_PER_SYNC;
      const complete = await acknowledge(batch, Array.isArray(results) ? results : []);
      emit(await counts());
      // Ops left without a result wait for the next trigger instead of a hot loop.
      if (!complete) {
        incomplete = true;
        break;
      }
    }

    const skipPull = pushed && quiet && lastPullAt !== null && deps.now() - lastPullAt < QUIET_PULL_MAX_AGE_MS;
    try {
      if (!skipPull) {
        const server = await deps.pull();
        await mergeIntoDb(db, server);
        if (deps.pullReview) {
          const review = await deps.pullReview();
          await mergeReviewIntoDb(db, review, (await pendingRows(db)).map(toOp));
        }
        lastPullAt = deps.now();
      }
    } catch (error) {
      fail(classifyError(error), error);
      emit(await counts());
      return "failed";
    }
    // The uploads beside the outbox go once the server answers; one left waiting is retried as a
    // failed push would be, without touching the outbox's status.
    const uploaded = deps.uploads ? await deps.uploads().catch(() => false) : true;
    if (uploaded) attempt = 0;
    const after = await counts();
    emit({ ...after, state: "idle", lastSyncAt: deps.now(), lastError: undefined });
    if (!uploaded) {
      schedule(backoffDelay(attempt, deps.random), "retry");
      attempt++;
    }
    // Still pending: ops the server did not answer (try again later), or ops made meanwhile (soon).
    else if (after.pending > 0) schedule(incomplete ? PERIODIC_SYNC_MS : LOCAL_CHANGE_DELAY_MS, incomplete ? "periodic" : "soon");
    else if (timer?.kind !== "soon") clearTimer();
    return "ok";
  }

  function sync(): Promise<void> {
    if (status.state === "auth") return running ?? Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          reconnected = false;
          const outcome = await runOnce();
          if (outcome === "failed" && !reconnected) break;
        } while (again || reconnected);
      } catch {
        // A closed database (logout mid-run) or an unexpected failure: try again later.
        if (!stopped) fail("error");
        else emit({ state: "idle" });
      } finally {
        again = false;
        reconnected = false;
        running = null;
      }
    })();
    return running;
  }

  async function notifyLocalChange(): Promise<void> {
    const before = status.pending;
    try {
      emit(await counts());
    } catch {
      return;
    }
    // Only new ops count (not the engine's own bookkeeping writes).
    if (stopped || status.pending <= before || !deps.online()) return;
    if (running) {
      again = true;
      return;
    }
    if (status.state === "idle" && (timer === null || timer.kind === "periodic")) {
      schedule(LOCAL_CHANGE_DELAY_MS, "soon");
    }
  }

  function retryUploads(): void {
    // Offline, the `online` event starts the run that sends them.
    if (stopped || status.state === "auth" || !deps.online()) return;
    // A run under way may have sent its uploads already: one more run after it.
    if (running) {
      again = true;
      return;
    }
    // A run is due anyway, and it sends them.
    if (timer) return;
    schedule(backoffDelay(attempt, deps.random), "retry");
    attempt++;
  }

  function start(): void {
    if (started) return;
    started = true;
    stopped = false;
    attempt = 0;
    if (status.state === "auth") emit({ state: "idle" });
    const win = deps.window ?? (typeof window === "undefined" ? undefined : window);
    const doc = deps.document ?? (typeof document === "undefined" ? undefined : document);
    const onOnline = () => {
      attempt = 0;
      reconnected = true;
      void sync();
    };
    // Focus and visibility hint at a returning member; they do not cut a server-error backoff short.
    const onFocus = () => {
      if (status.state !== "error") void sync();
    };
    const onVisibility = () => {
      if (doc?.visibilityState === "visible") onFocus();
    };
    win?.addEventListener("online", onOnline);
    win?.addEventListener("focus", onFocus);
    doc?.addEventListener("visibilitychange", onVisibility);
    removeListeners = () => {
      win?.removeEventListener("online", onOnline);
      win?.removeEventListener("focus", onFocus);
      doc?.removeEventListener("visibilitychange", onVisibility);
    };
    void sync();
  }

  function stop(): void {
    started = false;
    stopped = true;
    removeListeners?.();
    removeListeners = null;
    clearTimer();
  }

  return { start, stop, sync, notifyLocalChange, retryUploads, getStatus: () => status };
}
