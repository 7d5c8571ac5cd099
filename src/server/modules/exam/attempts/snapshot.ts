import type { Queryable } from "../../../db/index.ts";
import type { QuestionRow } from "../questions.ts";
import type { PaperQuestion } from "./papers.ts";
import { attemptsWithoutSnapshot, freezeSnapshots, gradingGroupRows, insertSnapshot, satStemRows, snapshotRows, type StoredSnapshot } from "./repository.ts";

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

/** Attempts that sat the same gradable questions (ids, types, answer keys, points) under the same rules. */
export interface GradingGroup {
  attemptIds: number[];
  paper: AttemptSnapshot["paper"];
  /** What `gradeAttempt` takes: each question's type, answer key and points; its texts are left empty. */
  questions: Map<number, PaperQuestion>;
  /** The ids of those questions, in the order given. */
  ids: number[];
}

/**
 * The given attempts' snapshots as grading reads them, attempts that sat the same as one group
 * (snapshotsOf with `gradingOnly`, without a copy per attempt: a room of 20,000 attempts of one
 * paper is one group). An attempt without a snapshot gets one first, as in snapshotsOf.
 */
export async function gradingGroupsOf(db: Queryable, attemptIds: readonly number[]): Promise<GradingGroup[]> {
  if (attemptIds.length === 0) return [];
  const without = await attemptsWithoutSnapshot(db, [...new Set(attemptIds)]);
  if (without.length > 0) await freezeSnapshots(db, without);
  return (await gradingGroupRows(db, attemptIds)).map((g) => {
    const questions = new Map<number, PaperQuestion>();
    g.ids.forEach((id, i) => {
      const score = Number(g.scores[i]);
      const row = { id, classify_id: 0, type: g.types[i]!, stem: "", options: [], answer: g.answers[i] as QuestionRow["answer"], analysis: "", difficulty: 0, score };
      questions.set(id, { row, score });
    });
    const { paper } = normalise({ paper: g.paper, questions: [] });
    return { attemptIds: g.attempt_ids, paper, questions, ids: g.ids };
  });
}

/** Question id -> its stem and type in the snapshot of the attempt `firstSat` names for it (a room's item analysis). */
export async function satStems(db: Queryable, firstSat: ReadonlyMap<number, number>): Promise<Map<number, { stem: string; type: string }>> {
  return new Map((await satStemRows(db, firstSat)).map((r) => [r.id, { stem: r.stem, type: r.type }]));
}
