import { z } from "zod";
import { dbId, dbIdKey, dbInt, safeText } from "../schema.ts";
import { MAX_ANSWER_LENGTH, MAX_BLANKS } from "../exam/grading.ts";
import { timeSchema, uuidSchema, type PayloadSchemaAt, type ServerClock } from "./protocol.ts";

/**
 * The exam ops (practice answers, favourites, the wrong book, practice progress, mock attempts,
 * official-exam answers and page leaves) and the exam state the device pulls after a push (`GET /api/exam/state`).
 * The rules that turn these ops into that state are src/shared/exam/state.ts.
 */

/** At most this many answers in one submitted attempt. */
export const MAX_ATTEMPT_ANSWERS = 1000;

/**
 * A given answer (GivenAnswer encoding): one string, or a list of strings (multiple / fill);
 * text PostgreSQL can store (no NUL, no unpaired surrogate).
 */
export const givenAnswerSchema = z.union([
  safeText(MAX_ANSWER_LENGTH),
  z.array(safeText(MAX_ANSWER_LENGTH)).max(MAX_BLANKS),
]);

/** Ids are `integer` columns: 1 .. 2^31 - 1 (src/shared/schema.ts). */
/** `version`: the question's version the device showed: the answer is graded by it. Absent: the latest. */
const practiceAnswerPayload = z.object({ questionId: dbId, answer: givenAnswerSchema, bankId: dbId, version: dbId.optional() });
const favouriteSetPayload = z.object({ questionId: dbId, on: z.boolean() });
const wrongRemovePayload = z.object({ questionId: dbId });
const progressSetPayload = z.object({ bankId: dbId, position: dbInt(0) });

function attemptSubmitPayload(now: ServerClock) {
  return z
    .object({
      attemptId: uuidSchema,
      paperId: dbId,
      startedAt: timeSchema(now),
      submittedAt: timeSchema(now),
      /** Keyed by question id (decimal text). */
      answers: z
        .record(dbIdKey, givenAnswerSchema)
        .refine((answers) => Object.keys(answers).length <= MAX_ATTEMPT_ANSWERS, {
          message: `at most ${MAX_ATTEMPT_ANSWERS} answers`,
        }),
      /** Question id -> the version the device gave: each is graded by it. Absent: as the paper gives it now. */
      versions: z
        .record(dbIdKey, dbId)
        .refine((versions) => Object.keys(versions).length <= MAX_ATTEMPT_ANSWERS, {
          message: `at most ${MAX_ATTEMPT_ANSWERS} versions`,
        })
        .optional(),
    })
    .refine((p) => p.submittedAt >= p.startedAt, {
      message: "submittedAt must not be before startedAt",
      path: ["submittedAt"],
    });
}

/**
 * One answer in an official exam (the attempt lives on the server, on its clock): `answeredAt` is
 * when the member made it, ms on the server's clock as the device measured it (device time plus
 * the offset it learnt at start), so an answer made before the deadline still counts when the
 * network returns only after it. Of two answers to a question the later `answeredAt` wins,
 * whatever order they arrive in.
 */
function officialAnswerPayload(now: ServerClock) {
  return z.object({ uuid: uuidSchema, questionId: dbId, answer: givenAnswerSchema, answeredAt: timeSchema(now) });
}

/**
 * The official exam page was hidden and shown again (src/shared/exam/pageLeaves.ts): when it left
 * and came back, ms on the server's clock as the device measured it. The server checks them
 * against the attempt's own time.
 */
function officialLeavePayload(now: ServerClock) {
  return z
    .object({ uuid: uuidSchema, leftAt: timeSchema(now), backAt: timeSchema(now) })
    .refine((p) => p.backAt >= p.leftAt, { message: "backAt must not be before leftAt", path: ["backAt"] });
}

/** Payload schemas of the exam op types, by type. */
export const examOpPayloads = {
  "practice.answer": () => practiceAnswerPayload,
  "favourite.set": () => favouriteSetPayload,
  "wrong.remove": () => wrongRemovePayload,
  "progress.set": () => progressSetPayload,
  "attempt.submit": attemptSubmitPayload,
  "official.answer": officialAnswerPayload,
  "official.leave": officialLeavePayload,
} satisfies Record<string, PayloadSchemaAt>;

export { examStateSchema, type ExamState } from "./wire.ts";
