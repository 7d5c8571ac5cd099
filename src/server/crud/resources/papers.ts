import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { FastifyRequest } from "fastify";
import { paperAdd, paperEdit, paperRowAdd, paperRowEdit, type PaperRowAdd } from "../../../shared/admin/papers.ts";
import { ApiError } from "../../errors.ts";
import { papersWithholding } from "../../modules/exam/withheld.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";
import { standardFields } from "./fields.ts";

/**
 * Papers and their question rows (rooms: rooms.ts, marking: marking.ts). What
 * these write is what the member side reads (modules/exam/attempts/papers.ts: a paper's rows in
 * `weigh desc, id` order; a draw row picks `count` enabled questions of its type and, when set, its
 * difficulty from its classify).
 */

export const STATUS = ["enable", "disable"] as const;

/** A refusal shown beside one form field. */
export function fieldError(req: FastifyRequest, field: string, message: MessageDescriptor): ApiError {
  return new ApiError(message, 0, { fields: { [field]: req.t(message) } });
}

/** Sum of a paper's rows (score x count), by paper id. */
export async function rowTotals(ctx: CrudContext, paperIds: number[]): Promise<Map<number, number>> {
  if (paperIds.length === 0) return new Map();
  const { rows } = await ctx.tx.query<{ paper_id: number; total: string; n: number }>(
    "select paper_id, coalesce(sum(score * count), 0) as total from exam_paper_row where paper_id = any($1::int[]) group by paper_id",
    [paperIds],
  );
  return new Map(rows.map((r) => [r.paper_id, Number(r.total)]));
}

export const paperResource: ResourceDef = {
  rule: "exam/paper",
  title: msg`Papers`,
  table: "exam_paper",
  fields: {
    ...standardFields("id"),
    title: { column: "t.title", type: "text" },
    total_score: { column: "t.total_score", type: "int" },
    pass_score: { column: "t.pass_score", type: "int" },
    duration: { column: "t.duration", type: "int" },
    shuffle_options: { column: "t.shuffle_options", type: "bool" },
    partial_credit: { column: "t.partial_credit", type: "bool" },
    status: { column: "t.status", type: "enum", values: STATUS },
    ...standardFields("create_time"),
  },
  quickSearch: ["id", "title"],
  // The room form prefills its time and pass score from the paper it picks and shows whether its rows add up.
  selectFields: ["id", "title", "total_score", "pass_score", "duration"],
  editColumns: ["id", "title", "total_score", "pass_score", "duration", "shuffle_options", "partial_credit", "status", "create_time"],
  add: paperAdd,
  edit: paperEdit,
  del: true,
  company: "read",
  hooks: {
    async beforeWrite(ctx, body) {
      const { id: _id, ...fields } = body as Row;
      if (Number(fields.pass_score) > Number(fields.total_score)) throw fieldError(ctx.req, "pass_score", msg`The pass score cannot be above the total score`);
      return fields;
    },
    /** Each paper's rows total (score x count), beside the total it promises, and whether it is a mock paper now. */
    async listRows(ctx, rows) {
      const ids = rows.map((r) => r.id as number);
      const totals = await rowTotals(ctx, ids);
      // Whether members may take it as a mock paper now, and if not why (withheld.ts).
      const kept = await papersWithholding(ctx.tx, ids);
      return rows.map((r) => ({
        ...r,
        total_score: Number(r.total_score),
        pass_score: Number(r.pass_score),
        rows_total: totals.get(r.id as number) ?? 0,
        withholding: kept.get(r.id as number) ?? null,
      }));
    },
    /** The row with what its questions add up to (the edit form shows it against the total). */
    async editRow(ctx, row) {
      const rowsTotal = (await rowTotals(ctx, [row.id as number])).get(row.id as number) ?? 0;
      return { ...row, total_score: Number(row.total_score), pass_score: Number(row.pass_score), rows_total: rowsTotal };
    },
    async beforeDelete(ctx, rows) {
      const { rows: used } = await ctx.tx.query<{ n: number }>("select count(*)::int as n from exam_attempt where paper_id = any($1::int[])", [rows.map((r) => r.id)]);
      if (used[0]!.n > 0) throw new ApiError(msg`A paper that members have sat cannot be deleted; disable it instead`);
      // A room's paper goes with it (the rows cascade): the room would vanish with its schedule and assignments.
      const { rows: rooms } = await ctx.tx.query<{ title: string }>("select title from exam_room where paper_id = any($1::int[]) order by id limit 3", [rows.map((r) => r.id)]);
      if (rooms.length > 0) {
        const names = rooms.map((r) => `“${r.title}”`).join(", ");
        throw new ApiError(msg`Exam rooms use this paper (${names}): give them another paper or delete them first`);
      }
    },
  },
};

/** The enabled questions a draw row can pick (its classify, type and, unless null, difficulty): what drawPool (exam/attempts/papers.ts) draws from. */
async function bankSize(ctx: CrudContext, classifyId: number, type: string, difficulty: number | null): Promise<number> {
  const { rows } = await ctx.tx.query<{ n: number }>(
    "select count(*)::int as n from exam_question where classify_id = $1 and type = $2 and ($3::smallint is null or difficulty = $3::smallint) and status = 'enable'",
    [classifyId, type, difficulty],
  );
  return rows[0]!.n;
}

