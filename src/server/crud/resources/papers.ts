import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { FastifyRequest } from "fastify";
import { decideBody, markBody, paperAdd, paperEdit, paperRowAdd, paperRowEdit, roomAdd, roomEdit, roomResultsQuery, type PaperRowAdd, type RoomAdd } from "../../../shared/admin/papers.ts";
import { ApiError } from "../../errors.ts";
import { decideLateAnswerIn } from "../../modules/exam/attempts/late.ts";
import { markAnswer } from "../../modules/exam/attempts/marks.ts";
import { snapshotsOf } from "../../modules/exam/attempts/snapshot.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";
import { assignmentHooks } from "./assignments.ts";
import { exportRoomResults, roomResults } from "./roomResults.ts";
import { regradeActions } from "./regrade.ts";

/**
 * Papers, their question rows, exam rooms, the marking queue and late answers (issue 14). What
 * these write is what the member side reads (modules/exam/attempts/papers.ts: a paper's rows in
 * `weigh desc, id` order; a draw row picks `count` enabled questions of its type and, when set, its
 * difficulty from its classify).
 */

const STATUS = ["enable", "disable"] as const;

/** A refusal shown beside one form field. */
function fieldError(req: FastifyRequest, field: string, message: MessageDescriptor): ApiError {
  return new ApiError(message, 0, { fields: { [field]: req.t(message) } });
}

/** Sum of a paper's rows (score x count), by paper id. */
async function rowTotals(ctx: CrudContext, paperIds: number[]): Promise<Map<number, number>> {
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
    id: { column: "t.id", type: "int" },
    title: { column: "t.title", type: "text" },
    total_score: { column: "t.total_score", type: "int" },
    pass_score: { column: "t.pass_score", type: "int" },
    duration: { column: "t.duration", type: "int" },
    shuffle_options: { column: "t.shuffle_options", type: "bool" },
    partial_credit: { column: "t.partial_credit", type: "bool" },
    status: { column: "t.status", type: "enum", values: STATUS },
    create_time: { column: "t.create_time", type: "time" },
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
    /** Each paper's rows total (score x count), beside the total it promises. */
    async listRows(ctx, rows) {
      const totals = await rowTotals(ctx, rows.map((r) => r.id as number));
      return rows.map((r) => ({ ...r, total_score: Number(r.total_score), pass_score: Number(r.pass_score), rows_total: totals.get(r.id as number) ?? 0 }));
    },
    /** The row with what its questions add up to (the edit form shows it against the total). */
    async editRow(ctx, row) {
      const rowsTotal = (await rowTotals(ctx, [row.id as number])).get(row.id as number) ?? 0;
      return { ...row, total_score: Number(row.total_score), pass_score: Number(row.pass_score), rows_total: rowsTotal };
    },
    async beforeDelete(ctx, rows) {
      const { rows: used } = await ctx.tx.query<{ n: number }>("select count(*)::int as n from exam_attempt where paper_id = any($1::int[])", [rows.map((r) => r.id)]);
      if (used[0]!.n > 0) throw new ApiError(msg`A paper that members have sat cannot be deleted; disable it instead`);
    },
  },
};

/** The enabled questions a draw row can pick (its classify, type and, unless null, difficulty): what drawPool (attempts/papers.ts) draws from. */
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
    id: { column: "t.id", type: "int" },
    paper_id: { column: "t.paper_id", type: "int" },
    paper_title: { column: "p.title", type: "text" },
    kind: { column: "t.kind", type: "enum", values: ["fixed", "draw"] },
    question_id: { column: "t.question_id", type: "int" },
    question_stem: { column: "q.stem", type: "text" },
    question_type_fixed: { column: "q.type", type: "text" },
    classify_id: { column: "t.classify_id", type: "int" },
    classify_title: { column: "c.title", type: "text" },
    question_type: { column: "t.question_type", type: "text" },
    difficulty: { column: "t.difficulty", type: "int" },
    count: { column: "t.count", type: "int" },
    score: { column: "t.score", type: "int" },
    weigh: { column: "t.weigh", type: "int" },
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
  editColumns: ["id", "paper_id", "kind", "question_id", "classify_id", "question_type", "difficulty", "count", "score", "weigh", "remark"],
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
        return { paper_id: row.paper_id, kind: "fixed", question_id: row.question_id, classify_id: null, question_type: null, difficulty: null, count: 1, score: row.score, weigh: row.weigh, remark: row.remark };
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
      return { paper_id: row.paper_id, kind: "draw", question_id: null, classify_id: row.classify_id, question_type: row.question_type, difficulty, count: row.count, score: row.score, weigh: row.weigh, remark: row.remark };
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
      const q = row.question_id ? (await ctx.tx.query<{ stem: string }>("select stem from exam_question where id = $1", [row.question_id])).rows[0] : undefined;
      const c = row.classify_id ? (await ctx.tx.query<{ title: string }>("select title from exam_classify where id = $1", [row.classify_id])).rows[0] : undefined;
      return { ...row, score: Number(row.score), question_stem: q?.stem ?? null, classify_title: c?.title ?? null };
    },
  },
};

