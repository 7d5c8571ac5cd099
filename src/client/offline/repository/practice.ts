import type { GradeResult } from "../../../shared/exam/grading.ts";
import { applyOp, emptyState, isPracticeOp, type ExamStateModel, type GradedOutcome } from "../../../shared/exam/state.ts";
import type { ExamState } from "../../../shared/sync/exam.ts";
import type { Op, OpOf } from "../../../shared/sync/ops.ts";
import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import { inWrongBook, type FavouriteRow, type MemberDb, type ProgressRow, type WrongRow } from "../db.ts";
import { clockOf, enqueue, gradeLocally, idOf, inSlices, storable, type RepoOptions } from "./shared.ts";

/**
 * The member's practice state: answers, favourites, the wrong-question book and each bank's
 * progress. Local rows follow the same state machine as the server (`applyOp` of
 * src/shared/exam/state.ts), so the pulled state merges back cleanly (sync.ts `mergeIntoDb`).
 */

type ModelRows = { favourites: FavouriteRow[]; wrong: WrongRow[]; progress: ProgressRow[] };

/** The rows of the favourites, wrong and progress tables that hold `model`. */
function rowsOf(model: ExamStateModel): ModelRows {
  return {
    favourites: [...model.favourites].map(([questionId, e]) => ({ questionId, on: e.on, at: e.at, opId: e.opId })),
    wrong: [...model.wrong].map(([questionId, e]) => ({
      questionId,
      count: e.count,
      lastTime: e.lastTime,
      removed: e.removed,
      removedAt: e.removedAt,
      // Indexed only while in the book (db.ts `WrongRow.book`).
      ...(inWrongBook(e) ? { book: -e.lastTime } : {}),
    })),
    progress: [...model.progress].map(([bankId, e]) => ({ bankId, position: e.position, updatedAt: e.at, opId: e.opId })),
  };
}

/**
 * Writes every entry of `model` into the favourites, wrong and progress tables (upsert). Only the
 * tables with entries are touched, so a transaction needs only those.
 */
export async function writeModel(db: MemberDb, model: ExamStateModel): Promise<void> {
  const rows = rowsOf(model);
  if (rows.favourites.length > 0) await db.favourites.bulkPut(rows.favourites);
  if (rows.wrong.length > 0) await db.wrong.bulkPut(rows.wrong);
  if (rows.progress.length > 0) await db.progress.bulkPut(rows.progress);
}

/** Two flat rows with the same fields and values. */
function sameRow(a: object, b: object): boolean {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.is(left[key], right[key]));
}

/**
 * Makes `table` hold exactly `next`, writing only what differs: rows that are new or changed are
 * put, rows not in `next` deleted. Nothing written when nothing changed, so live queries on the
 * table do not wake. Returns how many rows were written or deleted.
 */
async function replaceRows<T extends object, K extends number>(
  table: { toArray(): Promise<T[]>; bulkPut(rows: T[]): Promise<unknown>; bulkDelete(keys: K[]): Promise<unknown> },
  next: T[],
  keyOf: (row: T) => K,
): Promise<number> {
  const before = new Map((await table.toArray()).map((row) => [keyOf(row), row]));
  const changed = next.filter((row) => {
    const old = before.get(keyOf(row));
    return old === undefined || !sameRow(old, row);
  });
  const kept = new Set(next.map(keyOf));
  const gone = [...before.keys()].filter((key) => !kept.has(key));
  await inSlices(gone, (keys) => table.bulkDelete(keys));
  await inSlices(changed, (rows) => table.bulkPut(rows));
  return gone.length + changed.length;
}

/**
 * Makes the favourites, wrong and progress tables hold exactly `model` (inside the caller's
 * transaction over the three tables), touching only the rows that differ. Returns how many rows
 * were written or deleted.
 */
export async function replaceModel(db: MemberDb, model: ExamStateModel): Promise<number> {
  const rows = rowsOf(model);
  return (
    (await replaceRows<FavouriteRow, number>(db.favourites, rows.favourites, (row) => row.questionId)) +
    (await replaceRows<WrongRow, number>(db.wrong, rows.wrong, (row) => row.questionId)) +
    (await replaceRows<ProgressRow, number>(db.progress, rows.progress, (row) => row.bankId))
  );
}

/**
 * Applies one op to the local tables with the shared state machine (inside the caller's
 * transaction, which must include the table the op touches).
 */
export async function applyLocally(db: MemberDb, op: Op, graded?: GradedOutcome): Promise<void> {
  if (!isPracticeOp(op)) return;
  const model = emptyState();
  switch (op.type) {
    case "favourite.set": {
      const row = await db.favourites.get(op.payload.questionId);
      if (row) model.favourites.set(row.questionId, { on: row.on, at: row.at, opId: row.opId });
      break;
    }
    case "practice.answer":
    case "wrong.remove": {
      const row = await db.wrong.get(op.payload.questionId);
      if (row) {
        model.wrong.set(row.questionId, {
          count: row.count,
          lastTime: row.lastTime,
          removed: row.removed,
          removedAt: row.removedAt,
        });
      }
      break;
    }
    case "progress.set": {
      const row = await db.progress.get(op.payload.bankId);
      if (row) model.progress.set(row.bankId, { position: row.position, at: row.updatedAt, opId: row.opId });
      break;
    }
  }
  const next = applyOp(model, op, graded);
  if (next !== model) await writeModel(db, next);
}