export const paperRowResource: ResourceDef = {
  rule: "exam/paperRow",
  title: msg`Question rows`,
  table: "exam_paper_row",
  fields: {
    ...standardFields("id"),
    paper_id: { column: "t.paper_id", type: "int" },
    paper_title: { column: "p.title", type: "text" },
    kind: { column: "t.kind", type: "enum", values: ["fixed", "draw"] },
    question_id: { column: "t.question_id", type: "int" },
    question_stem: { column: "q.stem", type: "text" },
    question_type_fixed: { column: "q.type", type: "text" },
    question_version: { column: "t.question_version", type: "int" },
    question_latest_version: { column: "q.version", type: "int" },
    classify_id: { column: "t.classify_id", type: "int" },
    classify_title: { column: "c.title", type: "text" },
    question_type: { column: "t.question_type", type: "text" },
    difficulty: { column: "t.difficulty", type: "int" },
    count: { column: "t.count", type: "int" },
    score: { column: "t.score", type: "int" },
    ...standardFields("weigh"),
    remark: { column: "t.remark", type: "text" },
  },
  joins: [
    { table: "exam_paper", alias: "p", on: ["p.id", "t.paper_id"] },
    { table: "exam_question", alias: "q", on: ["q.id", "t.question_id"] },
    { table: "exam_classify", alias: "c", on: ["c.id", "t.classify_id"] },
  ],
  quickSearch: ["id", "paper_title", "question_stem", "classify_title", "remark"],
  defaultOrder: ["weigh", "desc"],
  sortable: true,
  editColumns: ["id", "paper_id", "kind", "question_id", "question_version", "classify_id", "question_type", "difficulty", "count", "score", "weigh", "remark"],
  add: paperRowAdd,
  edit: paperRowEdit,
  del: true,
  company: "read",
  hooks: {
    /**
     * A fixed row names one question (its score from the body); a draw row a classify, a type and
     * optionally a difficulty the bank can fill: `count` may not exceed its enabled questions of
     * that type (and difficulty).
     */
    async beforeWrite(ctx, body, existing) {
      const row = body as PaperRowAdd;
      if (existing && Number(existing.paper_id) !== row.paper_id) throw fieldError(ctx.req, "paper_id", msg`A question row cannot move to another paper`);
      const paper = (await ctx.tx.query("select id from exam_paper where id = $1", [row.paper_id])).rows[0];
      if (!paper) throw fieldError(ctx.req, "paper_id", msg`This paper does not exist`);
      if (row.kind === "fixed") {
        const q = (await ctx.tx.query<{ status: string }>("select status from exam_question where id = $1", [row.question_id])).rows[0];
        if (!q) throw fieldError(ctx.req, "question_id", msg`This question does not exist`);
        // A question hidden because it was deleted while in use is kept for what it was used in, never put in a paper again.
        if (q.status === "hidden" && Number(existing?.question_id) !== row.question_id) throw fieldError(ctx.req, "question_id", msg`This question was deleted and is kept only for the papers and attempts that used it: restore it first`);
        // A pinned version must be one the question has had (the newest is its latest, pinned until it changes).
        if (row.question_version !== null) {
          const v = (await ctx.tx.query("select 1 from exam_question_version where question_id = $1 and version = $2", [row.question_id, row.question_version])).rows[0];
          if (!v) throw fieldError(ctx.req, "question_version", msg`This question has no version ${row.question_version}`);
        }
        return { paper_id: row.paper_id, kind: "fixed", question_id: row.question_id, question_version: row.question_version, classify_id: null, question_type: null, difficulty: null, count: 1, score: row.score, weigh: row.weigh, remark: row.remark };
      }
      const c = (await ctx.tx.query("select id from exam_classify where id = $1", [row.classify_id])).rows[0];
      if (!c) throw fieldError(ctx.req, "classify_id", msg`This classify does not exist`);
      const difficulty = row.difficulty;
      const available = await bankSize(ctx, row.classify_id!, row.question_type!, difficulty);
      if (row.count > available) {
        const message =
          difficulty === null
            ? msg`The bank has only ${available} enabled questions of this type: the draw rule cannot take ${row.count}`
            : msg`The bank has only ${available} enabled questions of this type with difficulty ${difficulty}: the draw rule cannot take ${row.count}`;
        throw fieldError(ctx.req, "count", message);
      }
      return { paper_id: row.paper_id, kind: "draw", question_id: null, question_version: null, classify_id: row.classify_id, question_type: row.question_type, difficulty, count: row.count, score: row.score, weigh: row.weigh, remark: row.remark };
    },
    /** Rows with the running total of their paper (in paper order) and the paper's promised total. */
    async listRows(ctx, rows) {
      const paperIds = [...new Set(rows.map((r) => r.paper_id as number))];
      const totals = await rowTotals(ctx, paperIds);
      const papers = paperIds.length
        ? (await ctx.tx.query<{ id: number; total_score: string }>("select id, total_score from exam_paper where id = any($1::int[])", [paperIds])).rows
        : [];
      const promised = new Map(papers.map((p) => [p.id, Number(p.total_score)]));
      return rows.map((r) => ({
        ...r,
        score: Number(r.score),
        subtotal: Math.round(Number(r.score) * Number(r.count) * 100) / 100,
        paper_rows_total: totals.get(r.paper_id as number) ?? 0,
        paper_total_score: promised.get(r.paper_id as number) ?? 0,
      }));
    },
    async editRow(ctx, row) {
      const q = row.question_id ? (await ctx.tx.query<{ stem: string; version: number }>("select stem, version from exam_question where id = $1", [row.question_id])).rows[0] : undefined;
      const c = row.classify_id ? (await ctx.tx.query<{ title: string }>("select title from exam_classify where id = $1", [row.classify_id])).rows[0] : undefined;
      return { ...row, score: Number(row.score), question_stem: q?.stem ?? null, question_latest_version: q?.version ?? null, classify_title: c?.title ?? null };
    },
  },
};
