import type { Queryable } from "../../../db/index.ts";
import { gradeAttempt } from "./grading.ts";
import { attemptAnswers, keepOutcomes, markedScores, outcomesOf } from "./repository.ts";
import { gradingGroupsOf } from "./snapshot.ts";

/**
 * Each graded attempt's per-question outcome (`exam_attempt.graded_questions` / `right_questions`,
 * migration 0059): the questions it was graded on and those it got right. Every grading writes
 * them with the score (repository.ts `gradeColumns`: closing, a mark, a late answer's decision, a
 * regrade, a mock attempt), so they change only when the grade does; a room's item analysis
 * counts them in SQL instead of grading every attempt at every view.
 *
 * An attempt graded before 0059 (or written by other means) has none: `fillOutcomes` grades it
 * as the item analysis always did — against its snapshot (one made first if it has none), with
 * its answers and its markers' scores — and keeps the result.
 */

/** Per-question outcomes of an attempt: the questions it was graded on and those it got right. */
export interface Outcomes {
  graded: number[];
  right: number[];
}

/** Grades the given finished attempts that have no outcomes yet and keeps them (see above): attempt id -> its outcomes. */
export async function fillOutcomes(db: Queryable, attemptIds: readonly number[]): Promise<Map<number, Outcomes>> {
  const found = new Map<number, Outcomes>();
  if (attemptIds.length === 0) return found;
  const groups = await gradingGroupsOf(db, attemptIds);
  const attempts = new Map((await attemptAnswers(db, attemptIds)).map((a) => [a.id, a]));
  const marks = new Map<number, Map<number, number>>();
  for (const m of await markedScores(db, attemptIds)) marks.set(m.attempt_id, (marks.get(m.attempt_id) ?? new Map<number, number>()).set(m.question_id, Number(m.score)));
  for (const group of groups) {
    for (const id of group.attemptIds) {
      const a = attempts.get(id);
      if (!a) continue;
      const graded = gradeAttempt(group.questions, a.answers, { partialCredit: group.paper.partialCredit, passScore: group.paper.passScore }, group.ids, marks.get(id));
      found.set(id, outcomesOf(graded.results));
    }
  }
  await keepOutcomes(
    db,
    [...found].map(([id, o]) => ({ id, ...o })),
  );
  return found;
}
