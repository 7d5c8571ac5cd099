import * as z from "zod/mini";

/**
 * What the device reads of the offline sync protocol (API.md "Offline sync"): the batch limit and
 * the schemas its answers are checked against. Built with zod's mini API (the same library and
 * checks, without the chainable methods each classic schema is given when it is built), so the
 * practice screen's first visit on a phone does not build the server's request schemas: those stay
 * in protocol.ts, exam.ts and review.ts, which re-export these.
 */

export const MAX_OPS_PER_SYNC = 200;

export const SYNC_STATUSES = ["applied", "duplicate", "rejected"] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

const positiveInt = () => z.int().check(z.positive());
const nonNegativeInt = () => z.int().check(z.nonnegative());

export const syncResultSchema = z.object({
  id: z.string(),
  status: z.enum(SYNC_STATUSES),
  msg: z.optional(z.string()),
});
export type SyncResult = z.infer<typeof syncResultSchema>;

/** `POST /api/exam/sync`: one result per op, in order. */
export const syncResponseSchema = z.object({ results: z.array(syncResultSchema) });
export type SyncResponse = z.infer<typeof syncResponseSchema>;

/** `GET /api/exam/state`: the member's favourites, wrong book and practice progress. */
export const examStateSchema = z.object({
  favourites: z.array(positiveInt()),
  wrong: z.array(z.object({ questionId: positiveInt(), count: nonNegativeInt(), lastTime: nonNegativeInt() })),
  progress: z.array(z.object({ bankId: positiveInt(), position: nonNegativeInt(), updatedAt: nonNegativeInt() })),
});
export type ExamState = z.infer<typeof examStateSchema>;

/** `GET /api/exam/review/state`: the member's desired retention and every review log. */
export const reviewStateSchema = z.object({
  retention: z.number(),
  /** ms of the op that set the retention (0: never set, the default). */
  retentionAt: nonNegativeInt(),
  logs: z.array(
    z.object({
      opId: z.string(),
      questionId: positiveInt(),
      at: nonNegativeInt(),
      correct: z.boolean(),
      grade: z.nullable(z.enum(["hard", "easy"])),
      retention: z.number(),
    }),
  ),
});
export type ReviewState = z.infer<typeof reviewStateSchema>;
