import { randomInt, randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ExamQuestion } from "../../../../shared/exam/types.ts";
import { givenAnswerSchema } from "../../../../shared/sync/exam.ts";
import type { OpPayload } from "../../../../shared/sync/ops.ts";
import { dbId, dbIdKey, hasUnsafeText, jsonBody, safeText } from "../../../../shared/schema.ts";
import type { Database, Queryable } from "../../../db/index.ts";
import { ApiError } from "../../../errors.ts";
import type { MemberRow } from "../../../plugins/auth.ts";
import { presentQuestion } from "../questions.ts";
import { SUBMIT_GRACE_SECONDS, closeExpired, finish, nowSeconds, type AttemptRow } from "./attempt.ts";
import { takeLateAnswers, type LateOutcome } from "./late.ts";
import { drawForPaper, loadPaper, type PaperRowSpec } from "./papers.ts";
import { asSat, snapshotOf, snapshotPaperJson, type AttemptSnapshot } from "./snapshot.ts";
import { hasReference, roomFaceRule, startCheckPassed } from "../../face/checks.ts";
import type { FaceRule } from "../../../../shared/exam/face.ts";
import { attemptDeadline } from "../overrides.ts";
import {
  insertOfficialAttempt,
  lockAnswerState,
  lockMember,
  lockOfficialAttempt,
  memberRoomAttempts,
  answerOpAlone,
  mergeInTime,
  saveAttemptAnswers,
  touchAttempt,
  visibleRoom,
  type RoomRow,
} from "./official.repository.ts";

/**
 * Official exams on the server's clock: a member starts (or resumes) an attempt in an open room,
 * saves answers while the time runs and submits; the server sets the deadline and decides what
 * came in time (late answers: late.ts). Its statements are in official.repository.ts.
 */

/**
 * The room if it is open to the member now, else a refusal saying why. After its end time a room
 * is still open to a member resuming an attempt in time (one given extra time: overrides.ts).
 */
async function openRoom(tx: Queryable, member: MemberRow, roomId: number, resuming: boolean): Promise<RoomRow> {
  const room = await visibleRoom(tx, roomId, member.id, member.group_id);
  if (!room || (room.user_group_id !== null && room.user_group_id !== member.group_id)) throw new ApiError(msg`This exam is not open to you`);
  const t = nowSeconds();
  if (t < Number(room.start_time)) throw new ApiError(msg`This exam has not started yet`);
  if (t >= Number(room.end_time) && !resuming) throw new ApiError(msg`This exam has ended`);
  return room;
}