export interface PracticeAnswerInput {
  bankId: number;
  question: ExamQuestion;
  answer: GivenAnswer;
  /**
   * Practice of a set (the wrong-question book, the favourites) rather than the bank in order:
   * the bank's position stays where sequential practice left it, and in the wrong-question
   * book's set a right answer takes the question out of the book (`wrong.remove`).
   */
  set?: "wrong" | "favourites";
}

/**
 * Records a practice answer: grades it locally (immediate feedback; the server re-grades), stores
 * it, counts a wrong one in the wrong-question book, moves the bank's progress to the next
 * question and queues `practice.answer` (+ `progress.set`), all in one transaction.
 */
export async function answerPractice(db: MemberDb, input: PracticeAnswerInput, opts?: RepoOptions): Promise<GradeResult> {
  const { bankId, question } = input;
  const answer = storable(input.answer);
  const graded = gradeLocally(question, answer);
  const at = clockOf(opts)();
  const newId = idOf(opts);
  const answerOp: OpOf<"practice.answer"> = {
    id: newId(),
    type: "practice.answer",
    at,
    // The version shown: the server grades by it, even if staff changed the question since.
    payload: { questionId: question.id, answer, bankId, ...(question.version ? { version: question.version } : {}) },
  };
  await db.transaction("rw", [db.answers, db.wrong, db.progress, db.questions, db.banks, db.outbox], async () => {
    await db.answers.add({ opId: answerOp.id, questionId: question.id, bankId, answer, correct: graded.correct, score: graded.score, at });
    await applyLocally(db, answerOp, graded);
    let progressOp: OpOf<"progress.set"> | undefined;
    let removeOp: OpOf<"wrong.remove"> | undefined;
    if (input.set === "wrong" && graded.correct === true) {
      removeOp = { id: newId(), type: "wrong.remove", at, payload: { questionId: question.id } };
      await applyLocally(db, removeOp);
    }
    const row = input.set ? undefined : await db.questions.get([bankId, question.id]);
    if (row) {
      const bank = await db.banks.get(bankId);
      const position = Math.min(row.position + 1, bank?.questionCount ?? Number.POSITIVE_INFINITY);
      progressOp = { id: newId(), type: "progress.set", at, payload: { bankId, position } };
      await applyLocally(db, progressOp);
    }
    await enqueue(db, answerOp, { correct: graded.correct });
    if (progressOp) await enqueue(db, progressOp);
    if (removeOp) await enqueue(db, removeOp);
  });
  return graded;
}

async function recordOp(db: MemberDb, op: Op, table: MemberDb["favourites"] | MemberDb["wrong"] | MemberDb["progress"]): Promise<void> {
  await db.transaction("rw", [table, db.outbox], async () => {
    await applyLocally(db, op);
    await enqueue(db, op);
  });
}

/** Marks or unmarks a favourite question (`favourite.set`). */
export async function setFavourite(db: MemberDb, questionId: number, on: boolean, opts?: RepoOptions): Promise<void> {
  const op: Op = { id: idOf(opts)(), type: "favourite.set", at: clockOf(opts)(), payload: { questionId, on } };
  await recordOp(db, op, db.favourites);
}

/** Takes a question out of the wrong-question book (`wrong.remove`). */
export async function removeWrong(db: MemberDb, questionId: number, opts?: RepoOptions): Promise<void> {
  const op: Op = { id: idOf(opts)(), type: "wrong.remove", at: clockOf(opts)(), payload: { questionId } };
  await recordOp(db, op, db.wrong);
}

/** Sets a bank's practice position (`progress.set`). */
export async function setProgress(db: MemberDb, bankId: number, position: number, opts?: RepoOptions): Promise<void> {
  const op: Op = { id: idOf(opts)(), type: "progress.set", at: clockOf(opts)(), payload: { bankId, position } };
  await recordOp(db, op, db.progress);
}

/** The local favourites, wrong-question book and progress, in the wire shape of `GET /api/exam/state`. */
export async function localState(db: MemberDb): Promise<ExamState> {
  return db.transaction("r", [db.favourites, db.wrong, db.progress], async () => {
    const favourites = (await db.favourites.toArray()).filter((r) => r.on).map((r) => r.questionId);
    const wrong = (await db.wrong.toArray())
      .filter((r) => !r.removed && r.count > 0)
      .map((r) => ({ questionId: r.questionId, count: r.count, lastTime: r.lastTime }));
    const progress = (await db.progress.toArray()).map((r) => ({ bankId: r.bankId, position: r.position, updatedAt: r.updatedAt }));
    return {
      favourites: favourites.sort((a, b) => a - b),
      wrong: wrong.sort((a, b) => a.questionId - b.questionId),
      progress: progress.sort((a, b) => a.bankId - b.bankId),
    };
  });
}
