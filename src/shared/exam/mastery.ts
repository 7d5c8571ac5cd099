import { inShortStep, retrievability, weekOf, type CardState } from "./review.ts";

/**
 * Mastery per topic (bank) and question type, counted the same way on the server and the device.
 * Two numbers sit side by side and mean different things, so they may differ without contradicting:
 * - correct rate: of every graded answer of the topic (practice and review, each attempt), the
 *   share that was right: the member's history;
 * - mastery: of the topic's questions the member has a graded result for, how likely each is to be
 *   answered right now (the mean of questionMastery): 0 for a question whose latest result was
 *   wrong, else FSRS's recall estimate (1 for a question answered right and not reviewed since).
 * An answer nobody graded yet (a short answer waiting for a teacher) counts in neither, and a
 * question with only such answers has no mastery (so it cannot be the weakest point).
 */

/** One topic (bank) x question type of `GET /api/exam/review/mastery`. */
export interface MasteryTopic {
  bankId: number;
  title: string;
  type: string;
  /** Graded answers (ungraded ones left out). */
  answered: number;
  correct: number;
  dueReviews: number;
  /** Mean of questionMastery over its questions with a graded result; null when there is none. */
  mastery: number | null;
  /** Correct rate per week of graded answers, oldest first (Monday of the week, UTC, YYYY-MM-DD). */
  weeks: { week: string; answered: number; correct: number }[];
}

export interface Mastery {
  topics: MasteryTopic[];
}

/** A topic while its answers, cards and due reviews are counted (server and device alike). */
export type MasteryAcc = MasteryTopic & { sum: number; count: number; weekMap: Map<string, { answered: number; correct: number }> };

export function emptyTopic(bankId: number, title: string, type: string): MasteryAcc {
  return { bankId, title, type, answered: 0, correct: 0, dueReviews: 0, mastery: null, weeks: [], sum: 0, count: 0, weekMap: new Map() };
}

/** A question's latest graded practice answer: right or not, and when (ms). */
export interface LatestResult {
  correct: boolean;
  at: number;
}

/**
 * How likely one question is to be answered right now (0..1), from its latest graded practice
 * answer and its review card, whichever is later deciding (a review on the device logs both at
 * once: the card's then): wrong is 0, and so is a card still in its short relearning step; right
 * in review is FSRS's recall estimate; right in practice and not reviewed since is 1. Null when
 * nothing graded says anything (never answered, or only waiting for a teacher).
 */
export function questionMastery(latest: LatestResult | null, card: CardState | null, now: number): number | null {
  const reviewed = card && card.reps > 0 && card.lastReview !== null ? card : null;
  if (reviewed && (latest === null || reviewed.lastReview! >= latest.at)) {
    if (inShortStep(reviewed)) return 0;
    return retrievability(reviewed, now) ?? 1;
  }
  if (latest === null) return null;
  return latest.correct ? 1 : 0;
}

/** Counts one question's mastery in its topic (a question without a graded result does not count). */
export function addQuestion(topic: MasteryAcc, latest: LatestResult | null, card: CardState | null, now: number): void {
  const value = questionMastery(latest, card, now);
  if (value === null) return;
  topic.sum += value;
  topic.count += 1;
}

/** Counts one answer in its topic's correct rate (and its week's, from `since` on); an ungraded one does not count. */
export function addAnswer(topic: MasteryAcc, correct: boolean | null, at: number, since: number): void {
  if (correct === null) return;
  topic.answered += 1;
  if (correct) topic.correct += 1;
  if (at < since) return;
  const week = weekOf(at);
  const entry = topic.weekMap.get(week) ?? { answered: 0, correct: 0 };
  entry.answered += 1;
  if (correct) entry.correct += 1;
  topic.weekMap.set(week, entry);
}

/** The counted topics as the wire's: mastery the mean of the questions', weeks in order, topics by bank then type. */
export function finishMastery(topics: Iterable<MasteryAcc>): MasteryTopic[] {
  return [...topics]
    .map(({ sum, count, weekMap, ...topic }) => ({
      ...topic,
      mastery: count > 0 ? Math.round((sum / count) * 1000) / 1000 : null,
      weeks: [...weekMap].sort(([a], [b]) => (a < b ? -1 : 1)).map(([week, w]) => ({ week, ...w })),
    }))
    .sort((a, b) => a.bankId - b.bankId || a.type.localeCompare(b.type));
}

/** The weakest topic: the lowest mastery (most graded answers first on a tie); topics without mastery never. */
export function weakestTopic<T extends Pick<MasteryTopic, "mastery" | "answered">>(topics: readonly T[]): T | undefined {
  return [...topics].filter((topic) => topic.mastery !== null).sort((a, b) => a.mastery! - b.mastery! || b.answered - a.answered)[0];
}
