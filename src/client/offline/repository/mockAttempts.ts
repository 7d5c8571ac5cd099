import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import type { AttemptQuestionResult, AttemptRow, MemberDb } from "../db.ts";
import { clockOf, enqueue, gradeLocally, idOf, round2, storable, type RepoOptions } from "./shared.ts";

/**
 * Mock attempts: taken and graded on this device; only the submission travels (`attempt.submit`,
 * the server grades it again).
 */

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

/** Remembers the question the member is on (device only: the server has no use for it). */
export async function setAttemptPosition(db: MemberDb, attemptId: string, position: number): Promise<void> {
  await db.transaction("rw", db.attempts, async () => {
    const row = await db.attempts.get(attemptId);
    if (!row || row.status !== "in_progress" || row.position === position) return;
    await db.attempts.put({ ...row, position });
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

/** The versions of the questions given (the server grades each by the one the member read), when the device knows them. */
function versionsOf(questions: readonly ExamQuestion[]): { versions?: Record<string, number> } {
  const known = questions.filter((q) => q.version !== undefined);
  return known.length > 0 ? { versions: Object.fromEntries(known.map((q) => [String(q.id), q.version!])) } : {};
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
      payload: { attemptId, paperId: attempt.paperId, startedAt: attempt.startedAt, submittedAt, answers: attempt.answers, ...versionsOf(attempt.questions) },
    });
    return { attemptId, score, results };
  });
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
