import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { gradeAnswer, isAnswerShape } from "../../../shared/exam/grading.ts";
import type { GivenAnswer } from "../../../shared/exam/types.ts";
import type { ExamRecordDetail, ExamRecordRow } from "../../../shared/exam/catalog.ts";
import { givenAnswerSchema } from "../../../shared/exam/sync.ts";
import { dbId, dbIdKey, dbIdParam, dbIntParam } from "../../../shared/schema.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { requireMember, type MemberRow } from "../../plugins/auth.ts";
import { presentQuestion, type QuestionRow } from "./questions.ts";

/** Seconds after an official deadline that a save or submission is still accepted (network lag). */
export const SUBMIT_GRACE_SECONDS = 60;
/**
 * How long after an official deadline answers made BEFORE it are still taken in: a device that
 * lost its connection mid-exam keeps its answers and sends them when the network returns.
 */
export const LATE_SYNC_SECONDS = 24 * 3600;
/** How far a device's claimed answer time may lie before the attempt's start (clock error). */
const ANSWER_TIME_SLACK_MS = 60_000;

export interface PaperRow {
  id: number;
  title: string;
  total_score: number;
  pass_score: number;
  duration: number;
  partial_credit: boolean;
  shuffle_options: boolean;
}

type PaperRowSpec =
  | { kind: "fixed"; questionId: number; score: number }
  | { kind: "draw"; classifyId: number; questionType: string; count: number; score: number };

const QUESTION_COLUMNS = "id, classify_id, type, stem, options, answer, analysis, difficulty, score";
const now = () => Math.floor(Date.now() / 1000);

export async function loadPaper(db: Queryable, id: number): Promise<{ paper: PaperRow; rows: PaperRowSpec[] } | null> {
  const p = await db.query<PaperRow>("select id, title, total_score, pass_score, duration, partial_credit, shuffle_options from exam_paper where id = $1 and status = 'enable'", [id]);
  if (!p.rows[0]) return null;
  const r = await db.query<{ kind: "fixed" | "draw"; question_id: number | null; classify_id: number | null; question_type: string | null; count: number; score: number }>(
    "select kind, question_id, classify_id, question_type, count, score from exam_paper_row where paper_id = $1 order by weigh desc, id",
    [id],
  );
  const rows = r.rows.map((row): PaperRowSpec =>
    row.kind === "fixed"
      ? { kind: "fixed", questionId: row.question_id!, score: Number(row.score) }
      : { kind: "draw", classifyId: row.classify_id!, questionType: row.question_type ?? "single", count: row.count, score: Number(row.score) },
  );
  return { paper: p.rows[0], rows };
}

/** The score of each question a paper may contain (fixed ids, or every question a draw row could pick). */
async function paperScores(db: Queryable, rows: PaperRowSpec[]): Promise<Map<number, { row: QuestionRow; score: number }>> {
  const out = new Map<number, { row: QuestionRow; score: number }>();
  for (const spec of rows) {
    const { rows: qs } =
      spec.kind === "fixed"
        ? await db.query<QuestionRow>(`select ${QUESTION_COLUMNS} from exam_question where id = $1`, [spec.questionId])
        : await db.query<QuestionRow>(`select ${QUESTION_COLUMNS} from exam_question where classify_id = $1 and type = $2 and status = 'enable'`, [
            spec.classifyId,
            spec.questionType,
          ]);
    for (const q of qs) out.set(q.id, { row: q, score: spec.score });
  }
  return out;
}

/** Grades answers against a paper: only questions the paper can contain count. */
async function gradeAttempt(db: Queryable, paper: PaperRow, rows: PaperRowSpec[], answers: Record<string, unknown>, questionIds?: number[]) {
  const allowed = await paperScores(db, rows);
  const ids = questionIds ?? Object.keys(answers).map(Number);
  const results: Record<string, { correct: boolean | null; score: number }> = {};
  let score = 0;
  let needsReview = false;
  for (const id of ids) {
    const entry = allowed.get(id);
    if (!entry) continue;
    const given = answers[String(id)];
    const graded =
      given === undefined || !isAnswerShape(entry.row.type, given)
        ? { correct: false, score: 0 }
        : gradeAnswer({ type: entry.row.type, answer: entry.row.answer, score: entry.score }, given, { partialCredit: paper.partial_credit });
    results[String(id)] = graded;
    score += graded.score;
    if (graded.correct === null) needsReview = true;
  }
  score = Math.round(score * 100) / 100;
  return { results, score, passed: score >= Number(paper.pass_score), needsReview };
}

