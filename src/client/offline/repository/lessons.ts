import type { OpOf } from "../../../shared/sync/ops.ts";
import type { LessonProgressRow, MemberDb } from "../db.ts";
import { clockOf, enqueue, idOf, round2, type RepoOptions } from "./shared.ts";

/** The member's progress on lessons as watched on this device (`lesson.progress` ops). */

/** A position change smaller than this (seconds), with `completed` unchanged, is not worth an op. */
export const LESSON_POSITION_STEP = 1;

export interface LessonProgressInput {
  lessonId: number;
  courseId: number;
  /** Seconds into the video (text-only lessons: 0). */
  position: number;
  completed: boolean;
}

export interface LessonProgressResult {
  /** The row as stored after the call. */
  row: LessonProgressRow;
  /** Whether a `lesson.progress` op was queued (false: nothing changed meaningfully). */
  queued: boolean;
}

/** A position as sent: finite, not negative, hundredths of a second. */
function cleanPosition(position: number): number {
  return Number.isFinite(position) && position > 0 ? round2(position) : 0;
}

/**
 * Records the member's progress on a lesson: the local row and its `lesson.progress` op in one
 * transaction. `completed` is sticky (once true on this device it stays true, and later ops say
 * so too). Nothing is written when the position moved less than LESSON_POSITION_STEP seconds and
 * `completed` did not change.
 */
export async function recordLessonProgress(db: MemberDb, input: LessonProgressInput, opts?: RepoOptions): Promise<LessonProgressResult> {
  const position = cleanPosition(input.position);
  return db.transaction("rw", [db.lessonProgress, db.outbox], async () => {
    const previous = await db.lessonProgress.get(input.lessonId);
    const completed = Boolean(previous?.completed) || input.completed;
    if (previous && previous.completed === completed && Math.abs(previous.position - position) < LESSON_POSITION_STEP) {
      return { row: previous, queued: false };
    }
    const op: OpOf<"lesson.progress"> = {
      id: idOf(opts)(),
      type: "lesson.progress",
      at: clockOf(opts)(),
      payload: { lessonId: input.lessonId, position, completed },
    };
    const row: LessonProgressRow = {
      lessonId: input.lessonId,
      courseId: input.courseId,
      position,
      completed,
      updatedAt: op.at,
      opId: op.id,
    };
    await db.lessonProgress.put(row);
    await enqueue(db, op);
    return { row, queued: true };
  });
}
