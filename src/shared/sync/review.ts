import { z } from "zod";
import { dbId } from "../schema.ts";
import { MAX_RETENTION, MIN_RETENTION } from "../exam/review.ts";
import type { PayloadSchemaAt } from "./protocol.ts";

/**
 * The spaced-review ops (the rules: src/shared/exam/review.ts):
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

export { reviewStateSchema, type ReviewState } from "./wire.ts";

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

export { finishMastery, type Mastery, type MasteryAcc, type MasteryTopic } from "../exam/mastery.ts";