/** Applies an `attempt.submit` op (a mock attempt taken on the device): the server grades again. */
export async function applyMockSubmit(
  tx: Queryable,
  userId: number,
  payload: { attemptId: string; paperId: number; startedAt: number; submittedAt: number; answers: Record<string, unknown> },
): Promise<"applied" | "unknown-paper"> {
  const loaded = await loadPaper(tx, payload.paperId);
  if (!loaded) return "unknown-paper";
  const graded = await gradeAttempt(tx, loaded.paper, loaded.rows, payload.answers);
  const questions = Object.keys(graded.results).map((id) => ({ id: Number(id) }));
  await tx.query(
    `insert into exam_attempt (uuid, user_id, kind, paper_id, questions, answers, score, passed, needs_review, started_at, submitted_at, status)
     values ($1, $2, 'mock', $3, $4, $5, $6, $7, $8, $9, $10, 'submitted') on conflict (user_id, uuid) do nothing`,
    [
      payload.attemptId,
      userId,
      payload.paperId,
      JSON.stringify(questions),
      JSON.stringify(payload.answers),
      graded.score,
      graded.passed,
      graded.needsReview,
      Math.floor(payload.startedAt / 1000),
      Math.floor(payload.submittedAt / 1000),
    ],
  );
  return "applied";
}

interface AttemptRow {
  id: number;
  uuid: string;
  user_id: number;
  kind: "mock" | "official";
  paper_id: number;
  room_id: number | null;
  questions: { id: number }[];
  answers: Record<string, unknown>;
  /** Question id -> when the saved answer was made (server clock, ms). */
  answer_times: Record<string, number>;
  late_answers: number;
  score: number | null;
  passed: boolean | null;
  started_at: number;
  deadline: number | null;
  submitted_at: number | null;
  status: "open" | "submitted" | "expired";
}

/** Official attempts whose time is up are closed and graded with what was saved. */
export async function closeExpired(db: Queryable, userId: number): Promise<void> {
  const { rows } = await db.query<AttemptRow>(
    "select * from exam_attempt where user_id = $1 and kind = 'official' and status = 'open' and deadline + $2 < $3",
    [userId, SUBMIT_GRACE_SECONDS, now()],
  );
  for (const attempt of rows) await finish(db, attempt, "expired");
}

async function finish(db: Queryable, attempt: AttemptRow, status: "submitted" | "expired"): Promise<{ score: number; passed: boolean }> {
  const loaded = await loadPaper(db, attempt.paper_id);
  if (!loaded) throw new ApiError(msg`This paper no longer exists`);
  const room = attempt.room_id ? (await db.query<{ pass_score: number }>("select pass_score from exam_room where id = $1", [attempt.room_id])).rows[0] : undefined;
  const graded = await gradeAttempt(db, loaded.paper, loaded.rows, attempt.answers, attempt.questions.map((q) => q.id));
  const passed = graded.score >= Number(room?.pass_score ?? loaded.paper.pass_score);
  await db.query(
    // An expired attempt is graded again when answers made before its deadline arrive late.
    "update exam_attempt set score = $1, passed = $2, needs_review = $3, status = $4, submitted_at = $5 where id = $6 and status <> 'submitted'",
    [graded.score, passed, graded.needsReview, status, status === "expired" ? attempt.deadline : now(), attempt.id],
  );
  return { score: graded.score, passed };
}

