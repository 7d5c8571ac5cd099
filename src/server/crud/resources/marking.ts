import { msg } from "@lingui/core/macro";
import { decideBody, markBody } from "../../../shared/admin/papers.ts";
import { lateAnswerDecl, markingDecl } from "../../../shared/admin/resources/exam.ts";
import { ApiError } from "../../errors.ts";
import { decideLateAnswerIn } from "../../modules/exam/attempts/late.ts";
import { leavesOf, leaveSummaries } from "../../modules/exam/attempts/leaves.ts";
import { markAnswer } from "../../modules/exam/attempts/marks.ts";
import { snapshotsOf } from "../../modules/exam/attempts/snapshot.ts";
import type { CrudContext, Join, ResourceDef, Row } from "../resource.ts";
import { declared, joinById } from "./fields.ts";
import { answersOfAttempts, usernameOfAttempt } from "./marking.repository.ts";

/** A row of one question of one attempt: the question, the attempt, its member and its room (what both queues list and search). */
const ATTEMPT_JOINS = [
  joinById("exam_question", "q", "t.question_id"),
  joinById("exam_attempt", "a", "t.attempt_id"),
  joinById("member", "m", "a.user_id"),
  joinById("exam_room", "r", "a.room_id"),
] as const satisfies readonly Join[];

/** Answers waiting for a marker: short answers of closed attempts (`exam_mark`). */
export const markingResource: ResourceDef = {
  ...declared(markingDecl, { stem: "q.stem", user_id: "a.user_id", username: "m.username", room_id: "a.room_id", room_title: "r.title" }),
  table: "exam_mark",
  joins: ATTEMPT_JOINS,
  defaultOrder: ["id", "asc"],
  editColumns: ["id", "attempt_id", "question_id", "status", "score", "comment", "marked_at", "create_time"],
  rules: { edit: "exam/marking/index" },
  company: { column: "m.company_id" },
  hooks: {
    /**
     * Each row with the member's answer and the question's score in the paper (what the marker
     * needs), and how many times and how long the member left the exam page.
     */
    async listRows(ctx, rows) {
      return withAnswers(ctx, rows);
    },
    /** ...and, for the mark dialog, each time the member left the exam page (leaves.ts). */
    async editRow(ctx, row) {
      return { ...(await withAnswers(ctx, [row]))[0]!, page_leave_list: await leavesOf(ctx.tx, row.attempt_id as number) };
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
  const attempts = await answersOfAttempts(ctx.tx, attemptIds);
  const byId = new Map(attempts.map((a) => [a.id, a]));
  // The question as the attempt sat it and the points the paper gave it (snapshot.ts), whatever staff did since.
  const sat = await snapshotsOf(ctx.tx, attemptIds);
  // How many times and how long the member left the exam page during the attempt (leaves.ts).
  const leaves = await leaveSummaries(ctx.tx, attemptIds);
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
      page_leaves: leaves.get(r.attempt_id as number)?.count ?? 0,
      page_leave_ms: leaves.get(r.attempt_id as number)?.totalMs ?? 0,
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
  ...declared(lateAnswerDecl, { stem: "q.stem", username: "m.username", room_title: "r.title" }),
  table: "exam_late_answer",
  joins: ATTEMPT_JOINS,
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
      return { ...row, username: (await usernameOfAttempt(ctx.tx, row.attempt_id)) ?? "", stem: await satStem(ctx, row.attempt_id as number, row.question_id as number) };
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

