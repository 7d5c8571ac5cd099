import { isLessonComplete, LESSON_COMPLETE_POINTS } from "../../../shared/course/types.ts";
import type { OpOf } from "../../../shared/sync/ops.ts";
import type { Queryable } from "../../db/index.ts";
import { memos } from "../account/memos.ts";
import { visibleSql } from "../org/visibility.ts";

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
  const found = await tx.query<{ id: number; course_id: number; title: string; duration: number; free_preview: boolean; enrolled: boolean }>(
    `select l.id, l.course_id, l.title, l.duration, l.free_preview,
            exists (select 1 from course_enrolment e where e.user_id = $2 and e.course_id = l.course_id) as enrolled
     from lesson l join course c on c.id = l.course_id
     where l.id = $1 and l.status = 'enable' and c.status = 'enable' and ${visibleSql("course", "c.id", "$2")}`,
    [lessonId, userId],
  );
  const lesson = found.rows[0];
  if (!lesson) return "unknown-lesson";
  if (!lesson.enrolled && !lesson.free_preview) return "not-enrolled";

  const duration = Number(lesson.duration);
  const position = duration > 0 ? Math.min(Math.max(op.payload.position, 0), duration) : Math.max(op.payload.position, 0);
  const completed = op.payload.completed || isLessonComplete(position, duration);
  await tx.query(
    `insert into lesson_progress (user_id, lesson_id, position, completed, completed_at, last_watched, at, op_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (user_id, lesson_id) do update set
       position = case when (excluded.at, excluded.op_id collate "C") > (lesson_progress.at, lesson_progress.op_id collate "C")
                       then excluded.position else lesson_progress.position end,
       op_id = case when (excluded.at, excluded.op_id collate "C") > (lesson_progress.at, lesson_progress.op_id collate "C")
                    then excluded.op_id else lesson_progress.op_id end,
       at = greatest(lesson_progress.at, excluded.at),
       completed = lesson_progress.completed or excluded.completed,
       completed_at = least(lesson_progress.completed_at, excluded.completed_at),
       last_watched = greatest(lesson_progress.last_watched, excluded.last_watched)`,
    [userId, lessonId, position, completed, completed ? op.at : null, Math.floor(op.at / 1000), op.at, op.id],
  );

  // Points go to enrolled members only.
  if (!lesson.enrolled) return "applied";
  // The first completion, whenever it arrives: flip the flag once and award the points with it.
  const award = await tx.query(
    "update lesson_progress set points_awarded = true where user_id = $1 and lesson_id = $2 and completed and not points_awarded returning lesson_id",
    [userId, lessonId],
  );
  if (award.rows.length > 0 && LESSON_COMPLETE_POINTS > 0) {
    const title = lesson.title;
    const member = await tx.query<{ score: number }>("update member set score = score + $1 where id = $2 returning score", [LESSON_COMPLETE_POINTS, userId]);
    const after = Number(member.rows[0]!.score);
    // The memo is a key with parameters, shown in the reader's language (account/memos.ts).
    const memo = memos.lessonCompleted(title);
    await tx.query("insert into user_score_log (user_id, score, before, after, memo_key, memo_params) values ($1, $2, $3, $4, $5, $6)", [
      userId,
      LESSON_COMPLETE_POINTS,
      after - LESSON_COMPLETE_POINTS,
      after,
      memo.key,
      JSON.stringify(memo.params),
    ]);
  }
  return "applied";
}
