import type { QuestionVersion } from "../../../shared/admin/questions.ts";
import type { Queryable } from "../../db/index.ts";

/**
 * Question versions (migration 0042): the database keeps them (triggers on
 * `exam_question`); the back office names who made each one and reads a question's history.
 */

/** Names the admin whose writes to questions follow in this transaction (the versions they make record them). */
export async function actAs(tx: Queryable, adminId: number): Promise<void> {
  await tx.query("select set_config('exam.admin_id', $1, true)", [String(adminId)]);
}

/** A question's versions, newest first (empty when there is no such question). */
export async function questionVersions(db: Queryable, questionId: number): Promise<QuestionVersion[]> {
  const { rows } = await db.query<QuestionVersion>(
    `select v.version, v.type, v.stem, v.options, v.answer, v.analysis, v.difficulty, v.score::float8 as score, v.create_time::float8 as "createTime",
       a.username as admin, v.version = q.version as latest,
       (select count(*)::int from exam_paper_row r where r.question_id = v.question_id and r.question_version = v.version) as "pinnedRows"
     from exam_question_version v join exam_question q on q.id = v.question_id left join admin a on a.id = v.admin_id
     where v.question_id = $1 order by v.version desc`,
    [questionId],
  );
  return rows;
}