export const roomResource: ResourceDef = {
  rule: "exam/room",
  title: msg`Exam rooms`,
  table: "exam_room",
  fields: {
    id: { column: "t.id", type: "int" },
    title: { column: "t.title", type: "text" },
    paper_id: { column: "t.paper_id", type: "int" },
    paper_title: { column: "p.title", type: "text" },
    start_time: { column: "t.start_time", type: "time" },
    end_time: { column: "t.end_time", type: "time" },
    duration: { column: "t.duration", type: "int" },
    attempts_allowed: { column: "t.attempts_allowed", type: "int" },
    pass_score: { column: "t.pass_score", type: "int" },
    user_group_id: { column: "t.user_group_id", type: "int" },
    group_name: { column: "g.name", type: "text" },
    review_policy: { column: "t.review_policy", type: "enum", values: ["submitted", "closed", "never"] },
    late_policy: { column: "t.late_policy", type: "enum", values: ["review", "refuse"] },
    face_rule_id: { column: "t.face_rule_id", type: "int" },
    face_rule_name: { column: "f.name", type: "text" },
    status: { column: "t.status", type: "enum", values: STATUS },
    company_id: { column: "t.company_id", type: "int" },
    company_name: { column: "co.name", type: "text" },
  },
  joins: [
    { table: "exam_paper", alias: "p", on: ["p.id", "t.paper_id"] },
    { table: "user_group", alias: "g", on: ["g.id", "t.user_group_id"] },
    { table: "company", alias: "co", on: ["co.id", "t.company_id"] },
    { table: "face_rule", alias: "f", on: ["f.id", "t.face_rule_id"] },
  ],
  quickSearch: ["id", "title", "paper_title"],
  selectFields: ["id", "title"],
  editColumns: ["id", "paper_id", "title", "start_time", "end_time", "duration", "attempts_allowed", "pass_score", "user_group_id", "review_policy", "late_policy", "face_rule_id", "status", "company_id"],
  add: roomAdd,
  edit: roomEdit,
  del: true,
  company: { column: "t.company_id", fill: "company_id" },
  hooks: assignmentHooks("room", {
    /** The paper and group must exist; a room members have sat keeps its paper (their attempts were drawn from it). */
    async beforeWrite(ctx, body, existing) {
      const { id: _id, company_ids: _c, duty_ids: _d, classroom_ids: _r, ...room } = body as RoomAdd & { id?: number };
      const paper = (await ctx.tx.query<{ total_score: string }>("select total_score from exam_paper where id = $1", [room.paper_id])).rows[0];
      if (!paper) throw fieldError(ctx.req, "paper_id", msg`This paper does not exist`);
      // Members are graded out of the paper's total: its rows must give exactly that many points.
      const total = Number(paper.total_score);
      const rowsTotal = (await rowTotals(ctx, [room.paper_id])).get(room.paper_id) ?? 0;
      if (Math.round(rowsTotal * 100) !== Math.round(total * 100)) {
        throw fieldError(ctx.req, "paper_id", msg`This paper's questions add up to ${rowsTotal} points, not its total of ${total}: correct the paper before a room uses it`);
      }
      if (Math.round(room.pass_score * 100) > Math.round(total * 100)) {
        throw fieldError(ctx.req, "pass_score", msg`The pass score cannot be above the paper's total of ${total} points`);
      }
      if (room.user_group_id !== null && !(await ctx.tx.query("select id from user_group where id = $1", [room.user_group_id])).rows[0]) {
        throw fieldError(ctx.req, "user_group_id", msg`This member group does not exist`);
      }
      if (room.face_rule_id !== null && !(await ctx.tx.query("select id from face_rule where id = $1", [room.face_rule_id])).rows[0]) {
        throw fieldError(ctx.req, "face_rule_id", msg`This face rule does not exist`);
      }
      if (existing && Number(existing.paper_id) !== room.paper_id) {
        // The room row is locked (edit): a start waits for this, then sees the paper it keeps.
        const { rows } = await ctx.tx.query<{ n: number }>("select count(*)::int as n from exam_attempt where room_id = $1", [existing.id]);
        if (rows[0]!.n > 0) throw fieldError(ctx.req, "paper_id", msg`Members have already sat this room: its paper cannot change`);
      }
      return room;
    },
    async listRows(ctx, rows) {
      const ids = rows.map((r) => r.id as number);
      const counts = ids.length
        ? (await ctx.tx.query<{ room_id: number; n: number }>("select room_id, count(*)::int as n from exam_attempt where room_id = any($1::int[]) group by room_id", [ids])).rows
        : [];
      const byRoom = new Map(counts.map((c) => [c.room_id, c.n]));
      return rows.map((r) => ({ ...r, pass_score: Number(r.pass_score), attempts: byRoom.get(r.id as number) ?? 0 }));
    },
    async editRow(_ctx, row) {
      return { ...row, pass_score: Number(row.pass_score) };
    },
  }),
  actions: {
    results: { method: "GET", input: roomResultsQuery, run: (ctx, input) => roomResults(ctx.tx, (input as { id: number }).id) },
    export: {
      method: "GET",
      input: roomResultsQuery,
      run: async () => null,
      send: (ctx, input, reply) => exportRoomResults(ctx, (input as { id: number }).id, reply),
    },
    // Regrade: candidates, dry run, apply (regrade.ts).
    ...regradeActions,
  },
};

