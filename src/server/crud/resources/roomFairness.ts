import { msg } from "@lingui/core/macro";
import {
  roomOverrideAdd,
  roomOverrideDel,
  roomOverridesQuery,
  roomWithholdingQuery,
  type RoomOverride,
  type RoomOverrideAdd,
  type RoomWithholding,
} from "../../../shared/admin/rooms.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { paperWithheldSql } from "../../modules/exam/withheld.ts";
import type { ExtraAction } from "../resource.ts";
import { isCompanyAdmin } from "../scope.ts";
import { fieldError } from "./papers.ts";

/**
 * The room screen's fairness and withholding: its overrides (extra time and attempts
 * for a member or a member group: modules/exam/overrides.ts) and what a room keeps from practice
 * (modules/exam/withheld.ts), listed on the rooms and told to the form before a save makes a
 * mock paper unusable. Every action names its room by `id`, so a company admin reaches only
 * rooms of their companies (crud/scope.ts).
 */

/** Questions a paper's rows can contain (the withholding view's own rule: fixed rows, draw rows' bank and type). */
const PAPER_QUESTIONS = `select distinct q.id from exam_paper_row r
  join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
    or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type))
  where r.paper_id = $1`;

/** Most papers a warning names (the rest are counted in the list the admin opens). */
const MAX_NAMED_PAPERS = 20;

/**
 * What a room on paper `paperId` closing at `endTime` (plus the extra time of room `roomId`'s
 * overrides, when it exists) keeps from practice: how many practice questions, until when, and
 * which mock papers members can take now would stop being offered.
 */
export async function roomWithholding(db: Queryable, room: { id?: number | null; paperId: number; endTime: number }): Promise<RoomWithholding> {
  const extra = room.id
    ? (await db.query<{ m: number }>("select coalesce(max(extra_minutes), 0)::int as m from exam_room_override where room_id = $1", [room.id])).rows[0]!.m
    : 0;
  const closesAt = room.endTime + extra * 60;
  if (closesAt <= Math.floor(Date.now() / 1000)) return { closesAt, questions: 0, papers: [] };
  const counted = await db.query<{ n: number }>(
    `select count(*)::int as n from (${PAPER_QUESTIONS}) w join exam_question q on q.id = w.id join exam_classify c on c.id = q.classify_id
     where c.kind = 'practice' and q.status = 'enable'`,
    [room.paperId],
  );
  // Mock papers offered now that would then contain a withheld question (or be the room's paper).
  const papers = await db.query<{ id: number; title: string }>(
    `select p.id, p.title from exam_paper p
     where p.status = 'enable' and not ${paperWithheldSql("p.id")}
       and (p.id = $1 or exists (
         select 1 from exam_paper_row r
         join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
           or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type)
             and (r.difficulty is null or q.difficulty = r.difficulty))
         where r.paper_id = p.id and q.id in (${PAPER_QUESTIONS})))
     order by p.id limit ${MAX_NAMED_PAPERS}`,
    [room.paperId],
  );
  return { closesAt, questions: counted.rows[0]!.n, papers: papers.rows };
}

/**
 * The add or edit of a room: refused (beside `confirm_withhold`) when it would make mock papers
 * unusable and the admin has not confirmed it, naming the papers. Nothing is written then.
 */
export async function requireWithholdConfirmed(
  ctx: Parameters<ExtraAction["run"]>[0],
  room: { id?: number | null; paperId: number; endTime: number },
  confirmed: boolean,
): Promise<void> {
  if (confirmed) return;
  const { papers } = await roomWithholding(ctx.tx, room);
  if (papers.length === 0) return;
  const names = papers.map((p) => `“${p.title}”`).join(", ");
  throw fieldError(
    ctx.req,
    "confirm_withhold",
    msg`Saving this room keeps these mock papers for the official exam until it closes: ${names}. Members cannot take them as mock papers until then. Tick the box to save anyway.`,
  );
}

/** Each room's figures for the list: practice questions it keeps and until when, its paper's totals, its overrides. */
export async function roomListFigures(
  db: Queryable,
  ids: number[],
): Promise<Map<number, { closes_at: number; withheld_questions: number; paper_total: number; paper_rows_total: number; overrides: number }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: number; closes_at: string; withheld_questions: number; paper_total: string | null; paper_rows_total: string; overrides: number }>(
    `select m.id, exam_room_closes_at(m.id, m.end_time) as closes_at,
       case when exam_room_closes_at(m.id, m.end_time) > extract(epoch from now())::bigint then (
         select count(distinct q.id)::int from exam_paper_row r
         join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
           or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type))
         join exam_classify c on c.id = q.classify_id
         where r.paper_id = m.paper_id and c.kind = 'practice' and q.status = 'enable') else 0 end as withheld_questions,
       p.total_score as paper_total,
       (select coalesce(sum(r.score * r.count), 0) from exam_paper_row r where r.paper_id = m.paper_id) as paper_rows_total,
       (select count(*)::int from exam_room_override o where o.room_id = m.id) as overrides
     from exam_room m left join exam_paper p on p.id = m.paper_id where m.id = any($1::int[])`,
    [ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { closes_at: Number(r.closes_at), withheld_questions: r.withheld_questions, paper_total: Number(r.paper_total ?? 0), paper_rows_total: Number(r.paper_rows_total), overrides: r.overrides },
    ]),
  );
}

