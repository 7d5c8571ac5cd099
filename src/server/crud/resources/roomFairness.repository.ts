import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf, rowById } from "../../db/kysely.ts";
import { paperWithheld } from "../../modules/exam/withheld.ts";

/** Questions a paper's rows can contain (the withholding view's own rule: fixed rows, draw rows' bank and type). */
const paperQuestions = (paperId: number) => sql`select distinct q.id from exam_paper_row r
  join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
    or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type))
  where r.paper_id = ${paperId}`;

/** The most extra minutes an override of the room gives (0 without overrides). */
export async function maxExtraMinutes(q: Queryable, roomId: number): Promise<number> {
  const row = await kyselyOf(q)
    .selectFrom("exam_room_override")
    .select(sql<number>`coalesce(max(extra_minutes), 0)::int`.as("m"))
    .where("room_id", "=", roomId)
    .executeTakeFirstOrThrow();
  return row.m;
}

/** How many enabled practice questions the paper's rows can contain. */
export async function practiceQuestionsOfPaper(q: Queryable, paperId: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (${paperQuestions(paperId)}) w join exam_question q on q.id = w.id join exam_classify c on c.id = q.classify_id
    where c.kind = 'practice' and q.status = 'enable'`.execute(kyselyOf(q));
  return rows[0]!.n;
}

/**
 * Mock papers offered now that would contain a question of paper `paperId` (or be that paper),
 * by id, at most `limit`. The withheld rule is withheld.ts's own SQL piece.
 */
export async function mockPapersSharingQuestions(q: Queryable, paperId: number, limit: number): Promise<{ id: number; title: string }[]> {
  const { rows } = await sql<{ id: number; title: string }>`
    select p.id, p.title from exam_paper p
    where p.status = 'enable' and not ${paperWithheld(sql.ref("p.id"))}
      and (p.id = ${paperId} or exists (
        select 1 from exam_paper_row r
        join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
          or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type)
            and (r.difficulty is null or q.difficulty = r.difficulty))
        where r.paper_id = p.id and q.id in (${paperQuestions(paperId)})))
    order by p.id limit ${limit}`.execute(kyselyOf(q));
  return rows;
}

export interface RoomFigureRow {
  id: number;
  closes_at: string;
  withheld_questions: number;
  paper_total: string | null;
  paper_rows_total: string;
  overrides: number;
}

/** Each room's close (with overrides), practice questions it keeps now, paper totals and override count. */
export async function roomFigureRows(q: Queryable, roomIds: readonly number[]): Promise<RoomFigureRow[]> {
  const { rows } = await sql<RoomFigureRow>`
    select m.id, exam_room_closes_at(m.id, m.end_time) as closes_at,
      case when exam_room_closes_at(m.id, m.end_time) > extract(epoch from now())::bigint then (
        select count(distinct q.id)::int from exam_paper_row r
        join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
          or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type))
        join exam_classify c on c.id = q.classify_id
        where r.paper_id = m.paper_id and c.kind = 'practice' and q.status = 'enable') else 0 end as withheld_questions,
      p.total_score as paper_total,
      (select coalesce(sum(r.score * r.count), 0) from exam_paper_row r where r.paper_id = m.paper_id) as paper_rows_total,
      (select count(*)::int from exam_room_override o where o.room_id = m.id) as overrides
    from exam_room m left join exam_paper p on p.id = m.paper_id where m.id = any(${roomIds}::int[])`.execute(kyselyOf(q));
  return rows;
}

export interface OverrideRow {
  id: number;
  user_id: number | null;
  username: string | null;
  nickname: string | null;
  user_group_id: number | null;
  group_name: string | null;
  extra_minutes: number;
  extra_attempts: number;
}

/** The room's overrides, members' first, with the names of whom they are for. */
export async function overridesOfRoom(q: Queryable, roomId: number): Promise<OverrideRow[]> {
  const { rows } = await sql<OverrideRow>`
    select o.id, o.user_id, u.username, u.nickname, o.user_group_id, g.name as group_name, o.extra_minutes, o.extra_attempts
    from exam_room_override o left join member u on u.id = o.user_id left join user_group g on g.id = o.user_group_id
    where o.room_id = ${roomId} order by o.user_id is null, o.id`.execute(kyselyOf(q));
  return rows;
}

/** Whether the room exists; its row is then locked until the transaction ends. */
export async function lockRoom(q: Queryable, roomId: number): Promise<boolean> {
  return (await kyselyOf(q).selectFrom("exam_room").select("id").where("id", "=", roomId).forUpdate().executeTakeFirst()) !== undefined;
}

/** Whether the member exists and, when `companyId` is given, belongs to that company or one under it. */
export async function memberInReach(q: Queryable, memberId: number, scope: { companyId: number | null } | null): Promise<boolean> {
  let query = kyselyOf(q).selectFrom("member").select("id").where("id", "=", memberId);
  if (scope) query = query.where(sql<boolean>`company_id in (select company_subtree(${scope.companyId}::int))`);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function memberGroupExists(q: Queryable, id: number): Promise<boolean> {
  return (await rowById(q, "user_group", ["id"], id)) !== undefined;
}

/** Whether the room already has an override for this member or member group. */
export async function overrideExists(q: Queryable, roomId: number, who: { column: "user_id" | "user_group_id"; id: number }): Promise<boolean> {
  const row = await kyselyOf(q).selectFrom("exam_room_override").select(sql`1`.as("one")).where("room_id", "=", roomId).where(who.column, "=", who.id).executeTakeFirst();
  return row !== undefined;
}

export interface OverrideInsert {
  room_id: number;
  user_id: number | null;
  user_group_id: number | null;
  extra_minutes: number;
  extra_attempts: number;
}

export async function insertOverride(q: Queryable, o: OverrideInsert): Promise<number> {
  const row = await kyselyOf(q).insertInto("exam_room_override").values(o).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** Removes the room's override; false when the room has no such override. */
export async function deleteOverride(q: Queryable, roomId: number, overrideId: number): Promise<boolean> {
  const rows = await kyselyOf(q).deleteFrom("exam_room_override").where("id", "=", overrideId).where("room_id", "=", roomId).returning("id").execute();
  return rows.length > 0;
}
