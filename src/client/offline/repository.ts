import { gradeAnswer, type GradeResult } from "../../shared/exam/grading.ts";
import { applyOp, emptyState, type ExamStateModel, type GradedOutcome } from "../../shared/exam/state.ts";
import type { ExamState } from "../../shared/sync/exam.ts";
import type { Op, OpOf } from "../../shared/sync/ops.ts";
import type { ExamQuestion, GivenAnswer } from "../../shared/exam/types.ts";
import { toSafeText } from "../../shared/schema.ts";
import { uuid } from "../../shared/uuid.ts";
import type {
  AttemptQuestionResult,
  AttemptRow,
  BankRow,
  FavouriteRow,
  LessonProgressRow,
  MemberDb,
  OutboxRow,
  ProgressRow,
  QuestionRow,
  WrongRow,
} from "./db.ts";

/**
 * The ONLY way screens change offline data (ARCHITECTURE.md "The offline loop"): every change
 * writes the local row AND its outbox op in one Dexie transaction, so either both exist or
 * neither. An op gets its 36-char id and its time `at` here, when the change is made, never when
 * it is sent; no token is ever stored in an op. Local rows follow the same state machine as the
 * server (`applyOp` of src/shared/exam/state.ts), so the pulled state merges back cleanly.
 */

export interface RepoOptions {
  /** Clock (ms since the epoch); Date.now by default. */
  now?: () => number;
  /** Op id factory; `uuid()` by default. */
  newId?: () => string;
}

function clockOf(opts?: RepoOptions): () => number {
  return opts?.now ?? Date.now;
}

function idOf(opts?: RepoOptions): () => string {
  return opts?.newId ?? uuid;
}

function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** The op as it goes on the wire (the outbox row without its local bookkeeping). */
export function toOp(row: OutboxRow): Op {
  return { id: row.id, type: row.type, at: row.at, payload: row.payload } as Op;
}

/** The local grading of a queued op, for re-applying it with `applyOp`. */
export function gradedOf(row: OutboxRow): GradedOutcome | undefined {
  return row.type === "practice.answer" && row.correct !== undefined ? { correct: row.correct } : undefined;
}

async function enqueue(db: MemberDb, op: Op, extra: Pick<OutboxRow, "correct"> = {}): Promise<void> {
  await db.outbox.add({ ...op, ...extra, status: "pending", tries: 0 });
}

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
  if (gone.length > 0) await table.bulkDelete(gone);
  if (changed.length > 0) await table.bulkPut(changed);
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
async function applyLocally(db: MemberDb, op: Op, graded?: GradedOutcome): Promise<void> {
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
    case "attempt.submit":
    case "lesson.progress":
      return;
  }
  const next = applyOp(model, op, graded);
  if (next !== model) await writeModel(db, next);
}

// ---------------------------------------------------------------- banks

export type BankInput = Pick<BankRow, "id" | "classifyId" | "title" | "version">;

/** Stores a downloaded bank and its questions in order, replacing an older copy (no op). */
export async function saveBank(
  db: MemberDb,
  bank: BankInput,
  questions: readonly ExamQuestion[],
  opts?: RepoOptions,
): Promise<BankRow> {
  const row: BankRow = {
    id: bank.id,
    classifyId: bank.classifyId,
    title: bank.title,
    version: bank.version,
    questionCount: questions.length,
    downloadedAt: clockOf(opts)(),
  };
  const rows: QuestionRow[] = questions.map((q, position) => ({ ...q, bankId: bank.id, position }));
  await db.transaction("rw", [db.banks, db.questions], async () => {
    await db.questions.where("bankId").equals(bank.id).delete();
    await db.questions.bulkAdd(rows);
    await db.banks.put(row);
  });
  return row;
}

// ---------------------------------------------------------------- practice

export interface PracticeAnswerInput {
  bankId: number;
  question: ExamQuestion;
  answer: GivenAnswer;
}

