import { msg } from "@lingui/core/macro";
import { gradeAnswer } from "../../../shared/exam/grading.ts";
import type { ExamState } from "../../../shared/sync/exam.ts";
import type { Op, OpOf } from "../../../shared/sync/ops.ts";
import { prepared, type Queryable } from "../../db/index.ts";
import { PRACTISED, type QuestionRow } from "../../modules/exam/questions.ts";
import { applyMockSubmit } from "../../modules/exam/attempts/index.ts";
import { visibleSql } from "../../modules/org/visibility.ts";
import { RejectOp, type BatchReads, type BulkOpHandler, type OpContext, type OpHandlerMap } from "../registry.ts";

/**
 * The exam ops, and the exam state they make (`GET /api/exam/state`). The state rules are
 * src/shared/exam/state.ts (the device applies them in TypeScript); here they are SQL upserts,
 * each one atomic under concurrent syncs of one member, and tests/server/sync-rules.test.ts runs
 * both on the same random op sequences (reordered, duplicated, batched) and expects one state:
 * - favourites and progress: last writer wins by (op time, op id);
 * - the wrong book counts every wrong answer; a question is out of it while its latest removal is
 *   not older than its latest wrong answer.
 */
/**
 * The question of a practice answer, with what grading it needs and no more (not its stem,
 * options or analysis). A prepared statement: its visibility check costs more to plan than to run.
 */
const PRACTICE_QUESTION = prepared(
  "sync.practice.question",
  `select id, classify_id, type, answer, score, version,
          exists (select 1 from exam_withheld_question w where w.question_id = q.id) as withheld
   from exam_question q
   where q.id = $1 and ${PRACTISED} and ${visibleSql("bank", "q.classify_id", "$2")}`,
);
/** The same, for every practice answer of a batch at once. */
const PRACTICE_QUESTIONS = prepared(
  "sync.practice.questions",
  `select id, classify_id, type, answer, score, version,
          exists (select 1 from exam_withheld_question w where w.question_id = q.id) as withheld
   from exam_question q
   where q.id = any($1::int[]) and ${PRACTISED} and ${visibleSql("bank", "q.classify_id", "$2")}`,
);
/** An earlier version of a question, as grading reads it (migration 0042). */
const PRACTICE_VERSION = prepared("sync.practice.version", "select type, answer, score from exam_question_version where question_id = $1 and version = $2");
type PracticeQuestion = Pick<QuestionRow, "id" | "classify_id" | "type" | "answer" | "score" | "version"> & { withheld: boolean };

/** Loads the questions of a batch's practice answers in one round trip (see OpContext.batch). */
export async function loadBatchReads(tx: Queryable, userId: number, ops: readonly Op[]): Promise<BatchReads> {
  const ids = [...new Set(ops.flatMap((op) => (op.type === "practice.answer" ? [op.payload.questionId] : [])))];
  const practiceQuestions = new Map<number, unknown>();
  if (ids.length > 1) {
    const { rows } = await tx.query<PracticeQuestion>(PRACTICE_QUESTIONS, [ids, userId]);
    for (const id of ids) practiceQuestions.set(id, undefined);
    for (const row of rows) practiceQuestions.set(row.id, row);
  }
  return { practiceQuestions };
}

/** A practice answer, judged: what its op writes. */
interface PracticeRow {
  opId: string;
  questionId: number;
  bankId: number;
  answer: string;
  correct: boolean | null;
  score: number;
  at: number;
}

/**
 * Practice answers and, for the wrong ones, the wrong book's counts, in one statement for any
 * number of answers: the answers in op order (their serial ids keep that order), the wrong book
 * counted per question (each wrong answer counts one, the latest wrong one is its time), its rows
 * upserted in question order so that two batches of one member lock them in the same order.
 */
const WRITE_PRACTICE = prepared(
  "sync.practice.write",
  `with a as (
     select * from unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::boolean[], $7::numeric[], $8::bigint[])
       with ordinality as a (op_id, question_id, bank_id, answer, correct, score, at, n)
   ), answered as (
     insert into exam_practice_answer (user_id, op_id, question_id, bank_id, answer, correct, score, at)
     select $1, op_id, question_id, bank_id, answer::jsonb, correct, score, at from a order by n
   )
   insert into exam_wrong (user_id, question_id, count, last_time)
   select $1, question_id, count(*), max(at) from a where correct is false group by question_id order by question_id
   on conflict (user_id, question_id) do update set count = exam_wrong.count + excluded.count, last_time = greatest(exam_wrong.last_time, excluded.last_time)`,
);