/** The questions in a random order of their own (Fisher-Yates with the system's random source). */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Cents of a paper's rows' points (fixed: the row's points, draw: points x count), as crud/resources/papers.ts's rowTotals adds them. */
const rowsCents = (rows: PaperRowSpec[]): number => rows.reduce((sum, r) => sum + Math.round(r.score * 100) * (r.kind === "fixed" ? 1 : r.count), 0);

/**
 * The member's open attempt in the room, or a new one within the room's `attempts_allowed`, with
 * its questions (never their answers or analysis). One start at a time per member (the member
 * row is locked): concurrent starts cannot beat the attempt limit, and the partial unique index
 * of 0008 allows one open attempt per room.
 */
async function startAttempt(db: Database, member: MemberRow, roomId: number): Promise<{ attempt: AttemptRow; room: RoomRow; questions: ExamQuestion[]; face: { rule: FaceRule; gate: boolean } | null }> {
  return db.transaction(async (tx) => {
    await lockMember(tx, member.id);
    await closeExpired(tx, member.id);
    const existing = await memberRoomAttempts(tx, member.id, roomId);
    let attempt = existing.find((a) => a.status === "open");
    // An open attempt left by closeExpired is in time: its member may resume it after the room's end (extra time).
    const room = await openRoom(tx, member, roomId, attempt !== undefined);
    // A room with a face rule: the member needs a reference photo to be checked against.
    const faceRule = await roomFaceRule(tx, room.id);
    if (faceRule && !(await hasReference(tx, member.id))) {
      throw new ApiError(msg`This exam checks your face: enrol a reference photo in the member center first`, 0, { faceEnrol: true });
    }
    let given: AttemptSnapshot["questions"] | undefined;
    if (!attempt) {
      const extras = { extraMinutes: room.extra_minutes, extraAttempts: room.extra_attempts };
      if (existing.length >= room.attempts_allowed + extras.extraAttempts) throw new ApiError(msg`You have used all your attempts at this exam`);
      const loaded = await loadPaper(tx, room.paper_id);
      if (!loaded) throw new ApiError(msg`This paper does not exist`);
      // The room's form refused such a paper, but the paper may have changed since: members are graded out of its total.
      if (rowsCents(loaded.rows) !== Math.round(Number(loaded.paper.total_score) * 100)) {
        throw new ApiError(msg`This exam's paper has been changed and its questions no longer add up to its total: the exam cannot start. Please tell the exam's organiser.`);
      }
      const paperOrder = await drawForPaper(tx, loaded.rows);
      // A room that shuffles gives each attempt its own order, kept in its questions and snapshot (resume and sync give the same).
      const drawn = room.shuffle_questions ? shuffled(paperOrder) : paperOrder;
      const t = nowSeconds();
      const deadline = attemptDeadline(t, room, extras);
      given = asSat(drawn);
      // The attempt and what it sits, kept as given (snapshot.ts: later edits never reach it), in one statement.
      attempt = await insertOfficialAttempt(tx, {
        uuid: randomUUID(),
        userId: member.id,
        paperId: room.paper_id,
        roomId: room.id,
        questions: JSON.stringify(drawn.map((d) => ({ id: d.row.id, score: d.score }))),
        startedAt: t,
        deadline,
        lastSeenAt: Date.now(),
        snapshotPaper: snapshotPaperJson({ totalScore: loaded.paper.total_score, passScore: Number(room.pass_score), partialCredit: loaded.paper.partial_credit }),
        snapshotQuestions: JSON.stringify(given),
      });
    } else {
      await touchAttempt(tx, attempt.id, Date.now());
    }
    // Before-start check: the questions wait until the server has passed a start snapshot.
    const gate = faceRule !== null && faceRule.beforeStart && !(await startCheckPassed(tx, attempt.id));
    const face = faceRule ? { rule: faceRule, gate } : null;
    if (gate) return { attempt, room, questions: [], face };
    given ??= (await snapshotOf(tx, attempt.id))?.questions ?? [];
    // Official questions travel without answers or analysis, with the paper's points, as given.
    return { attempt, room, questions: given.flatMap((q) => (q.missing ? [] : [presentQuestion(q, false)])), face };
  });
}

const answerBody = z.object({
  uuid: z.string().length(36),
  answers: z.record(dbIdKey, givenAnswerSchema),
  /** Question id -> when the answer was made, ms on the server's clock as the device measured it. */
  answeredAt: z.record(dbIdKey, z.number().int().nonnegative()).optional(),
});
export type AnswerBody = z.infer<typeof answerBody>;

/**
 * The body of `/save` and `/submit` as it arrives: every field judged as in AnswerBody except each
 * answer, judged on its own by `judgeAnswers` (these routes opt out of the envelope's whole-request
 * NUL check), so that one answer the server cannot store (a NUL or an unpaired surrogate pasted
 * into a text answer, too long, not an answer) is refused alone and the others are taken.
 */
const answerRequest = answerBody.extend({
  uuid: safeText(36).length(36),
  answers: z.record(dbIdKey, z.unknown()),
});

/** An answer the server refused to take, and why (translated per request). */
interface RejectedAnswer {
  questionId: number;
  msg: MessageDescriptor;
}

/** Splits a request's answers into those the server can take and those it refuses (by question id order). */
function judgeAnswers(answers: Record<string, unknown>): { answers: AnswerBody["answers"]; rejected: RejectedAnswer[] } {
  const taken: AnswerBody["answers"] = {};
  const rejected: RejectedAnswer[] = [];
  for (const [id, answer] of Object.entries(answers)) {
    const parsed = givenAnswerSchema.safeParse(answer);
    if (parsed.success) taken[id] = parsed.data;
    else {
      rejected.push({
        questionId: Number(id),
        msg: hasUnsafeText(answer)
          ? msg`This answer holds a character that cannot be saved (a NUL or a broken character): it was not saved`
          : msg`This answer is too long or not in a form an answer takes: it was not saved`,
      });
    }
  }
  return { answers: taken, rejected };
}

export type Taken = { late: false; saved: number; result: { score: number; passed: boolean } | null } | ({ late: true } & LateOutcome);

/**
 * Takes answers into an official attempt, inside the caller's transaction (the attempt row is
 * locked here): the save and submit routes, and the `official.answer` sync op.
 * Until deadline + grace every answer to a question of the attempt counts (made "now" unless
 * the device says earlier; of two answers to a question the one made later wins, whatever
 * order they arrive in). After that the attempt is closed and graded with what reached it in
 * time, and every answer the server does not hold yet is late (late.ts).
 */
export async function takeOfficialAnswers(tx: Queryable, memberId: number, body: AnswerBody, submit: boolean): Promise<Taken> {
  if (submit) {
    const merged = await mergeInTime(tx, memberId, body, true);
    if (merged) return { late: false, saved: merged.saved, result: await finish(tx, merged.attempt, "submitted") };
  } else {
    const merged = await mergeInTime(tx, memberId, body);
    if (merged) return { late: false, saved: merged.saved, result: null };
  }
  // Not an open attempt in time: why not, under the row lock (unknown, submitted, or late).
  const attempt = await lockOfficialAttempt(tx, memberId, body.uuid);
  if (!attempt) throw new ApiError(msg`This exam record does not exist`);
  // `closed`: the device keeps nothing more to send for this attempt.
  if (attempt.status === "submitted") throw new ApiError(msg`This exam has already been submitted`, 0, { closed: true });
  const nowMs = Date.now();
  const deadlineMs = Number(attempt.deadline) * 1000;
  const late = attempt.status === "expired" || nowMs > deadlineMs + SUBMIT_GRACE_SECONDS * 1000;

  if (late) {
    const outcome = await takeLateAnswers(tx, attempt, body.answers, body.answeredAt, nowMs);
    if (attempt.status === "open") await finish(tx, attempt, "expired");
    return { late: true, ...outcome };
  }

  const inAttempt = new Set(attempt.questions.map((q) => String(q.id)));
  const answers: Record<string, unknown> = { ...attempt.answers };
  const times: Record<string, number> = { ...attempt.answer_times };
  let saved = 0;
  for (const [id, answer] of Object.entries(body.answers)) {
    if (!inAttempt.has(id)) continue;
    saved++;
    const madeAt = Math.min(body.answeredAt?.[id] ?? nowMs, nowMs);
    if ((times[id] ?? 0) > madeAt) continue; // the server holds a later answer to this question
    answers[id] = answer;
    times[id] = madeAt;
  }
  await saveAttemptAnswers(tx, attempt.id, answers, times, nowMs);
  return { late: false, saved, result: submit ? await finish(tx, { ...attempt, answers }, "submitted") : null };
}

export type OfficialAnswerOutcome = "taken" | "held" | "unknown-attempt" | "not-in-attempt" | "submitted" | "refused";

/**
 * One answer of an `official.answer` sync op (inside the op's transaction): taken as by the save
 * route (in time, or kept for a marker when late), or said why not. An answer the server holds
 * already, or one older than the answer it holds, is `held` (a retried or reordered op, or one
 * the submission carried): nothing changes and nothing is refused.
 */
export async function officialAnswerOp(tx: Queryable, memberId: number, payload: OpPayload<"official.answer">): Promise<OfficialAnswerOutcome> {
  const { uuid, questionId, answer, answeredAt } = payload;
  const key = String(questionId);
  const given = givenOfOp(payload);
  // An open attempt in time (nearly every answer): the save's one UPDATE, which keeps the answer
  // only when it is for a question of the attempt and no earlier than the one held (a retried
  // or reordered op changes nothing); `saved` 0: not a question of the attempt. Otherwise
  // nothing was changed, and why is found under the row lock below.
  const merged = await mergeInTime(tx, memberId, given);
  if (merged) return merged.saved > 0 ? "taken" : "not-in-attempt";
  const held = await lockAnswerState(tx, memberId, uuid);
  if (!held) return "unknown-attempt";
  if (!held.questions.some((q) => q.id === questionId)) return "not-in-attempt";
  const heldLater = (held.answer_times[key] ?? -1) >= answeredAt;
  if (held.status === "submitted") return heldLater || JSON.stringify(held.answers[key]) === JSON.stringify(answer) ? "held" : "submitted";
  if (heldLater) return "held";
  const taken = await takeOfficialAnswers(tx, memberId, given, false);
  return taken.late && taken.refused > 0 ? "refused" : "taken";
}

/**
 * An `official.answer` op alone in its sync batch, taken in one statement when it is in time
 * (official.repository.ts `answerOpAlone`): true when applied and recorded; false when the batch
 * must take the general path (which records it and answers why, or `duplicate`).
 */
export async function officialAnswerOpAlone(db: Queryable, memberId: number, op: { id: string; at: number; payload: OpPayload<"official.answer"> }): Promise<boolean> {
  return (await answerOpAlone(db, memberId, op.id, op.at, givenOfOp(op.payload))) === "applied";
}

/** An answer op's payload as the answers a save brings. */
function givenOfOp({ uuid, questionId, answer, answeredAt }: OpPayload<"official.answer">): AnswerBody {
  const key = String(questionId);
  return { uuid, answers: { [key]: answer }, answeredAt: { [key]: answeredAt } };
}

/** The attempt is closed (time up): the device stops sending it; `pendingReview` late answers wait for a marker. */
function closedError(taken: LateOutcome, rejected: { questionId: number; msg: string }[]): ApiError {
  const data = { closed: true, pendingReview: taken.pending, refused: taken.refused, rejected };
  if (taken.pending > 0) {
    return new ApiError(
      msg`The time for this exam is up. Answers that reached the server after the deadline wait for a marker's review; until then your score counts only the answers that arrived in time.`,
      0,
      data,
    );
  }
  if (taken.refused > 0) return new ApiError(msg`The time for this exam is up: answers that reached the server after the deadline were not accepted.`, 0, data);
  return new ApiError(msg`The time for this exam is up: it was submitted with the answers saved before the deadline`, 0, data);
}

/** `POST /api/exam/official/start`, `/save`, `/submit` (a member's own: auth declared by the module). */
export async function officialRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post("/api/exam/official/start", { schema: { body: jsonBody(z.object({ roomId: dbId })) } }, async (req, reply) => {
    const { attempt, room, questions, face } = await startAttempt(db, req.member!, req.body.roomId);
    return reply.success({
      attempt: { uuid: attempt.uuid, roomId: room.id, roomTitle: room.title, paperId: attempt.paper_id, startedAt: Number(attempt.started_at), deadline: Number(attempt.deadline), serverTime: nowSeconds(), answers: attempt.answers },
      questions,
      face,
    });
  });

  // Each answer is judged on its own (`judgeAnswers`): one the server cannot store is refused
  // alone, listed in `rejected` with why, and the others are taken.
  const perAnswer = { judgesTextPerItem: true };

  api.post("/api/exam/official/save", { config: perAnswer, schema: { body: jsonBody(answerRequest) } }, async (req, reply) => {
    const { answers, rejected } = judgeAnswers(req.body.answers);
    const body = { ...req.body, answers };
    const refusedAnswers = rejected.map((r) => ({ questionId: r.questionId, msg: req.t(r.msg) }));
    // In time: the one UPDATE on its own (its own transaction); else the full path under the row lock.
    const merged = await mergeInTime(db, req.member!.id, body);
    const taken: Taken = merged ? { late: false, saved: merged.saved, result: null } : await db.transaction((tx) => takeOfficialAnswers(tx, req.member!.id, body, false));
    if (taken.late) throw closedError(taken, refusedAnswers);
    return reply.success({ saved: taken.saved, refused: 0, late: false, rejected: refusedAnswers });
  });

  api.post("/api/exam/official/submit", { config: perAnswer, schema: { body: jsonBody(answerRequest.partial({ answers: true })) } }, async (req, reply) => {
    const { answers, rejected } = judgeAnswers(req.body.answers ?? {});
    const refusedAnswers = rejected.map((r) => ({ questionId: r.questionId, msg: req.t(r.msg) }));
    const taken = await db.transaction((tx) => takeOfficialAnswers(tx, req.member!.id, { ...req.body, answers }, true));
    if (taken.late) throw closedError(taken, refusedAnswers);
    return reply.success({ uuid: req.body.uuid, ...taken.result!, late: false, rejected: refusedAnswers }, msg`Submitted`);
  });
}