/**
 * An answer as the server can store it (no NUL, no unpaired surrogate: they can only come from a
 * paste, and the server would reject the whole op for them).
 */
function storable(answer: GivenAnswer): GivenAnswer {
  return typeof answer === "string" ? toSafeText(answer) : Array.isArray(answer) ? answer.map((part) => (typeof part === "string" ? toSafeText(part) : part)) : answer;
}

function gradeLocally(question: ExamQuestion, answer: GivenAnswer | undefined): GradeResult {
  if (question.answer === undefined) return { correct: null, score: 0 };
  return gradeAnswer({ type: question.type, answer: question.answer, score: question.score }, answer);
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
    payload: { questionId: question.id, answer, bankId },
  };
  await db.transaction("rw", [db.answers, db.wrong, db.progress, db.questions, db.banks, db.outbox], async () => {
    await db.answers.add({ opId: answerOp.id, questionId: question.id, bankId, answer, correct: graded.correct, score: graded.score, at });
    await applyLocally(db, answerOp, graded);
    let progressOp: OpOf<"progress.set"> | undefined;
    const row = await db.questions.get([bankId, question.id]);
    if (row) {
      const bank = await db.banks.get(bankId);
      const position = Math.min(row.position + 1, bank?.questionCount ?? Number.POSITIVE_INFINITY);
      progressOp = { id: newId(), type: "progress.set", at, payload: { bankId, position } };
      await applyLocally(db, progressOp);
    }
    await enqueue(db, answerOp, { correct: graded.correct });
    if (progressOp) await enqueue(db, progressOp);
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

// ---------------------------------------------------------------- mock attempts

export interface StartAttemptInput {
  paperId: number;
  questions: ExamQuestion[];
  /** Time limit in seconds; none when absent or 0. */
  durationSec?: number;
}

/** Starts a mock attempt on this device (local only until submitted). */
export async function startMockAttempt(db: MemberDb, input: StartAttemptInput, opts?: RepoOptions): Promise<AttemptRow> {
  const startedAt = clockOf(opts)();
  const row: AttemptRow = {
    attemptId: idOf(opts)(),
    paperId: input.paperId,
    questions: input.questions,
    answers: {},
    startedAt,
    deadline: input.durationSec ? startedAt + input.durationSec * 1000 : null,
    submittedAt: null,
    score: null,
    results: null,
    status: "in_progress",
  };
  await db.attempts.add(row);
  return row;
}

/** Autosaves one answer of an attempt in progress (local only; no op). */
export async function saveAttemptAnswer(db: MemberDb, attemptId: string, questionId: number, answer: GivenAnswer): Promise<void> {
  await db.transaction("rw", db.attempts, async () => {
    const row = await db.attempts.get(attemptId);
    if (!row || row.status !== "in_progress") return;
    await db.attempts.put({ ...row, answers: { ...row.answers, [String(questionId)]: answer } });
  });
}

export interface MockAttemptInput {
  /** Made by `startMockAttempt`; a new one when absent. */
  attemptId?: string;
  paperId: number;
  questions: ExamQuestion[];
  answers: Record<string, GivenAnswer>;
  startedAt: number;
  deadline?: number | null;
}

export interface MockAttemptResult {
  attemptId: string;
  score: number;
  results: Record<string, AttemptQuestionResult>;
}

/**
 * Submits a mock attempt: grades it locally, stores it as submitted and queues `attempt.submit`
 * (the whole attempt; the server re-grades it). Submitting an already submitted attempt returns
 * the stored result and queues nothing.
 */
export async function submitMockAttempt(db: MemberDb, input: MockAttemptInput, opts?: RepoOptions): Promise<MockAttemptResult> {
  const attempt = { ...input, answers: Object.fromEntries(Object.entries(input.answers).map(([id, answer]) => [id, storable(answer)])) };
  const newId = idOf(opts);
  const attemptId = attempt.attemptId ?? newId();
  const submittedAt = Math.max(clockOf(opts)(), attempt.startedAt);
  const results: Record<string, AttemptQuestionResult> = {};
  let score = 0;
  for (const question of attempt.questions) {
    const graded = gradeLocally(question, attempt.answers[String(question.id)]);
    results[String(question.id)] = { correct: graded.correct, score: graded.score };
    score += graded.score;
  }
  score = round2(score);

  return db.transaction("rw", [db.attempts, db.outbox], async () => {
    const existing = await db.attempts.get(attemptId);
    if (existing?.status === "submitted" && existing.results && existing.score !== null) {
      return { attemptId, score: existing.score, results: existing.results };
    }
    const row: AttemptRow = {
      attemptId,
      paperId: attempt.paperId,
      questions: attempt.questions,
      answers: attempt.answers,
      startedAt: attempt.startedAt,
      deadline: attempt.deadline ?? existing?.deadline ?? null,
      submittedAt,
      score,
      results,
      status: "submitted",
    };
    await db.attempts.put(row);
    await enqueue(db, {
      id: newId(),
      type: "attempt.submit",
      at: submittedAt,
      payload: { attemptId, paperId: attempt.paperId, startedAt: attempt.startedAt, submittedAt, answers: attempt.answers },
    });
    return { attemptId, score, results };
  });
}

// ---------------------------------------------------------------- lesson progress

/** A position change smaller than this (seconds), with `completed` unchanged, is not worth an op. */
export const LESSON_POSITION_STEP = 1;

export interface LessonProgressInput {
  lessonId: number;
  courseId: number;
  /** Seconds into the video (text-only lessons: 0). */
  position: number;
  completed: boolean;
}

export interface LessonProgressResult {
  /** The row as stored after the call. */
  row: LessonProgressRow;
  /** Whether a `lesson.progress` op was queued (false: nothing changed meaningfully). */
  queued: boolean;
}

/** A position as sent: finite, not negative, hundredths of a second. */
function cleanPosition(position: number): number {
  return Number.isFinite(position) && position > 0 ? round2(position) : 0;
}

/**
 * Records the member's progress on a lesson: the local row and its `lesson.progress` op in one
 * transaction. `completed` is sticky (once true on this device it stays true, and later ops say
 * so too). Nothing is written when the position moved less than LESSON_POSITION_STEP seconds and
 * `completed` did not change.
 */
export async function recordLessonProgress(db: MemberDb, input: LessonProgressInput, opts?: RepoOptions): Promise<LessonProgressResult> {
  const position = cleanPosition(input.position);
  return db.transaction("rw", [db.lessonProgress, db.outbox], async () => {
    const previous = await db.lessonProgress.get(input.lessonId);
    const completed = Boolean(previous?.completed) || input.completed;
    if (previous && previous.completed === completed && Math.abs(previous.position - position) < LESSON_POSITION_STEP) {
      return { row: previous, queued: false };
    }
    const op: OpOf<"lesson.progress"> = {
      id: idOf(opts)(),
      type: "lesson.progress",
      at: clockOf(opts)(),
      payload: { lessonId: input.lessonId, position, completed },
    };
    const row: LessonProgressRow = {
      lessonId: input.lessonId,
      courseId: input.courseId,
      position,
      completed,
      updatedAt: op.at,
      opId: op.id,
    };
    await db.lessonProgress.put(row);
    await enqueue(db, op);
    return { row, queued: true };
  });
}

// ---------------------------------------------------------------- outbox and state

/** Ops waiting to be sent (the "answers waiting to sync" badge). */
export function pendingCount(db: MemberDb): Promise<number> {
  return db.outbox.where("status").equals("pending").count();
}

/** Ops the server refused, oldest first, with its reason in `msg` (never retried automatically). */
export function rejectedOps(db: MemberDb): Promise<OutboxRow[]> {
  return db.outbox.where("[status+seq]").between(["rejected", -Infinity], ["rejected", Infinity]).toArray();
}

/** The member dismisses a rejected op. */
export async function discardRejected(db: MemberDb, opId: string): Promise<void> {
  await db.outbox.where("id").equals(opId).and((row) => row.status === "rejected").delete();
}

/**
 * The member sends an op the device set aside (the server kept failing on it) again: it goes
 * back into the queue at its old place, with its failures forgotten. Ops the server rejected
 * stay rejected (the server answered them; sending them again changes nothing).
 */
export async function retrySetAside(db: MemberDb, opId: string): Promise<void> {
  await db.outbox
    .where("id")
    .equals(opId)
    .and((row) => row.status === "rejected" && row.setAside === true)
    .modify((row) => {
      row.status = "pending";
      delete row.setAside;
      delete row.msg;
      row.failures = 0;
    });
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

/*
 * Reads for screens: what a screen needs to know of the device's copy, by name. Screens call
 * these (directly or inside `useOfflineQuery`) and never touch a table themselves (lint).
 */

/** The bank's row on this device, if it was saved. */
export async function storedBank(db: MemberDb, bankId: number): Promise<BankRow | undefined> {
  return db.banks.get(bankId);
}

/** The banks of `bankIds` on this device (undefined where missing), in the same order. */
export async function storedBanks(db: MemberDb, bankIds: readonly number[]): Promise<(BankRow | undefined)[]> {
  return db.banks.bulkGet([...bankIds]);
}

/** The saved questions of these banks, by bank and then position. */
export async function questionsOfBanks(db: MemberDb, bankIds: readonly number[]): Promise<QuestionRow[]> {
  const rows = await db.questions.where("bankId").anyOf([...bankIds]).toArray();
  return rows.sort((a, b) => a.bankId - b.bankId || a.position - b.position);
}

/** One mock attempt on this device, or null. */
export async function storedAttempt(db: MemberDb, attemptId: string): Promise<AttemptRow | null> {
  return (await db.attempts.get(attemptId)) ?? null;
}

/** Mock attempts started on this device and not submitted yet. */
export async function attemptsInProgress(db: MemberDb): Promise<AttemptRow[]> {
  return db.attempts.where("status").equals("in_progress").toArray();
}

/** Submitted, graded attempts of a paper on this device. */
export async function gradedAttemptsOfPaper(db: MemberDb, paperId: number): Promise<AttemptRow[]> {
  return db.attempts
    .where("paperId")
    .equals(paperId)
    .filter((a) => a.status === "submitted" && a.score !== null)
    .toArray();
}

/** How many `attempt.submit` ops of this attempt still wait in the outbox (0 or 1). */
export async function waitingSubmissions(db: MemberDb, attemptId: string): Promise<number> {
  return db.outbox.filter((op) => op.type === "attempt.submit" && op.payload.attemptId === attemptId).count();
}

/** A submitted mock attempt whose submission the server has not taken yet; `rejected` its refusal, if refused. */
export interface UnsentSubmission {
  attempt: AttemptRow;
  rejected: string | null;
}

/** Submitted mock attempts whose `attempt.submit` op is still in the outbox, newest first. */
export async function unsentSubmissions(db: MemberDb): Promise<UnsentSubmission[]> {
  const ops = await db.outbox.filter((op) => op.type === "attempt.submit").toArray();
  const byAttempt = new Map<string, string | null>();
  for (const op of ops) {
    if (op.type === "attempt.submit") byAttempt.set(op.payload.attemptId, op.status === "rejected" ? (op.msg ?? "") : null);
  }
  const attempts = await db.attempts.bulkGet([...byAttempt.keys()]);
  return attempts
    .filter((a): a is AttemptRow => a !== undefined && a.status === "submitted")
    .map((attempt) => ({ attempt, rejected: byAttempt.get(attempt.attemptId) ?? null }))
    .sort((a, b) => (b.attempt.submittedAt ?? 0) - (a.attempt.submittedAt ?? 0));
}
