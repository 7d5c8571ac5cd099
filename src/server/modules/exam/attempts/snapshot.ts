import type { Queryable } from "../../../db/index.ts";
import type { QuestionRow } from "../questions.ts";
import type { PaperQuestion } from "./papers.ts";
import { freezeSnapshots, insertSnapshot, satStemRows, snapshotRows, type StoredSnapshot } from "./repository.ts";

/**
 * What an attempt sat (`exam_attempt_snapshot`, migration 0038): each question as it was given
 * (text, options in the order given, answer key, analysis) with the points the paper gave it, in
 * the order given, and the paper's grading rules at the start. Written once when the attempt is
 * made (official start, a mock attempt graded on the server), never updated. Grading, the
 * member's record and review, marking, late-answer decisions and room results read only this:
 * nothing staff do later to questions, banks, papers or their rows changes what was sat.
 */

/** A question as sat: a question row whose `score` is the points the paper gave it. */
export type SatQuestion = QuestionRow & { missing?: undefined };
/** A question deleted before its attempt had a snapshot (migration 0038's backfill): its id and points only. */
export interface MissingQuestion {
  id: number;
  score: number;
  missing: true;
}

export interface AttemptSnapshot {
  paper: { totalScore: number; passScore: number; partialCredit: boolean };
  questions: (SatQuestion | MissingQuestion)[];
}

/** Stores what an attempt is given: `questions` in the order given, each with the paper's points. */
export async function saveSnapshot(db: Queryable, attemptId: number, paper: AttemptSnapshot["paper"], questions: readonly PaperQuestion[]): Promise<void> {
  await insertSnapshot(db, attemptId, snapshotPaperJson(paper), JSON.stringify(asSat(questions)));
}

/** The paper's grading rules as a snapshot holds them (JSON text). */
export const snapshotPaperJson = (paper: AttemptSnapshot["paper"]): string =>
  JSON.stringify({ totalScore: Number(paper.totalScore), passScore: Number(paper.passScore), partialCredit: paper.partialCredit });

/** The questions as a snapshot holds them: each row as given with the paper's points, in the order given. */
export function asSat(questions: readonly PaperQuestion[]): SatQuestion[] {
  return questions.map(({ row, score }): SatQuestion => ({
    id: row.id,
    classify_id: row.classify_id,
    type: row.type,
    stem: row.stem,
    options: row.options,
    answer: row.answer,
    analysis: row.analysis,
    difficulty: row.difficulty,
    score: Number(score),
    version: row.version,
  }));
}

function normalise(s: StoredSnapshot): AttemptSnapshot {
  return {
    paper: { totalScore: Number(s.paper.totalScore), passScore: Number(s.paper.passScore), partialCredit: s.paper.partialCredit === true },
    questions: s.questions.map((q) => ({ ...q, score: Number(q.score) })),
  };
}

/**
 * The snapshots of the given attempts, by attempt id (one made from what is there now for an
 * attempt that has none). `gradingOnly`: each question's texts (stem, options, analysis) left
 * empty, for grading many attempts at once.
 */
export async function snapshotsOf(db: Queryable, attemptIds: readonly number[], options: { gradingOnly?: boolean } = {}): Promise<Map<number, AttemptSnapshot>> {
  if (attemptIds.length === 0) return new Map();
  const read = () => snapshotRows(db, attemptIds, options.gradingOnly === true);
  let rows = await read();
  if (rows.length < new Set(attemptIds).size) {
    const have = new Set(rows.map((r) => r.attempt_id));
    await freezeSnapshots(db, attemptIds.filter((id) => !have.has(id)));
    rows = await read();
  }
  return new Map(rows.map((r) => [r.attempt_id, normalise(r)]));
}

/** One attempt's snapshot (see snapshotsOf); null only when the attempt itself is gone. */
export async function snapshotOf(db: Queryable, attemptId: number): Promise<AttemptSnapshot | null> {
  return (await snapshotsOf(db, [attemptId])).get(attemptId) ?? null;
}

/** The questions an attempt sat that can be graded (not deleted before 0038), by id, with the paper's points: what `gradeAttempt` takes. */
export function satQuestions(snapshot: AttemptSnapshot): Map<number, PaperQuestion> {
  const out = new Map<number, PaperQuestion>();
  for (const q of snapshot.questions) if (!q.missing) out.set(q.id, { row: q, score: q.score });
  return out;
}

/** The ids of the questions an attempt sat, in the order given (missing ones too). */
export const satIds = (snapshot: AttemptSnapshot): number[] => snapshot.questions.map((q) => q.id);

/** Question id -> its stem and type as first sat among the given attempts (a room's item analysis). */
export async function satStems(db: Queryable, attemptIds: readonly number[]): Promise<Map<number, { stem: string; type: string }>> {
  if (attemptIds.length === 0) return new Map();
  return new Map((await satStemRows(db, attemptIds)).map((r) => [r.id, { stem: r.stem, type: r.type }]));
}
