import { z } from "zod";
import { dbId, dbIdKey, dbInt, safeText } from "../schema.ts";
import { MAX_ANSWER_LENGTH, MAX_BLANKS } from "./grading.ts";

/**
 * The offline sync contract (API.md "Offline sync"): `POST /api/exam/sync {ops}` answers one
 * SyncResult per op, in order; `GET /api/exam/state` answers an ExamState. Each op is parsed on
 * its own with `parseOp`, so one bad op is `rejected` and never fails the batch. Messages are
 * developer-facing English.
 */

export const OP_TYPES = [
  "practice.answer",
  "favourite.set",
  "wrong.remove",
  "progress.set",
  "attempt.submit",
  "lesson.progress",
] as const;
export type OpType = (typeof OP_TYPES)[number];

export const MAX_OPS_PER_SYNC = 200;
/** Earliest acceptable op time: 2020-01-01T00:00:00Z. */
export const MIN_OP_TIME = Date.UTC(2020, 0, 1);
/** How far ahead of the server's clock a client's clock may run. */
export const MAX_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;
/** At most this many answers in one submitted attempt. */
export const MAX_ATTEMPT_ANSWERS = 1000;

/** A 36-character uuid: lowercase hex and dashes in the 8-4-4-4-12 layout. */
export const UUID_REGEX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const uuidSchema = z.string().regex(UUID_REGEX, "must be a 36-character lowercase uuid");
/** Ids are `integer` columns: 1 .. 2^31 - 1 (src/shared/schema.ts). */
const idSchema = dbId;
/**
 * A given answer (GivenAnswer encoding): one string, or a list of strings (multiple / fill);
 * text PostgreSQL can store (no NUL, no unpaired surrogate).
 */
export const givenAnswerSchema = z.union([
  safeText(MAX_ANSWER_LENGTH),
  z.array(safeText(MAX_ANSWER_LENGTH)).max(MAX_BLANKS),
]);

/** Milliseconds since the epoch, from 2020-01-01 to `now` + 1 day. */
function timeSchema(now: number) {
  return z
    .number()
    .int()
    .min(MIN_OP_TIME, "must be ms since the epoch, not before 2020-01-01")
    .max(now + MAX_CLOCK_SKEW_MS, "must not be more than 1 day in the future");
}

const practiceAnswerPayload = z.object({
  questionId: idSchema,
  answer: givenAnswerSchema,
  bankId: idSchema,
});
const favouriteSetPayload = z.object({ questionId: idSchema, on: z.boolean() });
const wrongRemovePayload = z.object({ questionId: idSchema });
const progressSetPayload = z.object({ bankId: idSchema, position: dbInt(0) });
const lessonProgressPayload = z.object({
  lessonId: idSchema,
  position: z.number().nonnegative(), // seconds into the video; finite (zod 4 rejects Infinity)
  completed: z.boolean(),
});

function attemptSubmitPayload(now: number) {
  return z
    .object({
      attemptId: uuidSchema,
      paperId: idSchema,
      startedAt: timeSchema(now),
      submittedAt: timeSchema(now),
      /** Keyed by question id (decimal text). */
      answers: z
        .record(dbIdKey, givenAnswerSchema)
        .refine((answers) => Object.keys(answers).length <= MAX_ATTEMPT_ANSWERS, {
          message: `at most ${MAX_ATTEMPT_ANSWERS} answers`,
        }),
    })
    .refine((p) => p.submittedAt >= p.startedAt, {
      message: "submittedAt must not be before startedAt",
      path: ["submittedAt"],
    });
}

/** The op schema with "now" injected (the upper bound of every op time). */
export function opSchemaAt(now: number) {
  const base = { id: uuidSchema, at: timeSchema(now) };
  return z.discriminatedUnion("type", [
    z.object({ ...base, type: z.literal("practice.answer"), payload: practiceAnswerPayload }),
    z.object({ ...base, type: z.literal("favourite.set"), payload: favouriteSetPayload }),
    z.object({ ...base, type: z.literal("wrong.remove"), payload: wrongRemovePayload }),
    z.object({ ...base, type: z.literal("progress.set"), payload: progressSetPayload }),
    z.object({ ...base, type: z.literal("attempt.submit"), payload: attemptSubmitPayload(now) }),
    z.object({ ...base, type: z.literal("lesson.progress"), payload: lessonProgressPayload }),
  ]);
}

export type OpSchema = ReturnType<typeof opSchemaAt>;
export type Op = z.infer<OpSchema>;
export type OpOf<T extends OpType> = Extract<Op, { type: T }>;
export type OpPayload<T extends OpType> = OpOf<T>["payload"];

/**
 * The request body. It only checks that `ops` is an array of 1..200 items; each op is then
 * parsed with `parseOp` so that one bad op is rejected on its own.
 */
export const syncRequestSchema = z.object({
  ops: z.array(z.unknown()).min(1).max(MAX_OPS_PER_SYNC),
});
export type SyncRequest = z.infer<typeof syncRequestSchema>;

export type ParseOpResult = { ok: true; op: Op } | { ok: false; msg: string };

export function isOpType(value: unknown): value is OpType {
  return typeof value === "string" && (OP_TYPES as readonly string[]).includes(value);
}

let cached: { now: number; schema: OpSchema } | null = null;

function schemaFor(now: number): OpSchema {
  if (cached?.now !== now) cached = { now, schema: opSchemaAt(now) };
  return cached.schema;
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Parses one raw op against the clock `now` (ms). Never throws. */
export function parseOp(raw: unknown, now: number): ParseOpResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, msg: "op must be an object" };
  }
  const type: unknown = (raw as { type?: unknown }).type;
  if (!isOpType(type)) {
    return { ok: false, msg: `type: unknown op type ${JSON.stringify(type) ?? "undefined"}` };
  }
  if (!Number.isFinite(now)) return { ok: false, msg: "server clock is not a finite number" };
  try {
    const result = schemaFor(now).safeParse(raw);
    return result.success ? { ok: true, op: result.data } : { ok: false, msg: describeIssues(result.error.issues) };
  } catch {
    return { ok: false, msg: "op could not be read" };
  }
}

/** The id of a raw op when it has a string one (to label a rejection), else "". */
export function rawOpId(raw: unknown): string {
  if (typeof raw !== "object" || raw === null) return "";
  const id: unknown = (raw as { id?: unknown }).id;
  return typeof id === "string" ? id.slice(0, 64) : "";
}

export const SYNC_STATUSES = ["applied", "duplicate", "rejected"] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

export const syncResultSchema = z.object({
  id: z.string(),
  status: z.enum(SYNC_STATUSES),
  msg: z.string().optional(),
});
export type SyncResult = z.infer<typeof syncResultSchema>;

export const syncResponseSchema = z.object({ results: z.array(syncResultSchema) });
export type SyncResponse = z.infer<typeof syncResponseSchema>;

export const examStateSchema = z.object({
  favourites: z.array(z.number().int().positive()),
  wrong: z.array(
    z.object({
      questionId: z.number().int().positive(),
      count: z.number().int().nonnegative(),
      lastTime: z.number().int().nonnegative(),
    }),
  ),
  progress: z.array(
    z.object({
      bankId: z.number().int().positive(),
      position: z.number().int().nonnegative(),
      updatedAt: z.number().int().nonnegative(),
    }),
  ),
});
export type ExamState = z.infer<typeof examStateSchema>;