async function listOverrides(db: Queryable, roomId: number): Promise<{ overrides: RoomOverride[] }> {
  const { rows } = await db.query<{ id: number; user_id: number | null; username: string | null; nickname: string | null; user_group_id: number | null; group_name: string | null; extra_minutes: number; extra_attempts: number }>(
    `select o.id, o.user_id, u.username, u.nickname, o.user_group_id, g.name as group_name, o.extra_minutes, o.extra_attempts
     from exam_room_override o left join member u on u.id = o.user_id left join user_group g on g.id = o.user_group_id
     where o.room_id = $1 order by o.user_id is null, o.id`,
    [roomId],
  );
  return {
    overrides: rows.map((r) => ({
      id: r.id,
      member: r.user_id === null ? null : { id: r.user_id, username: r.username ?? "", nickname: r.nickname ?? "" },
      group: r.user_group_id === null ? null : { id: r.user_group_id, name: r.group_name ?? "" },
      extraMinutes: r.extra_minutes,
      extraAttempts: r.extra_attempts,
    })),
  };
}

/** `exam/room`'s extra actions: overrides (list, add, remove) and the withholding a save would cause. */
export const fairnessActions: Record<string, ExtraAction> = {
  overrides: {
    method: "GET",
    input: roomOverridesQuery,
    run: (ctx, input) => listOverrides(ctx.tx, (input as { id: number }).id),
  },
  overrideAdd: {
    method: "POST",
    input: roomOverrideAdd,
    done: msg`Override added`,
    async run(ctx, input) {
      const o = input as RoomOverrideAdd;
      if (o.user_id === null && o.user_group_id === null) throw fieldError(ctx.req, "user_id", msg`Choose a member or a member group`);
      if (o.user_id !== null && o.user_group_id !== null) throw fieldError(ctx.req, "user_id", msg`Choose a member or a member group, not both`);
      if (o.extra_minutes === 0 && o.extra_attempts === 0) throw fieldError(ctx.req, "extra_minutes", msg`Give extra minutes, extra attempts or both`);
      const room = (await ctx.tx.query("select id from exam_room where id = $1 for update", [o.id])).rows[0];
      if (!room) throw new ApiError(msg`The row does not exist`);
      if (o.user_id !== null) {
        // A company admin names only members of their companies.
        const scoped = isCompanyAdmin(ctx);
        const { rows } = await ctx.tx.query(`select id from member where id = $1${scoped ? " and company_id in (select company_subtree($2::int))" : ""}`, scoped ? [o.user_id, ctx.admin.company_id ?? null] : [o.user_id]);
        if (!rows[0]) throw fieldError(ctx.req, "user_id", msg`This member does not exist`);
        if ((await ctx.tx.query("select 1 from exam_room_override where room_id = $1 and user_id = $2", [o.id, o.user_id])).rows[0]) {
          throw fieldError(ctx.req, "user_id", msg`This member already has an override in this room: remove it first`);
        }
      } else {
        if (!(await ctx.tx.query("select id from user_group where id = $1", [o.user_group_id])).rows[0]) throw fieldError(ctx.req, "user_group_id", msg`This member group does not exist`);
        if ((await ctx.tx.query("select 1 from exam_room_override where room_id = $1 and user_group_id = $2", [o.id, o.user_group_id])).rows[0]) {
          throw fieldError(ctx.req, "user_group_id", msg`This member group already has an override in this room: remove it first`);
        }
      }
      const { rows } = await ctx.tx.query<{ id: number }>(
        "insert into exam_room_override (room_id, user_id, user_group_id, extra_minutes, extra_attempts) values ($1, $2, $3, $4, $5) returning id",
        [o.id, o.user_id, o.user_group_id, o.extra_minutes, o.extra_attempts],
      );
      return { id: rows[0]!.id };
    },
  },
  overrideDel: {
    method: "POST",
    input: roomOverrideDel,
    done: msg`Override removed`,
    async run(ctx, input) {
      const { id, override_id } = input as { id: number; override_id: number };
      const { rows } = await ctx.tx.query("delete from exam_room_override where id = $1 and room_id = $2 returning id", [override_id, id]);
      if (!rows[0]) throw new ApiError(msg`This override does not exist`);
      return null;
    },
  },
  withholding: {
    method: "GET",
    input: roomWithholdingQuery,
    // The form's note: whoever may list rooms may see what a room keeps from practice.
    rule: "exam/room/index",
    run: (ctx, input) => {
      const q = input as { id?: number; paper_id: number; end_time: number };
      return roomWithholding(ctx.tx, { id: q.id ?? null, paperId: q.paper_id, endTime: q.end_time });
    },
  },
};