function shuffle<T>(list: T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function drawForPaper(db: Queryable, rows: PaperRowSpec[]): Promise<{ row: QuestionRow; score: number }[]> {
  const out: { row: QuestionRow; score: number }[] = [];
  for (const spec of rows) {
    if (spec.kind === "fixed") {
      const { rows: qs } = await db.query<QuestionRow>(`select ${QUESTION_COLUMNS} from exam_question where id = $1 and status = 'enable'`, [spec.questionId]);
      if (qs[0]) out.push({ row: qs[0], score: spec.score });
    } else {
      const { rows: qs } = await db.query<QuestionRow>(`select ${QUESTION_COLUMNS} from exam_question where classify_id = $1 and type = $2 and status = 'enable'`, [
        spec.classifyId,
        spec.questionType,
      ]);
      for (const q of shuffle(qs).slice(0, spec.count)) out.push({ row: q, score: spec.score });
    }
  }
  return out;
}

const answersSchema = z.record(dbIdKey, givenAnswerSchema);

/** Mock papers, records, and official exams on the server's clock. */
export async function attemptRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get("/api/exam/paper", async (req, reply) => {
    await requireMember(db, req);
    const q = z.object({ id: dbIdParam }).safeParse(req.query);
    if (!q.success) throw new ApiError(msg`Incorrect parameter!`);
    const loaded = await loadPaper(db, q.data.id);
    if (!loaded) throw new ApiError(msg`This paper does not exist`);
    const { paper, rows } = loaded;
    const fixedBanks = await db.query<{ classify_id: number }>(
      "select distinct q.classify_id from exam_question q join exam_paper_row r on r.question_id = q.id where r.paper_id = $1",
      [paper.id],
    );
    const banks = [...new Set([...fixedBanks.rows.map((r) => r.classify_id), ...rows.flatMap((r) => (r.kind === "draw" ? [r.classifyId] : []))])];
    return reply.success({
      paper: {
        id: paper.id,
        title: paper.title,
        totalScore: Number(paper.total_score),
        passScore: Number(paper.pass_score),
        duration: paper.duration,
        partialCredit: paper.partial_credit,
        shuffleOptions: paper.shuffle_options,
      },
      rows,
      banks,
    });
  });

  app.get("/api/exam/records", async (req, reply) => {
    const member = await requireMember(db, req);
    await closeExpired(db, member.id);
    const q = z.object({ page: dbIntParam(1, 100_000).default(1), limit: dbIntParam(1, 100).default(10) }).safeParse(req.query);
    if (!q.success) throw new ApiError(msg`Incorrect parameter!`);
    const total = await db.query<{ n: number }>("select count(*)::int as n from exam_attempt where user_id = $1", [member.id]);
    const { rows } = await db.query<AttemptRow & { paper_title: string }>(
      `select a.*, p.title as paper_title from exam_attempt a join exam_paper p on p.id = a.paper_id
       where a.user_id = $1 order by a.started_at desc, a.id desc limit $2 offset $3`,
      [member.id, q.data.limit, (q.data.page - 1) * q.data.limit],
    );
    return reply.success<{ list: ExamRecordRow[]; total: number }>({
      list: rows.map((a) => ({
        id: a.id,
        uuid: a.uuid,
        kind: a.kind,
        paperId: a.paper_id,
        paperTitle: a.paper_title,
        score: a.score,
        passed: a.passed,
        startedAt: Number(a.started_at),
        submittedAt: a.submitted_at === null ? null : Number(a.submitted_at),
        status: a.status,
      })),
      total: total.rows[0]?.n ?? 0,
    });
  });

  app.get("/api/exam/record", async (req, reply) => {
    const member = await requireMember(db, req);
    await closeExpired(db, member.id);
    const q = z.object({ uuid: z.string().length(36) }).safeParse(req.query);
    if (!q.success) throw new ApiError(msg`Incorrect parameter!`);
    const { rows } = await db.query<AttemptRow & { paper_title: string; total_score: number; pass_score: number }>(
      `select a.*, p.title as paper_title, p.total_score, p.pass_score from exam_attempt a join exam_paper p on p.id = a.paper_id
       where a.user_id = $1 and a.uuid = $2`,
      [member.id, q.data.uuid],
    );
    const attempt = rows[0];
    if (!attempt) throw new ApiError(msg`This exam record does not exist`);
    const room = attempt.room_id ? (await db.query<{ show_answers: boolean }>("select show_answers from exam_room where id = $1", [attempt.room_id])).rows[0] : undefined;
    const finished = attempt.status !== "open";
    // Answers and analysis only after submission, and for official exams only as the room allows.
    const reveal = finished && (attempt.kind === "mock" || room?.show_answers === true);
    const ids = attempt.questions.map((x) => x.id);
    const qs = ids.length ? (await db.query<QuestionRow>(`select ${QUESTION_COLUMNS} from exam_question where id = any($1::int[])`, [ids])).rows : [];
    const byId = new Map(qs.map((x) => [x.id, x]));
    const loaded = await loadPaper(db, attempt.paper_id);
    const graded = finished && loaded ? await gradeAttempt(db, loaded.paper, loaded.rows, attempt.answers, ids) : null;
    return reply.success<ExamRecordDetail>({
      attempt: {
        uuid: attempt.uuid,
        kind: attempt.kind,
        paperId: attempt.paper_id,
        paperTitle: attempt.paper_title,
        score: attempt.score,
        passed: attempt.passed,
        startedAt: Number(attempt.started_at),
        submittedAt: attempt.submitted_at === null ? null : Number(attempt.submitted_at),
        deadline: attempt.deadline === null ? null : Number(attempt.deadline),
        status: attempt.status,
        totalScore: Number(attempt.total_score),
        passScore: Number(attempt.pass_score),
      },
      questions: ids.flatMap((id) => (byId.has(id) ? [presentQuestion(byId.get(id)!, reveal)] : [])),
      answers: attempt.answers as Record<string, GivenAnswer>,
      results: reveal && graded ? graded.results : {},
    });
  });

  // ---------------------------------------------------------------- official exams

  async function openRoom(member: MemberRow, roomId: number) {
    const { rows } = await db.query<{ id: number; paper_id: number; start_time: number; end_time: number; duration: number; attempts_allowed: number; user_group_id: number | null }>(
      "select * from exam_room where id = $1 and status = 'enable'",
      [roomId],
    );
    const room = rows[0];
    if (!room || (room.user_group_id !== null && room.user_group_id !== member.group_id)) throw new ApiError(msg`This exam is not open to you`);
    const t = now();
    if (t < Number(room.start_time)) throw new ApiError(msg`This exam has not started yet`);
    if (t >= Number(room.end_time)) throw new ApiError(msg`This exam has ended`);
    return room;
  }

  app.post("/api/exam/official/start", async (req, reply) => {
    const member = await requireMember(db, req);
    await closeExpired(db, member.id);
    const body = z.object({ roomId: dbId }).safeParse(req.body ?? {});
    if (!body.success) throw new ApiError(msg`Incorrect parameter!`);
    const room = await openRoom(member, body.data.roomId);
    const existing = await db.query<AttemptRow>("select * from exam_attempt where user_id = $1 and room_id = $2 order by id", [member.id, room.id]);
    let attempt = existing.rows.find((a) => a.status === "open");
    if (!attempt) {
      if (existing.rows.length >= room.attempts_allowed) throw new ApiError(msg`You have used all your attempts at this exam`);
      const loaded = await loadPaper(db, room.paper_id);
      if (!loaded) throw new ApiError(msg`This paper does not exist`);
      const drawn = await drawForPaper(db, loaded.rows);
      const t = now();
      const deadline = Math.min(t + room.duration, Number(room.end_time));
      const inserted = await db.query<AttemptRow>(
        `insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, questions, answers, started_at, deadline, status)
         values ($1, $2, 'official', $3, $4, $5, '{}', $6, $7, 'open') returning *`,
        [randomUUID(), member.id, room.paper_id, room.id, JSON.stringify(drawn.map((d) => ({ id: d.row.id, score: d.score }))), t, deadline],
      );
      attempt = inserted.rows[0]!;
    }
    const ids = attempt.questions.map((q) => q.id);
    const qs = (await db.query<QuestionRow>(`select ${QUESTION_COLUMNS} from exam_question where id = any($1::int[])`, [ids])).rows;
    const byId = new Map(qs.map((q) => [q.id, q]));
    return reply.success({
      attempt: { uuid: attempt.uuid, roomId: room.id, paperId: attempt.paper_id, startedAt: Number(attempt.started_at), deadline: Number(attempt.deadline), serverTime: now(), answers: attempt.answers },
      // Official questions travel without answers or analysis.
      questions: ids.flatMap((id) => (byId.has(id) ? [presentQuestion(byId.get(id)!, false)] : [])),
    });
  });

  const answerBody = z.object({
    uuid: z.string().length(36),
    answers: answersSchema,
    /** Question id -> when the answer was made, ms on the server's clock as the device measured it. */
    answeredAt: z.record(dbIdKey, z.number().int().nonnegative()).optional(),
  });
  type AnswerBody = z.infer<typeof answerBody>;

  /**
   * Takes answers into an official attempt, in one transaction with the attempt row locked.
   * Until deadline + grace every answer counts (made "now" unless the device says earlier).
   * After that, and until LATE_SYNC_SECONDS past the deadline, only answers the device says it
   * made before the deadline count (the connection dropped mid-exam); the attempt is closed
   * (or graded again) with them and they are counted as late for review. Of two answers to the
   * same question the one made later wins, whatever order they arrive in.
   */
  async function takeAnswers(member: MemberRow, body: AnswerBody, submit: boolean) {
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<AttemptRow>("select * from exam_attempt where user_id = $1 and uuid = $2 and kind = 'official' for update", [member.id, body.uuid]);
      const attempt = rows[0];
      if (!attempt) throw new ApiError(msg`This exam record does not exist`);
      if (attempt.status === "submitted") throw new ApiError(msg`This exam has already been submitted`);
      const nowMs = Date.now();
      const deadlineMs = Number(attempt.deadline) * 1000;
      const late = attempt.status === "expired" || nowMs > deadlineMs + SUBMIT_GRACE_SECONDS * 1000;
      const tooLate = nowMs > deadlineMs + LATE_SYNC_SECONDS * 1000;
      const answers: Record<string, unknown> = { ...attempt.answers };
      const times: Record<string, number> = { ...attempt.answer_times };
      let accepted = 0;
      let refused = 0;
      for (const [id, answer] of Object.entries(body.answers)) {
        const claimed = body.answeredAt?.[id];
        const madeAt = Math.min(claimed ?? nowMs, nowMs);
        const inTime = !late || (!tooLate && claimed !== undefined && madeAt <= deadlineMs && madeAt >= Number(attempt.started_at) * 1000 - ANSWER_TIME_SLACK_MS);
        if (!inTime) {
          refused++;
          continue;
        }
        accepted++;
        if ((times[id] ?? 0) > madeAt) continue; // the server holds a later answer to this question
        answers[id] = answer;
        times[id] = madeAt;
      }
      await tx.query("update exam_attempt set answers = $1, answer_times = $2, late_answers = late_answers + $3 where id = $4", [
        JSON.stringify(answers),
        JSON.stringify(times),
        late ? accepted : 0,
        attempt.id,
      ]);
      const updated = { ...attempt, answers };
      if (late) {
        const result = await finish(tx, updated, "expired");
        return { late: true as const, accepted, refused, result };
      }
      return { late: false as const, accepted, refused, result: submit ? await finish(tx, updated, "submitted") : null };
    });
  }

  const TIME_UP = () => msg`The time for this exam is up: it was submitted with the answers saved before the deadline`;

  app.post("/api/exam/official/save", async (req, reply) => {
    const member = await requireMember(db, req);
    const body = answerBody.safeParse(req.body ?? {});
    if (!body.success) throw new ApiError(msg`Incorrect parameter!`);
    const outcome = await takeAnswers(member, body.data, false);
    if (outcome.late && outcome.accepted === 0 && outcome.refused > 0) throw new ApiError(TIME_UP(), 0, { closed: true });
    return reply.success({ saved: outcome.accepted, refused: outcome.refused, late: outcome.late });
  });

  app.post("/api/exam/official/submit", async (req, reply) => {
    const member = await requireMember(db, req);
    const body = answerBody.partial({ answers: true }).safeParse(req.body ?? {});
    if (!body.success) throw new ApiError(msg`Incorrect parameter!`);
    const outcome = await takeAnswers(member, { ...body.data, answers: body.data.answers ?? {} }, true);
    // The attempt is closed and graded either way; `closed` tells the device to stop sending it.
    if (outcome.late && (outcome.refused > 0 || outcome.accepted === 0)) throw new ApiError(TIME_UP(), 0, { closed: true });
    const result = outcome.result!;
    if (outcome.late) {
      return reply.success({ uuid: body.data.uuid, ...result, late: true }, msg`The time was up: your answers made before the deadline were counted`);
    }
    return reply.success({ uuid: body.data.uuid, ...result, late: false }, msg`Submitted`);
  });
}
