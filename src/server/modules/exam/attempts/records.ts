import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { GivenAnswer } from "../../../../shared/exam/types.ts";
import type { ExamRecordDetail, ExamRecordRow } from "../../../../shared/exam/catalog.ts";
import { dbIntParam } from "../../../../shared/schema.ts";
import type { Queryable } from "../../../db/index.ts";
import { ApiError } from "../../../errors.ts";
import { presentQuestion } from "../questions.ts";
import { withheldQuestions } from "../withheld.ts";
import { closeExpired, nowSeconds } from "./attempt.ts";
import { givenMarks, marksOf } from "./marks.ts";
import { gradeAttempt } from "./grading.ts";
import { pendingReview } from "./late.ts";
import { satIds, satQuestions, snapshotOf } from "./snapshot.ts";
import { memberAttemptByUuid, memberAttemptCount, memberAttemptsPage, roomReview } from "./repository.ts";

/**
 * Test records: the member's own attempts, mock and official (`GET /api/exam/records`), and one
 * of them with its questions (`GET /api/exam/record?uuid=`). Official attempts whose time is up
 * are closed first, so a record never shows an attempt as open after its deadline.
 */

/** When staff regraded the attempt (regrade.ts, migration 0041), or null. */
const regradedAt = (a: { regraded_at?: number | string | null }): number | null => (a.regraded_at === null || a.regraded_at === undefined ? null : Number(a.regraded_at));

/** A page of the member's attempts, newest first. */
async function listRecords(db: Queryable, userId: number, page: number, limit: number): Promise<{ list: ExamRecordRow[]; total: number }> {
  const total = await memberAttemptCount(db, userId);
  const rows = await memberAttemptsPage(db, userId, limit, (page - 1) * limit);
  const pending = await pendingReview(db, rows.map((a) => a.id));
  return {
    list: rows.map((a) => ({
      id: a.id,
      uuid: a.uuid,
      kind: a.kind,
      paperId: a.paper_id,
      paperTitle: a.paper_title,
      roomTitle: a.room_title,
      score: a.score,
      totalScore: Number(a.total_score),
      passed: a.passed,
      startedAt: Number(a.started_at),
      submittedAt: a.submitted_at === null ? null : Number(a.submitted_at),
      status: a.status,
      pendingReview: pending.get(a.id) ?? 0,
      regradedAt: regradedAt(a),
    })),
    total,
  };
}

/**
 * One of the member's attempts with its questions, answers and results, or null. Answers,
 * analysis and results only after submission; never for a question an official exam keeps to
 * itself, except in that exam's own records as its room's review policy allows (`review_policy`:
 * after submission, after the room closes, or never). A marker's score and comment on a short
 * answer (`reviews`) are the member's own and shown once the attempt is finished, whatever the policy.
 */
async function recordDetail(db: Queryable, userId: number, uuid: string): Promise<ExamRecordDetail | null> {
  const attempt = await memberAttemptByUuid(db, userId, uuid);
  if (!attempt) return null;
  // Only what the attempt sat (snapshot.ts): its questions as given, the paper's points and rules.
  const sat = (await snapshotOf(db, attempt.id))!;
  // 'closed': once the room has closed for everyone, members given extra time included (migration 0043).
  const room = attempt.room_id ? await roomReview(db, attempt.room_id) : undefined;
  const policyAllows = room?.review_policy === "submitted" || (room?.review_policy === "closed" && nowSeconds() >= Number(room.closes_at));
  const finished = attempt.status !== "open";
  const ids = satIds(sat);
  const withheld = await withheldQuestions(db, ids);
  const reveal = (id: number) => {
    if (!finished) return false;
    const rooms = withheld.get(id) ?? [];
    if (attempt.kind === "mock") return rooms.length === 0;
    return policyAllows && rooms.every((r) => r === null || r === attempt.room_id);
  };
  const graded = finished
    ? gradeAttempt(satQuestions(sat), attempt.answers, { partialCredit: sat.paper.partialCredit, passScore: sat.paper.passScore }, ids, await givenMarks(db, attempt.id))
    : null;
  const marks = finished ? await marksOf(db, attempt.id) : {};
  const pending = await pendingReview(db, [attempt.id]);
  return {
    attempt: {
      uuid: attempt.uuid,
      kind: attempt.kind,
      paperId: attempt.paper_id,
      paperTitle: attempt.paper_title,
      roomTitle: attempt.room_title,
      score: attempt.score,
      passed: attempt.passed,
      startedAt: Number(attempt.started_at),
      submittedAt: attempt.submitted_at === null ? null : Number(attempt.submitted_at),
      deadline: attempt.deadline === null ? null : Number(attempt.deadline),
      status: attempt.status,
      totalScore: sat.paper.totalScore,
      passScore: sat.paper.passScore,
      pendingReview: pending.get(attempt.id) ?? 0,
      regradedAt: regradedAt(attempt),
      answersShownAt: room?.review_policy === "closed" && !policyAllows ? Number(room.closes_at) : null,
    },
    // Each with the points the paper gave it (they add up to the paper's total).
    questions: sat.questions.flatMap((q) => (q.missing ? [] : [presentQuestion(q, reveal(q.id))])),
    answers: attempt.answers as Record<string, GivenAnswer>,
    results: graded ? Object.fromEntries(Object.entries(graded.results).filter(([id]) => reveal(Number(id)))) : {},
    reviews: Object.fromEntries(Object.entries(marks).map(([id, m]) => [id, m.marked ? { score: m.score, comment: m.comment } : { score: null, comment: "" }])),
  };
}

/** `GET /api/exam/records` and `GET /api/exam/record` (a member's own: auth declared by the module). */
export async function recordRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();

  const listQuery = z.object({ page: dbIntParam(1, 100_000).default(1), limit: dbIntParam(1, 100).default(10) });
  api.get("/api/exam/records", { schema: { querystring: listQuery } }, async (req, reply) => {
    const member = req.member!;
    await closeExpired(db, member.id);
    return reply.success<{ list: ExamRecordRow[]; total: number }>(await listRecords(db, member.id, req.query.page, req.query.limit));
  });

  api.get("/api/exam/record", { schema: { querystring: z.object({ uuid: z.string().length(36) }) } }, async (req, reply) => {
    const member = req.member!;
    await closeExpired(db, member.id);
    const detail = await recordDetail(db, member.id, req.query.uuid);
    if (!detail) throw new ApiError(msg`This exam record does not exist`);
    return reply.success<ExamRecordDetail>(detail);
  });
}
