import { MAX_PAGE_LEAVES, PAGE_LEAVE_GRACE_MS, type PageLeave, type PageLeaveSummary } from "../../../../shared/exam/pageLeaves.ts";
import type { OpPayload } from "../../../../shared/sync/ops.ts";
import type { Queryable } from "../../../db/index.ts";
import { insertPageLeave, leaveRows, leaveTotals, lockHeldAttempt } from "./repository.ts";

/**
 * Page leaves of official exams (src/shared/exam/pageLeaves.ts): the device records each
 * time the exam page was hidden and shown again while the attempt was open, and sends it as an
 * `official.leave` sync op; markers see them per attempt (marking queue, room results).
 *
 * The rules (`exam_attempt_leave`, migration 0044):
 * - only the member's own official attempt (another member's, or an unknown one, is refused);
 * - the leave lies within the attempt's time, give or take PAGE_LEAVE_GRACE_MS: from its start to
 *   its submission (its deadline while open or once expired), and not after the server's now;
 * - a closed attempt still takes leaves that lie within its time: the device sends them through
 *   its outbox, which may reach the server only after the submission (or after the deadline when
 *   the device was offline); what they record happened while the attempt was open;
 * - one row per departure (attempt, leftAt): the same leave sent again is stored once;
 * - at most MAX_PAGE_LEAVES per attempt: more are refused.
 */

export type PageLeaveOutcome = "stored" | "unknown-attempt" | "outside-attempt" | "full";

/**
 * Stores one page leave of the member's official attempt (inside the op's transaction). The
 * attempt's row is locked (as answers lock it) so that concurrent syncs count its leaves one
 * after the other.
 */
export async function recordPageLeave(tx: Queryable, memberId: number, payload: OpPayload<"official.leave">, nowMs = Date.now()): Promise<PageLeaveOutcome> {
  const { uuid, leftAt, backAt } = payload;
  const held = await lockHeldAttempt(tx, memberId, uuid);
  if (!held) return "unknown-attempt";
  const startMs = Number(held.started_at) * 1000;
  // Submitted: its submission; expired: its deadline (submitted_at holds it); open: its deadline.
  const endSeconds = held.status !== "open" && held.submitted_at !== null ? held.submitted_at : held.deadline;
  const endMs = endSeconds === null ? nowMs : Number(endSeconds) * 1000;
  if (leftAt < startMs - PAGE_LEAVE_GRACE_MS || backAt > Math.min(endMs, nowMs) + PAGE_LEAVE_GRACE_MS) return "outside-attempt";
  return (await insertPageLeave(tx, held.id, { leftAt, backAt }, nowMs, MAX_PAGE_LEAVES)) ? "stored" : "full";
}

/** How many times and how long each attempt's member left the page (attempts without leaves: absent). */
export async function leaveSummaries(db: Queryable, attemptIds: readonly number[]): Promise<Map<number, PageLeaveSummary>> {
  const out = new Map<number, PageLeaveSummary>();
  if (attemptIds.length === 0) return out;
  for (const r of await leaveTotals(db, [...new Set(attemptIds)])) out.set(r.attempt_id, { count: r.count, totalMs: Number(r.total_ms) });
  return out;
}

/** One attempt's page leaves, first first. */
export async function leavesOf(db: Queryable, attemptId: number): Promise<PageLeave[]> {
  return (await leaveRows(db, attemptId)).map((r) => ({ leftAt: Number(r.left_at), backAt: Number(r.back_at) }));
}
