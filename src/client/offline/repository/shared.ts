import { gradeAnswer, type GradeResult } from "../../../shared/exam/grading.ts";
import type { GradedOutcome } from "../../../shared/exam/state.ts";
import type { Op } from "../../../shared/sync/ops.ts";
import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import { toSafeText } from "../../../shared/text.ts";
import { uuid } from "../../../shared/uuid.ts";
import type { MemberDb, OutboxRow } from "../db.ts";

/**
 * The repository (ARCHITECTURE.md "The offline loop") is the ONLY way screens change offline
 * data: every change writes the local row AND its outbox op in one Dexie transaction, so either
 * both exist or neither. An op gets its 36-char id and its time `at` here, when the change is
 * made, never when it is sent; no token is ever stored in an op. One file per aggregate (banks,
 * practice state, mock attempts, official attempts, lessons, the outbox); this one holds what
 * they share.
 */

export interface RepoOptions {
  /** Clock (ms since the epoch); Date.now by default. */
  now?: () => number;
  /** Op id factory; `uuid()` by default. */
  newId?: () => string;
}

export function clockOf(opts?: RepoOptions): () => number {
  return opts?.now ?? Date.now;
}

export function idOf(opts?: RepoOptions): () => string {
  return opts?.newId ?? uuid;
}

export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** The op as it goes on the wire (the outbox row without its local bookkeeping). */
export function toOp(row: OutboxRow): Op {
  return { id: row.id, type: row.type, at: row.at, payload: row.payload } as Op;
}

/** The local grading of a queued op, for re-applying it with `applyOp`. */
export function gradedOf(row: OutboxRow): GradedOutcome | undefined {
  return row.type === "practice.answer" && row.correct !== undefined ? { correct: row.correct } : undefined;
}

/**
 * Rows written (or keys deleted) per request when many change at once (a merge that replaces
 * thousands, a bank's questions): each slice is waited for, so the page runs its other tasks
 * between them, and the caller's transaction stays one.
 */
export const WRITE_SLICE = 500;

/** `write` over `items` in slices of `size`, one after the other. */
export async function inSlices<T>(items: readonly T[], write: (slice: T[], from: number) => Promise<unknown>, size = WRITE_SLICE): Promise<void> {
  for (let from = 0; from < items.length; from += size) await write(items.slice(from, from + size), from);
}

export async function enqueue(db: MemberDb, op: Op, extra: Pick<OutboxRow, "correct"> = {}): Promise<void> {
  await db.outbox.add({ ...op, ...extra, status: "pending", tries: 0 });
}

/**
 * An answer as the server can store it (no NUL, no unpaired surrogate: they can only come from a
 * paste, and the server would reject the whole op for them).
 */
export function storable(answer: GivenAnswer): GivenAnswer {
  return typeof answer === "string" ? toSafeText(answer) : Array.isArray(answer) ? answer.map((part) => (typeof part === "string" ? toSafeText(part) : part)) : answer;
}

export function gradeLocally(question: ExamQuestion, answer: GivenAnswer | undefined): GradeResult {
  if (question.answer === undefined) return { correct: null, score: 0 };
  return gradeAnswer({ type: question.type, answer: question.answer, score: question.score }, answer);
}
