import type { Queryable } from "../../db/index.ts";

/**
 * Exam-only content (README "Exam-only questions"): the view `exam_withheld_question` (migration
 * 0008) lists every question whose answer and analysis no member may get — the questions of
 * exam-only banks, and every question a paper of an official room that has not ended can contain.
 * Every endpoint that sends answers asks here first.
 */

/** Question id -> the rooms that withhold it (`null`: an exam-only bank). Only for `ids` when given. */
export async function withheldQuestions(db: Queryable, ids?: readonly number[]): Promise<Map<number, (number | null)[]>> {
  if (ids && ids.length === 0) return new Map();
  const { rows } = ids
    ? await db.query<{ question_id: number; room_id: number | null }>(
        "select question_id, room_id from exam_withheld_question where question_id = any($1::int[])",
        [ids],
      )
    : await db.query<{ question_id: number; room_id: number | null }>("select question_id, room_id from exam_withheld_question");
  const out = new Map<number, (number | null)[]>();
  for (const r of rows) out.set(r.question_id, [...(out.get(r.question_id) ?? []), r.room_id]);
  return out;
}

export async function isWithheld(db: Queryable, questionId: number): Promise<boolean> {
  const { rows } = await db.query("select 1 from exam_withheld_question where question_id = $1 limit 1", [questionId]);
  return rows.length > 0;
}

/**
 * SQL condition, true when paper `paperColumn` is not a mock paper: an official room that has not
 * closed (its end time plus its overrides' extra time, migration 0043) uses it, or it can contain a withheld question (a fixed row or a draw row over withheld
 * content, e.g. an exam-only bank: its bank, type and, when the rule sets one, difficulty).
 */
export function paperWithheldSql(paperColumn: string): string {
  return `(exists (select 1 from exam_room m where m.paper_id = ${paperColumn} and exam_room_closes_at(m.id, m.end_time) > extract(epoch from now())::bigint)
    or exists (
      select 1 from exam_paper_row r
      join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
        or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type)
          and (r.difficulty is null or q.difficulty = r.difficulty))
      join exam_withheld_question w on w.question_id = q.id
      where r.paper_id = ${paperColumn}))`;
}

/** Whether a paper is kept for official exams (not offered, described or graded as a mock paper). */
export async function isPaperWithheld(db: Queryable, paperId: number): Promise<boolean> {
  const { rows } = await db.query<{ withheld: boolean }>(`select ${paperWithheldSql("$1::int")} as withheld`, [paperId]);
  return rows[0]?.withheld === true;
}
