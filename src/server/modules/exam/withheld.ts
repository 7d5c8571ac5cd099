import type { Queryable } from "../../db/index.ts";

/**
 * Exam-only content (docs/architecture.md, "Exam-only questions"): the view
 * `exam_withheld_question` (migration 0008) lists every question whose answer and analysis no
 * member may get — the questions of exam-only banks, and every question a paper of an official
 * room that has not ended can contain.
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

/** Why a paper is or is not a mock paper now, as the papers screen says it. */
export interface PaperWithholding {
  /** Offered to members as a mock paper. */
  mock: boolean;
  /** Official rooms that keep it until they close (soonest first; at most 3). */
  rooms: { title: string; until: number }[];
  /** It holds or draws exam-only questions. */
  examOnly: boolean;
}

/** For each paper, whether members may take it as a mock paper, and why not. */
export async function papersWithholding(db: Queryable, paperIds: readonly number[]): Promise<Map<number, PaperWithholding>> {
  const out = new Map<number, PaperWithholding>();
  if (paperIds.length === 0) return out;
  const { rows } = await db.query<{ id: number; withheld: boolean; exam_only: boolean; rooms: { title: string; until: number | string }[] | null }>(
    `select p.id, ${paperWithheldSql("p.id")} as withheld,
       exists (select 1 from exam_paper_row r left join exam_question q on q.id = r.question_id
               join exam_classify c on c.id = coalesce(r.classify_id, q.classify_id) where r.paper_id = p.id and c.kind = 'exam') as exam_only,
       (select json_agg(json_build_object('title', x.title, 'until', x.until) order by x.until) from (
          select m.title, exam_room_closes_at(m.id, m.end_time) as until from exam_room m
          where m.paper_id = p.id and exam_room_closes_at(m.id, m.end_time) > extract(epoch from now())::bigint
          order by 2 limit 3) x) as rooms
     from exam_paper p where p.id = any($1::int[])`,
    [paperIds],
  );
  for (const r of rows) out.set(r.id, { mock: !r.withheld, examOnly: r.exam_only, rooms: (r.rooms ?? []).map((x) => ({ title: x.title, until: Number(x.until) })) });
  return out;
}

/** For each practice bank, how many of its questions exams keep out of practice now, and until when (the last room's close). */
export async function banksWithholding(db: Queryable, bankIds: readonly number[]): Promise<Map<number, { count: number; until: number }>> {
  if (bankIds.length === 0) return new Map();
  const { rows } = await db.query<{ classify_id: number; n: number; until: string }>(
    `select q.classify_id, count(distinct q.id)::int as n, max(exam_room_closes_at(m.id, m.end_time)) as until
     from exam_withheld_question w join exam_question q on q.id = w.question_id join exam_room m on m.id = w.room_id
     where q.classify_id = any($1::int[]) and q.status = 'enable' group by q.classify_id`,
    [bankIds],
  );
  return new Map(rows.map((r) => [r.classify_id, { count: r.n, until: Number(r.until) }]));
}
