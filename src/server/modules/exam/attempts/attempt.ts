import { msg } from "@lingui/core/macro";
import type { Queryable } from "../../../db/index.ts";
import { ApiError } from "../../../errors.ts";
import { SUBMIT_GRACE_SECONDS } from "../../../../shared/exam/official.ts";
import { gradeAttempt, type AttemptGrade } from "./grading.ts";
import { givenMarks, queueMarks } from "./marks.ts";
import { satIds, satQuestions, snapshotOf } from "./snapshot.ts";
import { recordMissedChecks } from "../../face/missed.ts";
import { attemptGraded } from "../../certificate/issue.ts";
import { closeOpenAttempt, expiredOpenAttempts } from "./repository.ts";

/**
 * Seconds after an official deadline that a save or submission is still taken in (network lag),
 * shared with the device (it forgets an ended attempt after it). Answers that reach the server
 * later are never graded on the device's word: the room's `late_policy` keeps them for a marker
 * (`exam_late_answer`, see late.ts) or refuses them.
 */
export { SUBMIT_GRACE_SECONDS } from "../../../../shared/exam/official.ts";

/** The server's clock in seconds (attempt times are seconds; answer times are ms). */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A row of `exam_attempt`: a mock attempt (graded on arrival) or an official one (open until submitted or expired). */
export interface AttemptRow {
  id: number;
  uuid: string;
  user_id: number;
  kind: "mock" | "official";
  paper_id: number;
  room_id: number | null;
  questions: { id: number }[];
  answers: Record<string, unknown>;
  /** Question id -> when the saved answer was made (server clock, ms). */
  answer_times: Record<string, number>;
  late_answers: number;
  /** When the server last heard from the device in time (ms), or null before 0008. */
  last_seen_at: number | null;
  score: number | null;
  passed: boolean | null;
  started_at: number;
  deadline: number | null;
  submitted_at: number | null;
  status: "open" | "submitted" | "expired";
  /** When staff last regraded it (seconds, migration 0041), or null. */
  regraded_at?: number | null;
}

/**
 * Grades an attempt with the answers it holds (those that reached the server in time, and
 * accepted late ones) against the questions it sat, with the points and rules it was given (an
 * official attempt passes by its room's pass mark at its start).
 */
export async function gradeHeld(db: Queryable, attempt: AttemptRow): Promise<AttemptGrade> {
  // Only what the attempt sat (snapshot.ts): never the paper's or the questions' current rows.
  const sat = await snapshotOf(db, attempt.id);
  if (!sat) throw new ApiError(msg`This paper no longer exists`);
  return gradeAttempt(
    satQuestions(sat),
    attempt.answers,
    { partialCredit: sat.paper.partialCredit, passScore: sat.paper.passScore },
    satIds(sat),
    await givenMarks(db, attempt.id),
  );
}

/**
 * Closes an open official attempt, graded with what it holds: submitted now, or expired at its
 * deadline; the scheduled face checks it missed are counted against it.
 */
export async function finish(db: Queryable, attempt: AttemptRow, status: "submitted" | "expired"): Promise<{ score: number; passed: boolean }> {
  const graded = await gradeHeld(db, attempt);
  const endedAt = status === "expired" ? Number(attempt.deadline) : nowSeconds();
  const closed = await closeOpenAttempt(db, attempt.id, graded, status, endedAt);
  await queueMarks(db, attempt.id, graded.results);
  // Scheduled face checks the device never sent count as failures now (modules/face/missed.ts).
  if (closed) await recordMissedChecks(db, attempt, endedAt);
  // A pass (with nothing left for a marker) issues the room's certificate (certificate/issue.ts).
  if (closed) await attemptGraded(db, attempt.id);
  return { score: graded.score, passed: graded.passed };
}

/** Official attempts whose time is up are closed and graded with what was saved. */
export async function closeExpired(db: Queryable, userId: number): Promise<void> {
  for (const attempt of await expiredOpenAttempts(db, userId, SUBMIT_GRACE_SECONDS, nowSeconds())) await finish(db, attempt, "expired");
}
