/** Mastery per topic (bank) and question type, counted the same way on the server and the device. */

/** One topic (bank) x question type of `GET /api/exam/review/mastery`. */
export interface MasteryTopic {
  bankId: number;
  title: string;
  type: string;
  answered: number;
  correct: number;
  dueReviews: number;
  /** Mean FSRS retrievability of its answered questions (a question never reviewed: 1 if its latest answer was right, else 0); null when none answered. */
  mastery: number | null;
  /** Correct rate per week, oldest first (Monday of the week, UTC, YYYY-MM-DD). */
  weeks: { week: string; answered: number; correct: number }[];
}

export interface Mastery {
  topics: MasteryTopic[];
}

/** A topic while its answers, cards and due reviews are counted (server and device alike). */
export type MasteryAcc = MasteryTopic & { sum: number; count: number; weekMap: Map<string, { answered: number; correct: number }> };

/** The counted topics as the wire's: mastery the mean of the cards' estimates, weeks in order, topics by bank then type. */
export function finishMastery(topics: Iterable<MasteryAcc>): MasteryTopic[] {
  return [...topics]
    .map(({ sum, count, weekMap, ...topic }) => ({
      ...topic,
      mastery: count > 0 ? Math.round((sum / count) * 1000) / 1000 : null,
      weeks: [...weekMap].sort(([a], [b]) => (a < b ? -1 : 1)).map(([week, w]) => ({ week, ...w })),
    }))
    .sort((a, b) => a.bankId - b.bankId || a.type.localeCompare(b.type));
}
