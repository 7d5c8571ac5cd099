import { isLessonComplete, LESSON_COMPLETE_POINTS } from "../../../shared/course/types.ts";
import type { OpOf } from "../../../shared/sync/ops.ts";
import type { Queryable } from "../../db/index.ts";
import { lessonCompleted } from "../certificate/issue.ts";
import { memos } from "../account/memos.ts";
import { awardPoints } from "../account/repository.ts";
import { claimLessonPoints, mergeLessonProgress, progressLesson } from "./repository.ts";

export type LessonProgressOutcome = "applied" | "unknown-lesson" | "not-enrolled";

/**
 * Applies one `lesson.progress` op (API.md "Offline sync") inside the sync transaction that
 * recorded its id. Order-independent, so replays and reordered deliveries end in one state:
 * - the position is last-writer-wins by (op time, op id), clamped to [0, duration] when the
 *   duration is known;
 * - completed is sticky (an op completes the lesson when it says so or its position reaches
 *   LESSON_COMPLETE_FRACTION of the duration); completed_at is the earliest completing op time;
 * - last_watched is the latest op time (Unix seconds);
 * - the first time the lesson is completed by an enrolled member, the member gets
 *   LESSON_COMPLETE_POINTS points and a points log row, in this transaction; `points_awarded`
 *   (set under the row lock) makes it once. A free preview watched without enrolling keeps its
 *   progress (and completion) but earns nothing; once the member has enrolled, the next op of
 *   that completed lesson awards the points.
 * Refused: an unknown (or disabled) lesson, and a lesson of a course the member is not enrolled
 * in unless it is a free preview.
 */
export async function applyLessonProgress(tx: Queryable, userId: number, op: OpOf<"lesson.progress">): Promise<LessonProgressOutcome> {
  const { lessonId } = op.payload;
  const lesson = await progressLesson(tx, lessonId, userId);
  if (!lesson) return "unknown-lesson";
  if (!lesson.enrolled && !lesson.free_preview) return "not-enrolled";

  const duration = Number(lesson.duration);
  const position = duration > 0 ? Math.min(Math.max(op.payload.position, 0), duration) : Math.max(op.payload.position, 0);
  const completed = op.payload.completed || isLessonComplete(position, duration);
  await mergeLessonProgress(tx, { userId, lessonId, position, completed, at: op.at, opId: op.id });

  // Points go to enrolled members only.
  if (!lesson.enrolled) return "applied";
  // The first completion, whenever it arrives: flip the flag once and award the points with it.
  const awarded = await claimLessonPoints(tx, userId, lessonId);
  if (awarded && LESSON_COMPLETE_POINTS > 0) {
    await awardPoints(tx, userId, LESSON_COMPLETE_POINTS, memos.lessonCompleted(lesson.title));
  }
  // The lesson's first completion as an enrolled member: the course's certificate once every lesson is done.
  if (awarded) await lessonCompleted(tx, userId, lesson.course_id);
  return "applied";
}
