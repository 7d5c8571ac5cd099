import { z } from "zod";
import { dbId } from "../schema.ts";
import { MAX_RETENTION, MIN_RETENTION } from "../exam/review.ts";
import type { PayloadSchemaAt } from "./protocol.ts";

/**
 * The spaced-review ops (issue 18; the rules: src/shared/exam/review.ts):
 * - `review.answer`: one review of a question of the member's wrong book or favourites, rated on
 *   the device from its result (`correct`, and `grade` when the member said "hard" / "easy") with
 *   the desired retention the member had set. Logged once per op id; the card is the FSRS replay
 *   of its logs, so the order ops arrive in never matters.
 * - `review.retention`: the member's desired retention (last writer wins by (op time, op id)).
 */

const retention = z.number().min(MIN_RETENTION).max(MAX_RETENTION);

const reviewAnswerPayload = z.object({
  questionId: dbId,
  correct: z.boolean(),
  grade: z.enum(["hard", "easy"]).nullable(),
  retention,
});
const reviewRetentionPayload = z.object({ retention });

export const reviewOpPayloads = {
  "review.answer": () => reviewAnswerPayload,
  "review.retention": () => reviewRetentionPayload,
} satisfies Record<string, PayloadSchemaAt>;

/** `GET /api/exam/review/state`: the member's desired retention and every review log. */
export const reviewStateSchema = z.object({
  retention: z.number(),
  /** ms of the op that set the retention (0: never set, the default). */
  retentionAt: z.number().int().nonnegative(),
  logs: z.array(
    z.object({
      opId: z.string(),
      questionId: z.number().int().positive(),
      at: z.number().int().nonnegative(),
      correct: z.boolean(),
      grade: z.enum(["hard", "easy"]).nullable(),
      retention: z.number(),
    }),
  ),
});
export type ReviewState = z.infer<typeof reviewStateSchema>;

/** One due (or queued) card of `GET /api/exam/review/due`: scheduling only, never question content. */
export interface DueCard {
  questionId: number;
  bankId: number;
  type: string;
  /** ms (0: never reviewed). */
  due: number;
  reps: number;
  lapses: number;
  /** Why it is in the queue. */
  source: "wrong" | "favourite" | "both";
}

export interface DueList {
  now: number;
  /** Cards in the queue (wrong book and favourites). */
  queued: number;
  due: DueCard[];
  /** Rough time the due reviews take, seconds. */
  estimateSeconds: number;
}

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