/** Answers waiting for a marker: short answers of closed attempts (`exam_mark`). */
export const markingResource: ResourceDef = {
  rule: "exam/marking",
  title: msg`Marking`,
  table: "exam_mark",
  fields: {
    id: { column: "t.id", type: "int" },
    attempt_id: { column: "t.attempt_id", type: "int" },
    question_id: { column: "t.question_id", type: "int" },
    status: { column: "t.status", type: "enum", values: ["pending", "marked"] },
    score: { column: "t.score", type: "int" },
    comment: { column: "t.comment", type: "text" },
    marked_at: { column: "t.marked_at", type: "bigint" },
    create_time: { column: "t.create_time", type: "time" },
    stem: { column: "q.stem", type: "text" },
    user_id: { column: "a.user_id", type: "int" },
    username: { column: "m.username", type: "text" },
    room_id: { column: "a.room_id", type: "int" },
    room_title: { column: "r.title", type: "text" },
  },
  joins: [
    { table: "exam_question", alias: "q", on: ["q.id", "t.question_id"] },
    { table: "exam_attempt", alias: "a", on: ["a.id", "t.attempt_id"] },
    { table: "member", alias: "m", on: ["m.id", "a.user_id"] },
    { table: "exam_room", alias: "r", on: ["r.id", "a.room_id"] },
  ],
  quickSearch: ["id", "username", "stem", "room_title", "comment"],
  defaultOrder: ["id", "asc"],
  editColumns: ["id", "attempt_id", "question_id", "status", "score", "comment", "marked_at", "create_time"],
  rules: { edit: "exam/marking/index" },
  company: { column: "m.company_id" },
  hooks: {
    /** Each row with the member's answer and the question's score in the paper (what the marker needs). */
    async listRows(ctx, rows) {
      return withAnswers(ctx, rows);
    },
    async editRow(ctx, row) {
      return (await withAnswers(ctx, [row]))[0]!;
    },
  },
  actions: {
    mark: {
      method: "POST",
      input: markBody,
      done: msg`Marked`,
      run: (ctx, input) => markAnswer(ctx.tx, input as { id: number; score: number; comment: string }, ctx.admin.id, ctx.req.t),
    },
  },
};

