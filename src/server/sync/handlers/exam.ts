import { msg } from "@lingui/core/macro";
import { gradeAnswer } from "../../../shared/exam/grading.ts";
import type { ExamState } from "../../../shared/sync/exam.ts";
import type { Op, OpOf } from "../../../shared/sync/ops.ts";
import type { Queryable } from "../../db/index.ts";
import { applyMockSubmit } from "../../modules/exam/attempts/index.ts";
import { RejectOp, type BatchReads, type BulkOpHandler, type OpContext, type OpHandlerMap } from "../registry.ts";
import {
  bankExists,
  examStateRows,
  practiceQuestion,
  practiceQuestionsOf,
  practiceVersion,
  questionExists,
  removeFromWrongBook,
  setFavourite,
  setProgress,
  writePracticeAnswers,
  type PracticeQuestion,
  type PracticeRow,
} from "./repository.ts";

/**
 * The exam ops, and the exam state they make (`GET /api/exam/state`). The state rules are
 * src/shared/exam/state.ts (the device applies them in TypeScript); here they are SQL upserts,
 * each one atomic under concurrent syncs of one member, and tests/server/sync-rules.test.ts runs
 * both on the same random op sequences (reordered, duplicated, batched) and expects one state:
 * - favourites and progress: last writer wins by (op time, op id);
 * - the wrong book counts every wrong answer; a question is out of it while its latest removal is
 *   not older than its latest wrong answer.
 */

/** Loads the questions of a batch's practice answers in one round trip (see OpContext.batch). */
export async function loadBatchReads(tx: Queryable, userId: number, ops: readonly Op[]): Promise<BatchReads> {
  const ids = [...new Set(ops.flatMap((op) => (op.type === "practice.answer" ? [op.payload.questionId] : [])))];
  const practiceQuestions = new Map<number, unknown>();
  if (ids.length > 1) {
    const rows = await practiceQuestionsOf(tx, ids, userId);
    for (const id of ids) practiceQuestions.set(id, undefined);
    for (const row of rows) practiceQuestions.set(row.id, row);
  }
  return { practiceQuestions };
}

/** Checks a practice answer (its question open to the member, not withheld) and grades it. */
async function judgePracticeAnswer({ tx, userId, batch }: OpContext, op: OpOf<"practice.answer">): Promise<PracticeRow> {
  const { questionId, bankId, answer } = op.payload;
  // One round trip for the question (or none: the batch loaded it), whether a bank open to the
  // member holds it (modules/org/visibility.ts; unknown to them otherwise) and whether an exam
  // withholds it (modules/exam/withheld.ts: grading it would tell, through the wrong book and
  // practice figures, an exam-only answer).
  const question = batch?.practiceQuestions.has(questionId)
    ? (batch.practiceQuestions.get(questionId) as PracticeQuestion | undefined)
    : await practiceQuestion(tx, questionId, userId);
  if (!question || question.classify_id !== bankId) throw new RejectOp(msg`Unknown question`);
  if (question.withheld) throw new RejectOp(msg`This question is kept for an exam and cannot be practised now`);
  // The version the device showed, when it names an earlier one the question had (a device offline during an edit).
  const shown =
    op.payload.version !== undefined && op.payload.version !== question.version
      ? ((await practiceVersion(tx, questionId, op.payload.version)) ?? question)
      : question;
  const graded = gradeAnswer({ type: shown.type, answer: shown.answer, score: Number(shown.score) }, answer);
  return { opId: op.id, questionId, bankId, answer: JSON.stringify(answer), correct: graded.correct, score: graded.score, at: op.at };
}

/** Practice answers commute with every other op: rows of their own, and wrong-book counts that add up. */
export const examBulkHandlers = {
  "practice.answer": {
    judge: judgePracticeAnswer,
    write: ({ tx, userId }, rows) => writePracticeAnswers(tx, userId, rows),
  } satisfies BulkOpHandler<"practice.answer", PracticeRow>,
};

export const examOpHandlers: OpHandlerMap<"practice.answer" | "favourite.set" | "wrong.remove" | "progress.set" | "attempt.submit"> = {
  async "practice.answer"(ctx, op) {
    await writePracticeAnswers(ctx.tx, ctx.userId, [await judgePracticeAnswer(ctx, op)]);
  },

  async "favourite.set"({ tx, userId }, op) {
    await mustExist(tx, op.payload.questionId);
    await setFavourite(tx, userId, op.payload.questionId, op.payload.on, op.at, op.id);
  },

  async "wrong.remove"({ tx, userId }, op) {
    await mustExist(tx, op.payload.questionId);
    await removeFromWrongBook(tx, userId, op.payload.questionId, op.at);
  },

  async "progress.set"({ tx, userId }, op) {
    if (!(await bankExists(tx, op.payload.bankId))) throw new RejectOp(msg`Unknown bank`);
    await setProgress(tx, userId, op.payload.bankId, op.payload.position, op.at, op.id);
  },

  async "attempt.submit"({ tx, userId }, op) {
    const outcome = await applyMockSubmit(tx, userId, op.payload);
    if (outcome === "unknown-paper") throw new RejectOp(msg`Unknown paper`);
    if (outcome === "withheld-paper") throw new RejectOp(msg`This paper is kept for an official exam and cannot be taken as a mock exam`);
  },
};

async function mustExist(tx: Queryable, questionId: number): Promise<void> {
  if (!(await questionExists(tx, questionId))) throw new RejectOp(msg`Unknown question`);
}

/** The member's favourites, wrong book and practice progress (the wire shape of `GET /api/exam/state`). */
export async function examState(db: Queryable, userId: number): Promise<ExamState> {
  const { favourites, wrong, progress } = await examStateRows(db, userId);
  return {
    favourites: favourites.map((r) => r.question_id),
    wrong: wrong.map((r) => ({ questionId: r.question_id, count: r.count, lastTime: Number(r.last_time) })),
    progress: progress.map((r) => ({ bankId: r.bank_id, position: r.position, updatedAt: Number(r.at) })),
  };
}