async function writePracticeAnswers(tx: Queryable, userId: number, rows: readonly PracticeRow[]): Promise<void> {
  await tx.query(WRITE_PRACTICE, [
    userId,
    rows.map((r) => r.opId),
    rows.map((r) => r.questionId),
    rows.map((r) => r.bankId),
    rows.map((r) => r.answer),
    rows.map((r) => r.correct),
    rows.map((r) => r.score),
    rows.map((r) => r.at),
  ]);
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
    : (await tx.query<PracticeQuestion>(PRACTICE_QUESTION, [questionId, userId])).rows[0];
  if (!question || question.classify_id !== bankId) throw new RejectOp(msg`Unknown question`);
  if (question.withheld) throw new RejectOp(msg`This question is kept for an exam and cannot be practised now`);
  // The version the device showed, when it names an earlier one the question had (a device offline during an edit).
  const shown =
    op.payload.version !== undefined && op.payload.version !== question.version
      ? ((await tx.query<Pick<QuestionRow, "type" | "answer" | "score">>(PRACTICE_VERSION, [questionId, op.payload.version])).rows[0] ?? question)
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
    await tx.query(
      `insert into exam_favourite (user_id, question_id, on_, at, op_id) values ($1, $2, $3, $4, $5)
       on conflict (user_id, question_id) do update set on_ = excluded.on_, at = excluded.at, op_id = excluded.op_id
       where (excluded.at, excluded.op_id collate "C") > (exam_favourite.at, exam_favourite.op_id collate "C")`,
      [userId, op.payload.questionId, op.payload.on, op.at, op.id],
    );
  },

  async "wrong.remove"({ tx, userId }, op) {
    await mustExist(tx, op.payload.questionId);
    await tx.query(
      `insert into exam_wrong (user_id, question_id, count, last_time, removed_at) values ($1, $2, 0, 0, $3)
       on conflict (user_id, question_id) do update set removed_at = greatest(exam_wrong.removed_at, excluded.removed_at)`,
      [userId, op.payload.questionId, op.at],
    );
  },

  async "progress.set"({ tx, userId }, op) {
    const bank = await tx.query("select 1 from exam_classify where id = $1", [op.payload.bankId]);
    if (bank.rows.length === 0) throw new RejectOp(msg`Unknown bank`);
    await tx.query(
      `insert into exam_progress (user_id, bank_id, position, at, op_id) values ($1, $2, $3, $4, $5)
       on conflict (user_id, bank_id) do update set position = excluded.position, at = excluded.at, op_id = excluded.op_id
       where (excluded.at, excluded.op_id collate "C") > (exam_progress.at, exam_progress.op_id collate "C")`,
      [userId, op.payload.bankId, op.payload.position, op.at, op.id],
    );
  },

  async "attempt.submit"({ tx, userId }, op) {
    const outcome = await applyMockSubmit(tx, userId, op.payload);
    if (outcome === "unknown-paper") throw new RejectOp(msg`Unknown paper`);
    if (outcome === "withheld-paper") throw new RejectOp(msg`This paper is kept for an official exam and cannot be taken as a mock exam`);
  },
};

async function mustExist(tx: Queryable, questionId: number): Promise<void> {
  const { rows } = await tx.query("select 1 from exam_question where id = $1", [questionId]);
  if (rows.length === 0) throw new RejectOp(msg`Unknown question`);
}

/** The member's favourites, wrong book and practice progress (the wire shape of `GET /api/exam/state`). */
export async function examState(db: Queryable, userId: number): Promise<ExamState> {
  const favourites = await db.query<{ question_id: number }>("select question_id from exam_favourite where user_id = $1 and on_ order by question_id", [userId]);
  const wrong = await db.query<{ question_id: number; count: number; last_time: number }>(
    `select question_id, count, last_time from exam_wrong
     where user_id = $1 and count > 0 and not (removed_at >= last_time) order by question_id`,
    [userId],
  );
  const progress = await db.query<{ bank_id: number; position: number; at: number }>(
    "select bank_id, position, at from exam_progress where user_id = $1 order by bank_id",
    [userId],
  );
  return {
    favourites: favourites.rows.map((r) => r.question_id),
    wrong: wrong.rows.map((r) => ({ questionId: r.question_id, count: r.count, lastTime: Number(r.last_time) })),
    progress: progress.rows.map((r) => ({ bankId: r.bank_id, position: r.position, updatedAt: Number(r.at) })),
  };
}