async function withAnswers(ctx: CrudContext, rows: Row[]): Promise<Row[]> {
  const attemptIds = [...new Set(rows.map((r) => r.attempt_id as number))];
  if (attemptIds.length === 0) return rows;
  const { rows: attempts } = await ctx.tx.query<{ id: number; answers: Record<string, unknown> }>("select id, answers from exam_attempt where id = any($1::int[])", [attemptIds]);
  const byId = new Map(attempts.map((a) => [a.id, a]));
  // The question as the attempt sat it and the points the paper gave it (snapshot.ts), whatever staff did since.
  const sat = await snapshotsOf(ctx.tx, attemptIds);
  return rows.map((r) => {
    const a = byId.get(r.attempt_id as number);
    const answer = a?.answers[String(r.question_id)];
    const q = sat.get(r.attempt_id as number)?.questions.find((x) => x.id === r.question_id);
    const key = q && !q.missing ? (q.answer as { reference?: unknown; keywords?: unknown } | null) : null;
    return {
      ...r,
      score: r.score === null ? null : Number(r.score),
      stem: q && !q.missing ? q.stem : "",
      answer: typeof answer === "string" ? answer : answer === undefined ? "" : JSON.stringify(answer),
      max_score: Number(q?.score ?? 0),
      // What the marker compares with: the short answer's reference and keywords.
      reference: String(key?.reference ?? ""),
      keywords: Array.isArray(key?.keywords) ? key.keywords.map(String) : [],
    };
  });
}

/** A late answer's question stem as its attempt sat it (snapshot.ts). */
async function satStem(ctx: CrudContext, attemptId: number, questionId: number): Promise<string> {
  const q = (await snapshotsOf(ctx.tx, [attemptId])).get(attemptId)?.questions.find((x) => x.id === questionId);
  return q && !q.missing ? q.stem : "";
}

/** Official answers that reached the server after the deadline (`exam_late_answer`): a marker accepts or rejects each. */
export const lateAnswerResource: ResourceDef = {
  rule: "exam/lateAnswer",
  title: msg`Late answers`,
  table: "exam_late_answer",
  fields: {
    id: { column: "t.id", type: "int" },
    attempt_id: { column: "t.attempt_id", type: "int" },
    question_id: { column: "t.question_id", type: "int" },
    status: { column: "t.status", type: "enum", values: ["pending", "accepted", "rejected"] },
    claimed_at: { column: "t.claimed_at", type: "bigint" },
    received_at: { column: "t.received_at", type: "bigint" },
    away_ms: { column: "t.away_ms", type: "bigint" },
    stem: { column: "q.stem", type: "text" },
    username: { column: "m.username", type: "text" },
    room_title: { column: "r.title", type: "text" },
  },
  joins: [
    { table: "exam_question", alias: "q", on: ["q.id", "t.question_id"] },
    { table: "exam_attempt", alias: "a", on: ["a.id", "t.attempt_id"] },
    { table: "member", alias: "m", on: ["m.id", "a.user_id"] },
    { table: "exam_room", alias: "r", on: ["r.id", "a.room_id"] },
  ],
  quickSearch: ["id", "username", "stem", "room_title"],
  defaultOrder: ["id", "asc"],
  editColumns: ["id", "attempt_id", "question_id", "answer", "status", "claimed_at", "received_at", "last_heard_at", "away_ms", "decided_at"],
  rules: { edit: "exam/lateAnswer/index" },
  company: { column: "m.company_id" },
  hooks: {
    /** Each row's stem as its attempt sat it (snapshot.ts). */
    async listRows(ctx, rows) {
      const sat = await snapshotsOf(ctx.tx, [...new Set(rows.map((r) => r.attempt_id as number))]);
      return rows.map((r) => {
        const q = sat.get(r.attempt_id as number)?.questions.find((x) => x.id === r.question_id);
        return { ...r, stem: q && !q.missing ? q.stem : "" };
      });
    },
    async editRow(ctx, row) {
      const extra = (await ctx.tx.query<{ username: string }>("select m.username from exam_attempt a join member m on m.id = a.user_id where a.id = $1", [row.attempt_id])).rows[0];
      return { ...row, username: extra?.username ?? "", stem: await satStem(ctx, row.attempt_id as number, row.question_id as number) };
    },
  },
  actions: {
    decide: {
      method: "POST",
      input: decideBody,
      done: msg`Decided`,
      async run(ctx, input) {
        const { id, decision } = input as { id: number; decision: "accepted" | "rejected" };
        const outcome = await decideLateAnswerIn(ctx.tx, id, decision, ctx.admin.id);
        if (outcome.outcome === "unknown") throw new ApiError(msg`This late answer does not exist`);
        if (outcome.outcome === "already-decided") throw new ApiError(msg`This late answer has already been decided`);
        return outcome;
      },
    },
  },
};
