import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { gradeAnswer, isAnswerShape } from "../../../shared/exam/grading.ts";
import type { GivenAnswer } from "../../../shared/exam/types.ts";
import type { ExamRecordDetail, ExamRecordRow } from "../../../shared/exam/catalog.ts";
import { givenAnswerSchema } from "../../../shared/exam/sync.ts";
import { dbId, dbIdKey, dbIdParam, dbIntParam } from "../../../shared/schema.ts";
import type { Database, Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { requireMember, type MemberRow } from "../../plugins/auth.ts";
import { presentQuestion, type QuestionRow } from "./questions.ts";
import { isPaperWithheld, withheldQuestions } from "./withheld.ts";

/**
 * Seconds after an official deadline that a save or submission is still taken in (network lag).
 * Answers that reach the server later are never graded on the device's word: the room's
 * `late_policy` keeps them for a marker (`exam_late_answer`, see `decideLateAnswer`) or refuses them.
 */
export const SUBMIT_GRACE_SECONDS = 60;
/** The latest time a JavaScript date can hold (ms): claimed times are kept within it. */
const MAX_TIME_MS = 8_640_000_000_000_000;

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
): Promise<"applied" | "unknown-paper" | "withheld-paper"> {
  const loaded = await loadPaper(tx, payload.paperId);
  if (!loaded) return "unknown-paper";
  // A mock attempt would reveal (in its record) what an official exam must keep to itself.
  if (await isPaperWithheld(tx, payload.paperId)) return "withheld-paper";
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
  /** When the server last heard from the device in time (ms), or null before 0008. */
  last_seen_at: number | null;
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

/** Grades an attempt with the answers it holds (those that reached the server in time, and accepted late ones). */
async function gradeHeld(db: Queryable, attempt: AttemptRow): Promise<{ score: number; passed: boolean; needsReview: boolean }> {
  const loaded = await loadPaper(db, attempt.paper_id);
  if (!loaded) throw new ApiError(msg`This paper no longer exists`);
  const room = attempt.room_id ? (await db.query<{ pass_score: number }>("select pass_score from exam_room where id = $1", [attempt.room_id])).rows[0] : undefined;
  const graded = await gradeAttempt(db, loaded.paper, loaded.rows, attempt.answers, attempt.questions.map((q) => q.id));
  return { score: graded.score, passed: graded.score >= Number(room?.pass_score ?? loaded.paper.pass_score), needsReview: graded.needsReview };
}

async function finish(db: Queryable, attempt: AttemptRow, status: "submitted" | "expired"): Promise<{ score: number; passed: boolean }> {
  const graded = await gradeHeld(db, attempt);
  await db.query("update exam_attempt set score = $1, passed = $2, needs_review = $3, status = $4, submitted_at = $5 where id = $6 and status = 'open'", [
    graded.score,
    graded.passed,
    graded.needsReview,
    status,
    status === "expired" ? attempt.deadline : now(),
    attempt.id,
  ]);
  return { score: graded.score, passed: graded.passed };
}

/** Pending late answers per attempt (the member sees that they wait for review). */
async function pendingReview(db: Queryable, attemptIds: number[]): Promise<Map<number, number>> {
  if (attemptIds.length === 0) return new Map();
  const { rows } = await db.query<{ attempt_id: number; n: number }>(
    "select attempt_id, count(*)::int as n from exam_late_answer where attempt_id = any($1::int[]) and status = 'pending' group by attempt_id",
    [attemptIds],
  );
  return new Map(rows.map((r) => [r.attempt_id, r.n]));
}

export type LateDecision = "accepted" | "rejected";

/**
 * A marker's decision on one late official answer (`exam_late_answer`), in one transaction:
 * accepted, the answer counts as if it had reached the server in time (of two answers to a
 * question the later one wins) and the attempt is graded again; rejected, it stays out. A
 * decision is final. For the back office (issues 13/14): no HTTP endpoint calls it yet.
 */
export async function decideLateAnswer(
  db: Database,
  lateAnswerId: number,
  decision: LateDecision,
  adminId: number | null = null,
): Promise<{ outcome: "decided"; score: number; passed: boolean } | { outcome: "unknown" | "already-decided" }> {
  return db.transaction(async (tx) => {
    const late = (
      await tx.query<{ id: number; attempt_id: number; question_id: number; answer: unknown; claimed_at: number | null; received_at: number; status: string }>(
        "select * from exam_late_answer where id = $1 for update",
        [lateAnswerId],
      )
    ).rows[0];
    if (!late) return { outcome: "unknown" as const };
    if (late.status !== "pending") return { outcome: "already-decided" as const };
    const attempt = (await tx.query<AttemptRow>("select * from exam_attempt where id = $1 for update", [late.attempt_id])).rows[0]!;
    if (decision === "accepted") {
      const key = String(late.question_id);
      const madeAt = Number(late.claimed_at ?? late.received_at);
      if ((attempt.answer_times[key] ?? -1) <= madeAt) {
        attempt.answers = { ...attempt.answers, [key]: late.answer };
        attempt.answer_times = { ...attempt.answer_times, [key]: madeAt };
        await tx.query("update exam_attempt set answers = $1, answer_times = $2 where id = $3", [JSON.stringify(attempt.answers), JSON.stringify(attempt.answer_times), attempt.id]);
      }
    }
    await tx.query("update exam_late_answer set status = $1, decided_at = $2, decided_by = $3 where id = $4", [decision, Date.now(), adminId, late.id]);
    const graded = await gradeHeld(tx, attempt);
    if (attempt.status !== "open") {
      await tx.query("update exam_attempt set score = $1, passed = $2, needs_review = $3 where id = $4", [graded.score, graded.passed, graded.needsReview, attempt.id]);
    }
    return { outcome: "decided" as const, score: graded.score, passed: graded.passed };
  });
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
    if (await isPaperWithheld(db, q.data.id)) throw new ApiError(msg`This paper is kept for an official exam and cannot be taken as a mock exam`);
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
    const { rows } = await db.query<AttemptRow & { paper_title: string; room_title: string | null }>(
      `select a.*, p.title as paper_title, r.title as room_title from exam_attempt a join exam_paper p on p.id = a.paper_id
       left join exam_room r on r.id = a.room_id
       where a.user_id = $1 order by a.started_at desc, a.id desc limit $2 offset $3`,
      [member.id, q.data.limit, (q.data.page - 1) * q.data.limit],
    );
    const pending = await pendingReview(db, rows.map((a) => a.id));
    return reply.success<{ list: ExamRecordRow[]; total: number }>({
      list: rows.map((a) => ({
        id: a.id,
        uuid: a.uuid,
        kind: a.kind,
        paperId: a.paper_id,
        paperTitle: a.paper_title,
        roomTitle: a.room_title,
        score: a.score,
        passed: a.passed,
        startedAt: Number(a.started_at),
        submittedAt: a.submitted_at === null ? null : Number(a.submitted_at),
        status: a.status,
        pendingReview: pending.get(a.id) ?? 0,
      })),
      total: total.rows[0]?.n ?? 0,
    });
  });

  app.get("/api/exam/record", async (req, reply) => {
    const member = await requireMember(db, req);
    await closeExpired(db, member.id);
    const q = z.object({ uuid: z.string().length(36) }).safeParse(req.query);
    if (!q.success) throw new ApiError(msg`Incorrect parameter!`);
    const { rows } = await db.query<AttemptRow & { paper_title: string; room_title: string | null; total_score: number; pass_score: number }>(
      // An official attempt passes by its room's pass mark (see gradeHeld), so that is the one shown.
      `select a.*, p.title as paper_title, r.title as room_title, p.total_score, coalesce(r.pass_score, p.pass_score) as pass_score
       from exam_attempt a join exam_paper p on p.id = a.paper_id
       left join exam_room r on r.id = a.room_id
       where a.user_id = $1 and a.uuid = $2`,
      [member.id, q.data.uuid],
    );
    const attempt = rows[0];
    if (!attempt) throw new ApiError(msg`This exam record does not exist`);
    const room = attempt.room_id ? (await db.query<{ show_answers: boolean }>("select show_answers from exam_room where id = $1", [attempt.room_id])).rows[0] : undefined;
    const finished = attempt.status !== "open";
    const ids = attempt.questions.map((x) => x.id);
    const withheld = await withheldQuestions(db, ids);
    // Answers, analysis and results only after submission; never for a question an official exam
    // keeps to itself, except in that exam's own records as its room allows (`show_answers`).
    const reveal = (id: number) => {
      if (!finished) return false;
      const rooms = withheld.get(id) ?? [];
      if (attempt.kind === "mock") return rooms.length === 0;
      return room?.show_answers === true && rooms.every((r) => r === null || r === attempt.room_id);
    };
    const qs = ids.length ? (await db.query<QuestionRow>(`select ${QUESTION_COLUMNS} from exam_question where id = any($1::int[])`, [ids])).rows : [];
    const byId = new Map(qs.map((x) => [x.id, x]));
    const loaded = await loadPaper(db, attempt.paper_id);
    const graded = finished && loaded ? await gradeAttempt(db, loaded.paper, loaded.rows, attempt.answers, ids) : null;
    const pending = await pendingReview(db, [attempt.id]);
    return reply.success<ExamRecordDetail>({
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
        totalScore: Number(attempt.total_score),
        passScore: Number(attempt.pass_score),
        pendingReview: pending.get(attempt.id) ?? 0,
      },
      questions: ids.flatMap((id) => (byId.has(id) ? [presentQuestion(byId.get(id)!, reveal(id))] : [])),
      answers: attempt.answers as Record<string, GivenAnswer>,
      results: graded ? Object.fromEntries(Object.entries(graded.results).filter(([id]) => reveal(Number(id)))) : {},
    });
  });

  // ---------------------------------------------------------------- official exams

  async function openRoom(tx: Queryable, member: MemberRow, roomId: number) {
    const { rows } = await tx.query<{ id: number; title: string; paper_id: number; start_time: number; end_time: number; duration: number; attempts_allowed: number; user_group_id: number | null }>(
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
    const body = z.object({ roomId: dbId }).safeParse(req.body ?? {});
    if (!body.success) throw new ApiError(msg`Incorrect parameter!`);
    // One start at a time per member (the member row is locked): concurrent starts cannot beat
    // the attempt limit, and the partial unique index of 0008 allows one open attempt per room.
    const { attempt, room, questions } = await db.transaction(async (tx) => {
      await tx.query("select id from member where id = $1 for update", [member.id]);
      await closeExpired(tx, member.id);
      const room = await openRoom(tx, member, body.data.roomId);
      const existing = await tx.query<AttemptRow>("select * from exam_attempt where user_id = $1 and room_id = $2 order by id", [member.id, room.id]);
      let attempt = existing.rows.find((a) => a.status === "open");
      if (!attempt) {
        if (existing.rows.length >= room.attempts_allowed) throw new ApiError(msg`You have used all your attempts at this exam`);
        const loaded = await loadPaper(tx, room.paper_id);
        if (!loaded) throw new ApiError(msg`This paper does not exist`);
        const drawn = await drawForPaper(tx, loaded.rows);
        const t = now();
        const deadline = Math.min(t + room.duration, Number(room.end_time));
        const inserted = await tx.query<AttemptRow>(
          `insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, questions, answers, started_at, deadline, status)
           values ($1, $2, 'official', $3, $4, $5, '{}', $6, $7, 'open') returning *`,
          [randomUUID(), member.id, room.paper_id, room.id, JSON.stringify(drawn.map((d) => ({ id: d.row.id, score: d.score }))), t, deadline],
        );
        attempt = inserted.rows[0]!;
      }
      await tx.query("update exam_attempt set last_seen_at = $1 where id = $2", [Date.now(), attempt.id]);
      const ids = attempt.questions.map((q) => q.id);
      const qs = (await tx.query<QuestionRow>(`select ${QUESTION_COLUMNS} from exam_question where id = any($1::int[])`, [ids])).rows;
      const byId = new Map(qs.map((q) => [q.id, q]));
      // Official questions travel without answers or analysis.
      return { attempt, room, questions: ids.flatMap((id) => (byId.has(id) ? [presentQuestion(byId.get(id)!, false)] : [])) };
    });
    return reply.success({
      attempt: { uuid: attempt.uuid, roomId: room.id, roomTitle: room.title, paperId: attempt.paper_id, startedAt: Number(attempt.started_at), deadline: Number(attempt.deadline), serverTime: now(), answers: attempt.answers },
      questions,
    });
  });

  const answerBody = z.object({
    uuid: z.string().length(36),
    answers: answersSchema,
    /** Question id -> when the answer was made, ms on the server's clock as the device measured it. */
    answeredAt: z.record(dbIdKey, z.number().int().nonnegative()).optional(),
  });
  type AnswerBody = z.infer<typeof answerBody>;

  type Taken =
    | { late: false; saved: number; result: { score: number; passed: boolean } | null }
    | { late: true; queued: number; refused: number; pending: number };

  /**
   * Takes answers into an official attempt, in one transaction with the attempt row locked.
   * Until deadline + grace every answer to a question of the attempt counts (made "now" unless
   * the device says earlier; of two answers to a question the one made later wins, whatever
   * order they arrive in). After that the attempt is closed and graded with what reached it in
   * time, and every answer the server does not hold yet is late: whatever time the device claims
   * for it, it is not graded but kept for a marker's decision with that claim, when it arrived and
   * when the device was last heard from in time (room policy 'review', the default), or refused
   * (room policy 'refuse').
   */
  async function takeAnswers(member: MemberRow, body: AnswerBody, submit: boolean): Promise<Taken> {
    return db.transaction(async (tx): Promise<Taken> => {
      const { rows } = await tx.query<AttemptRow>("select * from exam_attempt where user_id = $1 and uuid = $2 and kind = 'official' for update", [member.id, body.uuid]);
      const attempt = rows[0];
      if (!attempt) throw new ApiError(msg`This exam record does not exist`);
      // `closed`: the device keeps nothing more to send for this attempt.
      if (attempt.status === "submitted") throw new ApiError(msg`This exam has already been submitted`, 0, { closed: true });
      const nowMs = Date.now();
      const deadlineMs = Number(attempt.deadline) * 1000;
      const inAttempt = new Set(attempt.questions.map((q) => String(q.id)));
      const answers: Record<string, unknown> = { ...attempt.answers };
      const times: Record<string, number> = { ...attempt.answer_times };
      const late = attempt.status === "expired" || nowMs > deadlineMs + SUBMIT_GRACE_SECONDS * 1000;

      if (!late) {
        let saved = 0;
        for (const [id, answer] of Object.entries(body.answers)) {
          if (!inAttempt.has(id)) continue;
          saved++;
          const madeAt = Math.min(body.answeredAt?.[id] ?? nowMs, nowMs);
          if ((times[id] ?? 0) > madeAt) continue; // the server holds a later answer to this question
          answers[id] = answer;
          times[id] = madeAt;
        }
        await tx.query("update exam_attempt set answers = $1, answer_times = $2, last_seen_at = $3 where id = $4", [
          JSON.stringify(answers),
          JSON.stringify(times),
          nowMs,
          attempt.id,
        ]);
        return { late: false, saved, result: submit ? await finish(tx, { ...attempt, answers }, "submitted") : null };
      }

      const policy = attempt.room_id
        ? ((await tx.query<{ late_policy: "review" | "refuse" }>("select late_policy from exam_room where id = $1", [attempt.room_id])).rows[0]?.late_policy ?? "review")
        : "review";
      const lastHeard = Number(attempt.last_seen_at ?? Number(attempt.started_at) * 1000);
      let queued = 0;
      let refused = 0;
      let changed = 0;
      for (const [id, answer] of Object.entries(body.answers)) {
        if (!inAttempt.has(id)) continue;
        // The device's word, kept as it is for the marker (within what a time can be).
        const said = body.answeredAt?.[id];
        const claimed = said === undefined ? undefined : Math.min(said, MAX_TIME_MS);
        // Already held: the same answer, or a later one (the device resends everything it has).
        if (JSON.stringify(answers[id]) === JSON.stringify(answer)) continue;
        if (claimed !== undefined && times[id] !== undefined && times[id] >= claimed) continue;
        if (policy === "refuse") {
          refused++;
          continue;
        }
        queued++;
        // One row per question: a later claimed answer replaces a pending one; a decided one stays.
        const upsert = await tx.query(
          `insert into exam_late_answer (attempt_id, question_id, answer, claimed_at, received_at, last_heard_at, away_ms)
           values ($1, $2, $3, $4, $5, $6, $7)
           on conflict (attempt_id, question_id) do update
             set answer = excluded.answer, claimed_at = excluded.claimed_at, received_at = excluded.received_at,
                 last_heard_at = excluded.last_heard_at, away_ms = excluded.away_ms
           where exam_late_answer.status = 'pending' and coalesce(excluded.claimed_at, -1) > coalesce(exam_late_answer.claimed_at, -1)`,
          [attempt.id, Number(id), JSON.stringify(answer), claimed ?? null, nowMs, lastHeard, nowMs - lastHeard],
        );
        changed += upsert.rowCount;
      }
      const pending = (await pendingReview(tx, [attempt.id])).get(attempt.id) ?? 0;
      // late_answers: late arrivals recorded for review or refused.
      if (changed + refused > 0) await tx.query("update exam_attempt set late_answers = late_answers + $1 where id = $2", [changed + refused, attempt.id]);
      if (attempt.status === "open") await finish(tx, attempt, "expired");
      return { late: true, queued, refused, pending };
    });
  }

  /** The attempt is closed (time up): the device stops sending it; `pendingReview` late answers wait for a marker. */
  function closedError(taken: { queued: number; refused: number; pending: number }): ApiError {
    const data = { closed: true, pendingReview: taken.pending, refused: taken.refused };
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

  app.post("/api/exam/official/save", async (req, reply) => {
    const member = await requireMember(db, req);
    const body = answerBody.safeParse(req.body ?? {});
    if (!body.success) throw new ApiError(msg`Incorrect parameter!`);
    const taken = await takeAnswers(member, body.data, false);
    if (taken.late) throw closedError(taken);
    return reply.success({ saved: taken.saved, refused: 0, late: false });
  });

  app.post("/api/exam/official/submit", async (req, reply) => {
    const member = await requireMember(db, req);
    const body = answerBody.partial({ answers: true }).safeParse(req.body ?? {});
    if (!body.success) throw new ApiError(msg`Incorrect parameter!`);
    const taken = await takeAnswers(member, { ...body.data, answers: body.data.answers ?? {} }, true);
    if (taken.late) throw closedError(taken);
    return reply.success({ uuid: body.data.uuid, ...taken.result!, late: false }, msg`Submitted`);
  });
}
