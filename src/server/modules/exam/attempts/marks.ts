import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { GradeResult } from "../../../../shared/exam/grading.ts";
import type { Queryable } from "../../../db/index.ts";
import { attemptGraded } from "../../certificate/issue.ts";
import { ApiError } from "../../../errors.ts";
import { gradeHeld } from "./attempt.ts";
import { satQuestions, snapshotOf } from "./snapshot.ts";
import { giveMark, givenMarkScores, insertMarks, lockAttempt, lockMark, markAttemptId, markRows, setAttemptGrade } from "./repository.ts";

/**
 * Short answers a marker scores (`exam_mark`, migration 0018). Grading cannot decide a short
 * answer (`correct: null`): closing an attempt queues one row per such answer; a marker's score
 * then counts in place of "undecided" every time the attempt is graded (gradeHeld), so the
 * attempt's total is always computed from what it holds and a mark is never counted twice.
 */

/** Question id -> the score a marker gave, for an attempt's marked answers. */
export async function givenMarks(db: Queryable, attemptId: number): Promise<Map<number, number>> {
  return givenMarkScores(db, attemptId);
}

/** Queues the answers grading could not decide for a marker (once per question of an attempt). */
export async function queueMarks(db: Queryable, attemptId: number, results: Record<string, GradeResult>): Promise<void> {
  const ids = Object.entries(results)
    .filter(([, r]) => r.correct === null)
    .map(([id]) => Number(id));
  if (ids.length === 0) return;
  await insertMarks(db, attemptId, ids);
}

/**
 * A marker's score (0 .. the question's score in the paper) and comment on one queued answer, in
 * the caller's transaction: the attempt row is locked first, then the mark; a mark already given
 * (a retried or concurrent request) is refused, so exactly one counts. The attempt is graded
 * again with every mark it holds and its score, pass and review flag are written.
 */
export async function markAnswer(
  tx: Queryable,
  input: { id: number; score: number; comment: string },
  adminId: number,
  t: (m: MessageDescriptor) => string,
): Promise<{ score: number; passed: boolean; needsReview: boolean }> {
  const attemptId = await markAttemptId(tx, input.id);
  if (attemptId === undefined) throw new ApiError(msg`This answer is not in the marking queue`);
  const attempt = await lockAttempt(tx, attemptId);
  const mark = await lockMark(tx, input.id);
  if (!attempt || !mark) throw new ApiError(msg`This answer is not in the marking queue`);
  if (mark.status !== "pending") throw new ApiError(msg`This answer has already been marked`);
  if (attempt.status === "open") throw new ApiError(msg`This attempt is still in progress`);
  // The points the paper gave this question in this attempt (snapshot.ts), not its current rows.
  const sat = await snapshotOf(tx, attempt.id);
  const full = sat ? satQuestions(sat).get(mark.question_id)?.score : undefined;
  if (full === undefined) throw new ApiError(msg`This paper no longer exists`);
  if (input.score > full || Math.round(input.score * 100) !== input.score * 100) {
    const message = msg`Enter a score from 0 to ${full}, with at most 2 decimals`;
    throw new ApiError(message, 0, { fields: { score: t(message) } });
  }
  if (!(await giveMark(tx, mark.id, input, adminId, Date.now()))) throw new ApiError(msg`This answer has already been marked`);
  const graded = await gradeHeld(tx, attempt);
  await setAttemptGrade(tx, attempt.id, graded);
  await attemptGraded(tx, attempt.id);
  return { score: graded.score, passed: graded.passed, needsReview: graded.needsReview };
}

/** The marks of an attempt (score and comment), for the member's record. */
export async function marksOf(db: Queryable, attemptId: number): Promise<Record<string, { score: number | null; comment: string; marked: boolean }>> {
  return Object.fromEntries((await markRows(db, attemptId)).map((r) => [String(r.question_id), { score: r.score === null ? null : Number(r.score), comment: r.comment, marked: r.status === "marked" }]));
}
