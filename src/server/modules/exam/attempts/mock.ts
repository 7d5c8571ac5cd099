import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { dbIdParam } from "../../../../shared/schema.ts";
import type { Queryable } from "../../../db/index.ts";
import { ApiError } from "../../../errors.ts";
import { isPaperWithheld } from "../withheld.ts";
import { gradeAttempt } from "./grading.ts";
import { queueMarks } from "./marks.ts";
import { presentQuestion } from "../questions.ts";
import { loadPaper, paperQuestions, type PaperQuestion } from "./papers.ts";
import { saveSnapshot } from "./snapshot.ts";
import { fixedQuestionBanks, insertMockAttempt, paperOpenTo, questionVersions } from "./repository.ts";

/**
 * Mock exams: the device draws and grades them itself from a paper's description
 * (`GET /api/exam/paper`) and the banks it has saved, and sends the finished attempt through the
 * sync queue (`attempt.submit`), which the server grades again. A paper kept for an official
 * exam is never a mock paper (withheld.ts).
 */

/**
 * The paper's questions with each one the device names a version of (`versions`: question id ->
 * version) replaced by that version, when the question has it: what the member read and answered.
 * A version the question never had is ignored (the question as the paper gives it now counts).
 */
export async function asAnswered(db: Queryable, questions: Map<number, PaperQuestion>, versions: Record<string, number>): Promise<Map<number, PaperQuestion>> {
  const wanted = Object.entries(versions)
    .map(([id, version]) => ({ id: Number(id), version }))
    .filter(({ id, version }) => questions.has(id) && questions.get(id)!.row.version !== version);
  if (wanted.length === 0) return questions;
  const out = new Map(questions);
  for (const v of await questionVersions(db, wanted)) {
    const given = out.get(v.id)!;
    out.set(v.id, { ...given, row: { ...given.row, ...v } });
  }
  return out;
}

/** Applies an `attempt.submit` op (a mock attempt taken on the device): the server grades again. */
export async function applyMockSubmit(
  tx: Queryable,
  userId: number,
  payload: { attemptId: string; paperId: number; startedAt: number; submittedAt: number; answers: Record<string, unknown>; versions?: Record<string, number> },
): Promise<"applied" | "unknown-paper" | "withheld-paper"> {
  const loaded = await loadPaper(tx, payload.paperId);
  if (!loaded || !(await paperOpenTo(tx, payload.paperId, userId))) return "unknown-paper";
  // A mock attempt would reveal (in its record) what an official exam must keep to itself.
  if (await isPaperWithheld(tx, payload.paperId)) return "withheld-paper";
  // Each question as the device gave it: the version it names (a device offline during an edit sat the one it had).
  const paperHolds = await asAnswered(tx, await paperQuestions(tx, loaded.rows), payload.versions ?? {});
  const graded = gradeAttempt(paperHolds, payload.answers, { partialCredit: loaded.paper.partial_credit, passScore: Number(loaded.paper.pass_score) });
  const sat = Object.keys(graded.results).map((id) => paperHolds.get(Number(id))!);
  const questions = sat.map((q) => ({ id: q.row.id, score: q.score }));
  const insertedId = await insertMockAttempt(tx, {
    uuid: payload.attemptId,
    userId,
    paperId: payload.paperId,
    questions: JSON.stringify(questions),
    answers: JSON.stringify(payload.answers),
    grade: graded,
    startedAt: Math.floor(payload.startedAt / 1000),
    submittedAt: Math.floor(payload.submittedAt / 1000),
  });
  if (insertedId !== undefined) {
    // What this attempt sat, kept as graded now (snapshot.ts): later edits never reach it.
    await saveSnapshot(tx, insertedId, { totalScore: loaded.paper.total_score, passScore: loaded.paper.pass_score, partialCredit: loaded.paper.partial_credit }, sat);
    await queueMarks(tx, insertedId, graded.results);
  }
  return "applied";
}

/** `GET /api/exam/paper?id=`: a mock paper's rows and the banks they use (a member's own: auth declared by the module). */
export async function mockRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/exam/paper", { schema: { querystring: z.object({ id: dbIdParam }) } }, async (req, reply) => {
    const loaded = await loadPaper(db, req.query.id);
    if (!loaded || !(await paperOpenTo(db, req.query.id, req.member!.id))) throw new ApiError(msg`This paper does not exist`);
    if (await isPaperWithheld(db, req.query.id)) throw new ApiError(msg`This paper is kept for an official exam and cannot be taken as a mock exam`);
    const { paper, rows } = loaded;
    const banks = [...new Set([...(await fixedQuestionBanks(db, paper.id)), ...rows.flatMap((r) => (r.kind === "draw" ? [r.classifyId] : []))])];
    // A fixed row pinning a version travels with that version (the device's banks hold the latest).
    const pinned = await paperQuestions(db, rows.filter((r) => r.kind === "fixed" && r.version !== null));
    return reply.success({
      paper: {
        id: paper.id,
        title: paper.title,
        totalScore: Number(paper.total_score),
        passScore: Number(paper.pass_score),
        duration: paper.duration,
        partialCredit: paper.partial_credit,
        shuffleOptions: paper.shuffle_options,
      },
      rows: rows.map((r) => {
        const q = r.kind === "fixed" && r.version !== null ? pinned.get(r.questionId) : undefined;
        return q ? { ...r, question: presentQuestion(q.row, true) } : r;
      }),
      banks,
    });
  });
}
