import type { Database, Queryable } from "../../../db/index.ts";
import { gradeHeld, type AttemptRow } from "./attempt.ts";
import { queueMarks } from "./marks.ts";
import { attemptGraded } from "../../certificate/issue.ts";
import { addLateArrivals, decideLate, lockAttempt, lockLateAnswer, pendingLateCounts, roomLatePolicy, setAttemptAnswers, setAttemptGrade, upsertLateAnswer } from "./repository.ts";

/**
 * Late official answers (docs/architecture.md, "Late official answers"): answers that reach
 * the server after the deadline + grace are never graded on the device's word. With the room's `late_policy`
 * `review` (the default) each is kept in `exam_late_answer` for a marker's decision; with
 * `refuse` it is turned away.
 */

/** The latest time a JavaScript date can hold (ms): claimed times are kept within it. */
const MAX_TIME_MS = 8_640_000_000_000_000;

/** Pending late answers per attempt (the member sees that they wait for review). */
export async function pendingReview(db: Queryable, attemptIds: number[]): Promise<Map<number, number>> {
  if (attemptIds.length === 0) return new Map();
  return pendingLateCounts(db, attemptIds);
}

export interface LateOutcome {
  /** Answers kept for review (new, or replacing a pending one). */
  queued: number;
  /** Answers turned away (room policy `refuse`). */
  refused: number;
  /** The attempt's late answers now waiting for a marker. */
  pending: number;
}

/**
 * Takes answers that arrived after the deadline + grace into the attempt's late-answer queue
 * (`tx` holds the attempt row locked). Every answer the attempt does not hold yet is late,
 * whatever time the device claims for it: kept with that claim, when it arrived and when the
 * device was last heard from in time (policy `review`), or refused (`refuse`). An answer the
 * attempt holds already (the same one, or a later one) is not late: the device resends
 * everything it has.
 */
export async function takeLateAnswers(
  tx: Queryable,
  attempt: AttemptRow,
  given: Record<string, unknown>,
  answeredAt: Record<string, number> | undefined,
  nowMs: number,
): Promise<LateOutcome> {
  const inAttempt = new Set(attempt.questions.map((q) => String(q.id)));
  const answers = attempt.answers;
  const times = attempt.answer_times;
  const policy = attempt.room_id ? ((await roomLatePolicy(tx, attempt.room_id)) ?? "review") : "review";
  const lastHeard = Number(attempt.last_seen_at ?? Number(attempt.started_at) * 1000);
  let queued = 0;
  let refused = 0;
  let changed = 0;
  for (const [id, answer] of Object.entries(given)) {
    if (!inAttempt.has(id)) continue;
    // The device's word, kept as it is for the marker (within what a time can be).
    const said = answeredAt?.[id];
    const claimed = said === undefined ? undefined : Math.min(said, MAX_TIME_MS);
    // Already held: the same answer, or a later one (the device resends everything it has).
    if (JSON.stringify(answers[id]) === JSON.stringify(answer)) continue;
    if (claimed !== undefined && times[id] !== undefined && times[id] >= claimed) continue;
    if (policy === "refuse") {
      refused++;
      continue;
    }
    queued++;
    // One row per question: a later claimed answer replaces a pending one; a decided one stays.
    changed += await upsertLateAnswer(tx, { attemptId: attempt.id, questionId: Number(id), answer, claimedAt: claimed ?? null, receivedAt: nowMs, lastHeardAt: lastHeard });
  }
  const pending = (await pendingReview(tx, [attempt.id])).get(attempt.id) ?? 0;
  // late_answers: late arrivals recorded for review or refused.
  if (changed + refused > 0) await addLateArrivals(tx, attempt.id, changed + refused);
  return { queued, refused, pending };
}

export type LateDecision = "accepted" | "rejected";

/**
 * A marker's decision on one late official answer (`exam_late_answer`), in one transaction:
 * accepted, the answer counts as if it had reached the server in time (of two answers to a
 * question the later one wins) and the attempt is graded again; rejected, it stays out. A
 * decision is final. The back office's late-answer queue (`POST /admin/exam/lateAnswer/decide`) calls it.
 */
export async function decideLateAnswer(
  db: Database,
  lateAnswerId: number,
  decision: LateDecision,
  adminId: number | null = null,
): Promise<LateDecisionOutcome> {
  return db.transaction((tx) => decideLateAnswerIn(tx, lateAnswerId, decision, adminId));
}

export type LateDecisionOutcome = { outcome: "decided"; score: number; passed: boolean } | { outcome: "unknown" | "already-decided" };

/** decideLateAnswer inside the caller's transaction (the back office's action, with its admin log row). */
export async function decideLateAnswerIn(tx: Queryable, lateAnswerId: number, decision: LateDecision, adminId: number | null = null): Promise<LateDecisionOutcome> {
  {
    const late = await lockLateAnswer(tx, lateAnswerId);
    if (!late) return { outcome: "unknown" as const };
    if (late.status !== "pending") return { outcome: "already-decided" as const };
    const attempt = (await lockAttempt(tx, late.attempt_id))!;
    if (decision === "accepted") {
      const key = String(late.question_id);
      const madeAt = Number(late.claimed_at ?? late.received_at);
      if ((attempt.answer_times[key] ?? -1) <= madeAt) {
        attempt.answers = { ...attempt.answers, [key]: late.answer };
        attempt.answer_times = { ...attempt.answer_times, [key]: madeAt };
        await setAttemptAnswers(tx, attempt.id, attempt.answers, attempt.answer_times);
      }
    }
    await decideLate(tx, late.id, decision, Date.now(), adminId);
    const graded = await gradeHeld(tx, attempt);
    if (attempt.status !== "open") {
      await setAttemptGrade(tx, attempt.id, graded);
      await queueMarks(tx, attempt.id, graded.results);
      await attemptGraded(tx, attempt.id);
    }
    return { outcome: "decided" as const, score: graded.score, passed: graded.passed };
  }
}
