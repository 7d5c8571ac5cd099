import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { FastifyRequest } from "fastify";
import { paperAdd, paperEdit, paperRowAdd, paperRowEdit, type PaperRowAdd } from "../../../shared/admin/papers.ts";
import { paperDecl, paperRowDecl } from "../../../shared/admin/resources/exam.ts";
import { ApiError } from "../../errors.ts";
import { papersWithholding } from "../../modules/exam/withheld.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";
import {
  attemptsOnPapers,
  bankExists,
  bankTitle,
  enabledQuestionCount,
  paperExists,
  paperRowTotals,
  paperTotalScores,
  questionStatus,
  questionStemVersion,
  questionVersionExists,
  roomTitlesOfPapers,
} from "./papers.repository.ts";

/**
 * Papers and their question rows (rooms: rooms.ts, marking: marking.ts). What
 * these write is what the member side reads (modules/exam/attempts/papers.ts: a paper's rows in
 * `weigh desc, id` order; a draw row picks `count` enabled questions of its type and, when set, its
 * difficulty from its classify).
 */

/** A refusal shown beside one form field. */
export function fieldError(req: FastifyRequest, field: string, message: MessageDescriptor): ApiError {
  return new ApiError(message, 0, { fields: { [field]: req.t(message) } });
}

/** Sum of a paper's rows (score x count), by paper id. */
export async function rowTotals(ctx: CrudContext, paperIds: number[]): Promise<Map<number, number>> {
  if (paperIds.length === 0) return new Map();
  const rows = await paperRowTotals(ctx.tx, paperIds);
  return new Map(rows.map((r) => [r.paper_id, Number(r.total)]));
}

export const paperResource: ResourceDef = {
  ...declared(paperDecl),
  table: "exam_paper",
  // The room form prefills its time and pass score from the paper it picks and shows whether its rows add up.
  selectFields: ["id", "title", "total_score", "pass_score", "duration"],
  editColumns: ["id", "title", "total_score", "pass_score", "duration", "shuffle_options", "partial_credit", "status", "create_time"],
  ...addEditDelete(paperAdd, paperEdit),
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
      if ((await attemptsOnPapers(ctx.tx, rows.map((r) => r.id))) > 0) throw new ApiError(msg`A paper that members have sat cannot be deleted; disable it instead`);
      // A room's paper goes with it (the rows cascade): the room would vanish with its schedule and assignments.
      const rooms = await roomTitlesOfPapers(ctx.tx, rows.map((r) => r.id), 3);
      if (rooms.length > 0) {
        const names = rooms.map((title) => `“${title}”`).join(", ");
        throw new ApiError(msg`Exam rooms use this paper (${names}): give them another paper or delete them first`);
      }
    },
  },
};

/** The enabled questions a draw row can pick (its classify, type and, unless null, difficulty): what drawPool (exam/attempts/papers.ts) draws from. */
async function bankSize(ctx: CrudContext, classifyId: number, type: string, difficulty: number | null): Promise<number> {
  return enabledQuestionCount(ctx.tx, classifyId, type, difficulty);
}

export const paperRowResource: ResourceDef = {
  ...declared(paperRowDecl, { paper_title: "p.title", question_stem: "q.stem", question_type_fixed: "q.type", question_latest_version: "q.version", classify_title: "c.title" }),
  table: "exam_paper_row",
  joins: [joinById("exam_paper", "p", "t.paper_id"), joinById("exam_question", "q", "t.question_id"), joinById("exam_classify", "c", "t.classify_id")],
  defaultOrder: ["weigh", "desc"],
  editColumns: ["id", "paper_id", "kind", "question_id", "question_version", "classify_id", "question_type", "difficulty", "count", "score", "weigh", "remark"],
  ...addEditDelete(paperRowAdd, paperRowEdit),
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
      if (!(await paperExists(ctx.tx, row.paper_id))) throw fieldError(ctx.req, "paper_id", msg`This paper does not exist`);
      if (row.kind === "fixed") {
        const status = await questionStatus(ctx.tx, row.question_id!);
        if (status === undefined) throw fieldError(ctx.req, "question_id", msg`This question does not exist`);
        // A question hidden because it was deleted while in use is kept for what it was used in, never put in a paper again.
        if (status === "hidden" && Number(existing?.question_id) !== row.question_id) throw fieldError(ctx.req, "question_id", msg`This question was deleted and is kept only for the papers and attempts that used it: restore it first`);
        // A pinned version must be one the question has had (the newest is its latest, pinned until it changes).
        if (row.question_version !== null) {
          if (!(await questionVersionExists(ctx.tx, row.question_id!, row.question_version))) throw fieldError(ctx.req, "question_version", msg`This question has no version ${row.question_version}`);
        }
        return { paper_id: row.paper_id, kind: "fixed", question_id: row.question_id, question_version: row.question_version, classify_id: null, question_type: null, difficulty: null, count: 1, score: row.score, weigh: row.weigh, remark: row.remark };
      }
      if (!(await bankExists(ctx.tx, row.classify_id!))) throw fieldError(ctx.req, "classify_id", msg`This classify does not exist`);
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
        ? await paperTotalScores(ctx.tx, paperIds)
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
      const q = row.question_id ? await questionStemVersion(ctx.tx, row.question_id) : undefined;
      const title = row.classify_id ? await bankTitle(ctx.tx, row.classify_id) : undefined;
      return { ...row, score: Number(row.score), question_stem: q?.stem ?? null, question_latest_version: q?.version ?? null, classify_title: title ?? null };
    },
  },
};
