import { sql } from "kysely";
import type { GradeResult } from "../../../../shared/exam/grading.ts";
import type { PageLeave } from "../../../../shared/exam/pageLeaves.ts";
import type { ReviewPolicy } from "../../../../shared/admin/rooms.ts";
import type { Queryable } from "../../../db/index.ts";
import { excludedValues, kyselyOf, rowById } from "../../../db/kysely.ts";
import { paperVisibleTo } from "../../org/visibility.ts";
import type { QuestionRow } from "../questions.ts";
import { QUESTION_FIELDS } from "../repository.ts";
import type { AttemptRow } from "./attempt.ts";
import type { PaperRow } from "./papers.ts";
import type { AttemptSnapshot, MissingQuestion, SatQuestion } from "./snapshot.ts";

/**
 * The attempts' rows (attempt.ts, late.ts, leaves.ts, marks.ts, mock.ts, papers.ts, records.ts,
 * regrade.ts, snapshot.ts call these; official exams' hot statements are in official.repository.ts).
 * Statements that read or write what an attempt sat keep the text they always had (the `sql`
 * template, parameterised): records are history, and a member's record must read the same.
 */

/** An attempt's grade as written back: its score, pass, whether a marker still has to look, and each question's result. */
export interface GradeWrite {
  score: number;
  passed: boolean;
  needsReview: boolean;
  /** Question id -> its result (grading.ts): kept as the questions graded and those right (migration 0059). */
  results: Record<string, GradeResult>;
}

/** The questions graded (in the order graded) and those right: what a room's item analysis counts (migration 0059). */
export function outcomesOf(results: GradeWrite["results"]): { graded: number[]; right: number[] } {
  const entries = Object.entries(results);
  return { graded: entries.map(([id]) => Number(id)), right: entries.filter(([, r]) => r.correct === true).map(([id]) => Number(id)) };
}

/** An attempt's grade as its row's columns: score, pass, review flag and per-question outcomes, written together by every grading. */
function gradeColumns(grade: GradeWrite) {
  const { graded, right } = outcomesOf(grade.results);
  return {
    score: grade.score,
    passed: grade.passed,
    needs_review: grade.needsReview,
    graded_questions: sql<number[]>`${graded}::int[]`,
    right_questions: sql<number[]>`${right}::int[]`,
  };
}

// ---- The attempt row (attempt.ts, late.ts, marks.ts) ----

/** Closes an open attempt with its grade; false when it was no longer open (another request closed it). */
export async function closeOpenAttempt(q: Queryable, attemptId: number, grade: GradeWrite, status: "submitted" | "expired", endedAt: number): Promise<boolean> {
  const closed = await kyselyOf(q)
    .updateTable("exam_attempt")
    .set({ ...gradeColumns(grade), status, submitted_at: endedAt })
    .where("id", "=", attemptId)
    .where("status", "=", "open")
    .executeTakeFirst();
  return closed.numUpdatedRows > 0n;
}

/** The member's open official attempts whose deadline + `graceSeconds` is before `now` (seconds). */
export async function expiredOpenAttempts(q: Queryable, memberId: number, graceSeconds: number, now: number): Promise<AttemptRow[]> {
  const rows = await kyselyOf(q)
    .selectFrom("exam_attempt")
    .selectAll()
    .where("user_id", "=", memberId)
    .where("kind", "=", "official")
    .where("status", "=", "open")
    .where(sql<number>`deadline + ${graceSeconds}`, "<", now)
    .execute();
  return rows as unknown as AttemptRow[];
}

/** The attempt, locked (a marker's decision or mark grades it again), or undefined. */
export async function lockAttempt(q: Queryable, attemptId: number): Promise<AttemptRow | undefined> {
  const row = await kyselyOf(q).selectFrom("exam_attempt").selectAll().where("id", "=", attemptId).forUpdate().executeTakeFirst();
  return row as unknown as AttemptRow | undefined;
}

/** Writes an attempt's grade (score, pass, review flag), its status unchanged. */
export async function setAttemptGrade(q: Queryable, attemptId: number, grade: GradeWrite): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_attempt")
    .set(gradeColumns(grade))
    .where("id", "=", attemptId)
    .execute();
}

// ---- Late answers (late.ts) ----

/** Attempt id -> its late answers waiting for a marker (attempts with none: absent). */
export async function pendingLateCounts(q: Queryable, attemptIds: readonly number[]): Promise<Map<number, number>> {
  const rows = await kyselyOf(q)
    .selectFrom("exam_late_answer")
    .select(["attempt_id", sql<number>`count(*)::int`.as("n")])
    .where(sql<boolean>`attempt_id = any(${attemptIds}::int[])`)
    .where("status", "=", "pending")
    .groupBy("attempt_id")
    .execute();
  return new Map(rows.map((r) => [r.attempt_id, r.n]));
}

/** The room's `late_policy`, or undefined when the room is gone. */
export async function roomLatePolicy(q: Queryable, roomId: number): Promise<"review" | "refuse" | undefined> {
  const row = await rowById(q, "exam_room", ["late_policy"], roomId);
  return row?.late_policy as "review" | "refuse" | undefined;
}

export interface LateArrival {
  attemptId: number;
  questionId: number;
  answer: unknown;
  claimedAt: number | null;
  receivedAt: number;
  lastHeardAt: number;
}

/**
 * Keeps a late answer for review, one row per question: a later claimed answer replaces a
 * pending one; a decided one stays. Answers how many rows it wrote (0 or 1).
 */
export async function upsertLateAnswer(q: Queryable, a: LateArrival): Promise<number> {
  const written = await kyselyOf(q)
    .insertInto("exam_late_answer")
    .values({
      attempt_id: a.attemptId,
      question_id: a.questionId,
      answer: JSON.stringify(a.answer),
      claimed_at: a.claimedAt,
      received_at: a.receivedAt,
      last_heard_at: a.lastHeardAt,
      away_ms: a.receivedAt - a.lastHeardAt,
    })
    .onConflict((oc) =>
      oc
        .columns(["attempt_id", "question_id"])
        .doUpdateSet(excludedValues("answer", "claimed_at", "received_at", "last_heard_at", "away_ms"))
        .where(sql<boolean>`exam_late_answer.status = 'pending' and coalesce(excluded.claimed_at, -1) > coalesce(exam_late_answer.claimed_at, -1)`),
    )
    .executeTakeFirst();
  return Number(written.numInsertedOrUpdatedRows ?? 0n);
}

/** Counts late arrivals (kept for review or refused) on the attempt. */
export async function addLateArrivals(q: Queryable, attemptId: number, count: number): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_attempt")
    .set((eb) => ({ late_answers: eb("late_answers", "+", count) }))
    .where("id", "=", attemptId)
    .execute();
}

export interface LateAnswerRow {
  id: number;
  attempt_id: number;
  question_id: number;
  answer: unknown;
  claimed_at: number | null;
  received_at: number;
  status: string;
}

/** A late answer, locked for a marker's decision, or undefined. */
export async function lockLateAnswer(q: Queryable, lateAnswerId: number): Promise<LateAnswerRow | undefined> {
  return kyselyOf(q).selectFrom("exam_late_answer").selectAll().where("id", "=", lateAnswerId).forUpdate().executeTakeFirst();
}

/** Writes an attempt's answers and their times (an accepted late answer counts as in time). */
export async function setAttemptAnswers(q: Queryable, attemptId: number, answers: Record<string, unknown>, times: Record<string, number>): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_attempt")
    .set({ answers: JSON.stringify(answers), answer_times: JSON.stringify(times) })
    .where("id", "=", attemptId)
    .execute();
}

/** A marker's final decision on a late answer. */
export async function decideLate(q: Queryable, lateAnswerId: number, decision: "accepted" | "rejected", at: number, adminId: number | null): Promise<void> {
  await kyselyOf(q).updateTable("exam_late_answer").set({ status: decision, decided_at: at, decided_by: adminId }).where("id", "=", lateAnswerId).execute();
}

// ---- Page leaves (leaves.ts) ----

export interface HeldAttempt {
  id: number;
  started_at: string | number;
  deadline: string | number | null;
  submitted_at: string | number | null;
  status: "open" | "submitted" | "expired";
}

/** The member's official attempt by its uuid, its row locked as answers lock it (for no key update), or undefined. */
export async function lockHeldAttempt(q: Queryable, memberId: number, uuid: string): Promise<HeldAttempt | undefined> {
  const row = await kyselyOf(q)
    .selectFrom("exam_attempt")
    .select(["id", "started_at", "deadline", "submitted_at", "status"])
    .where("user_id", "=", memberId)
    .where("uuid", "=", uuid)
    .where("kind", "=", "official")
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row as HeldAttempt | undefined;
}

/**
 * Stores a page leave, once per departure (attempt, leftAt: the same one sent again keeps the
 * later return), while the attempt holds fewer than `max`. False when it was full.
 */
export async function insertPageLeave(q: Queryable, attemptId: number, leave: PageLeave, receivedAt: number, max: number): Promise<boolean> {
  // A conditional insert (a count and an existence test in one statement) whose returned row answers "not full".
  const { rows } = await sql`insert into exam_attempt_leave (attempt_id, left_at, back_at, received_at)
     select ${attemptId}, ${leave.leftAt}, ${leave.backAt}, ${receivedAt}
     where (select count(*) from exam_attempt_leave where attempt_id = ${attemptId}) < ${max}
        or exists (select 1 from exam_attempt_leave where attempt_id = ${attemptId} and left_at = ${leave.leftAt})
     on conflict (attempt_id, left_at) do update set back_at = greatest(exam_attempt_leave.back_at, excluded.back_at)
     returning attempt_id`.execute(kyselyOf(q));
  return rows.length > 0;
}

/** Per attempt: how many leaves and their total time (ms). */
export async function leaveTotals(q: Queryable, attemptIds: readonly number[]): Promise<{ attempt_id: number; count: number; total_ms: number }[]> {
  return kyselyOf(q)
    .selectFrom("exam_attempt_leave")
    .select(["attempt_id", sql<number>`count(*)::int`.as("count"), sql<number>`sum(back_at - left_at)::bigint`.as("total_ms")])
    .where(sql<boolean>`attempt_id = any(${attemptIds}::int[])`)
    .groupBy("attempt_id")
    .execute();
}

/** One attempt's leaves, first first. */
export async function leaveRows(q: Queryable, attemptId: number): Promise<{ left_at: number; back_at: number }[]> {
  return kyselyOf(q).selectFrom("exam_attempt_leave").select(["left_at", "back_at"]).where("attempt_id", "=", attemptId).orderBy("left_at").execute();
}

// ---- Marks (marks.ts) ----

/** Question id -> the score a marker gave, for an attempt's marked answers. */
export async function givenMarkScores(q: Queryable, attemptId: number): Promise<Map<number, number>> {
  const rows = await kyselyOf(q).selectFrom("exam_mark").select(["question_id", "score"]).where("attempt_id", "=", attemptId).where("status", "=", "marked").execute();
  return new Map(rows.map((r) => [r.question_id, Number(r.score)]));
}

/** Queues the questions for a marker (once per question of an attempt). */
export async function insertMarks(q: Queryable, attemptId: number, questionIds: readonly number[]): Promise<void> {
  await sql`insert into exam_mark (attempt_id, question_id) select ${attemptId}, unnest(${questionIds}::int[]) on conflict (attempt_id, question_id) do nothing`.execute(kyselyOf(q));
}

/** The attempt a queued answer belongs to, or undefined. */
export async function markAttemptId(q: Queryable, markId: number): Promise<number | undefined> {
  return (await rowById(q, "exam_mark", ["attempt_id"], markId))?.attempt_id;
}

/** A queued answer, locked, or undefined. */
export async function lockMark(q: Queryable, markId: number): Promise<{ id: number; question_id: number; status: string } | undefined> {
  return kyselyOf(q).selectFrom("exam_mark").select(["id", "question_id", "status"]).where("id", "=", markId).forUpdate().executeTakeFirst();
}

/** Gives a pending answer its mark; false when it was no longer pending. */
export async function giveMark(q: Queryable, markId: number, mark: { score: number; comment: string }, adminId: number, at: number): Promise<boolean> {
  const done = await kyselyOf(q)
    .updateTable("exam_mark")
    .set({ status: "marked", score: mark.score, comment: mark.comment, marked_by: adminId, marked_at: at })
    .where("id", "=", markId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return done.numUpdatedRows === 1n;
}

/** Every queued answer of an attempt, marked or not. */
export async function markRows(q: Queryable, attemptId: number): Promise<{ question_id: number; score: number | null; comment: string; status: string }[]> {
  return kyselyOf(q).selectFrom("exam_mark").select(["question_id", "score", "comment", "status"]).where("attempt_id", "=", attemptId).execute();
}

/** Drops queued answers that grading now decides (given marks stay). */
export async function dropPendingMarks(q: Queryable, attemptId: number, questionIds: readonly number[]): Promise<void> {
  await kyselyOf(q)
    .deleteFrom("exam_mark")
    .where("attempt_id", "=", attemptId)
    .where("status", "=", "pending")
    .where(sql<boolean>`question_id = any(${questionIds}::int[])`)
    .execute();
}

// ---- Papers and their questions (papers.ts, mock.ts) ----

/** A draw row's rule: a bank, a type and, when set, a difficulty. */
export interface DrawRule {
  classifyId: number;
  questionType: string;
  difficulty: number | null;
}

/**
 * The enabled questions a draw rule picks; with `sample`, a random `count` of them
 * (`order by random() limit`) leaving out the ids in `exclude`.
 */
export async function drawPoolRows(q: Queryable, rule: DrawRule, sample?: { exclude: readonly number[]; count: number }): Promise<QuestionRow[]> {
  let query = kyselyOf(q)
    .selectFrom("exam_question")
    .select(QUESTION_FIELDS)
    .where("classify_id", "=", rule.classifyId)
    .where("type", "=", rule.questionType)
    .where("status", "=", "enable");
  if (rule.difficulty !== null) query = query.where("difficulty", "=", rule.difficulty);
  if (sample) query = query.where(sql<boolean>`id <> all(${sample.exclude}::int[])`).orderBy(sql`random()`).limit(sample.count);
  return (await query.execute()) as unknown as QuestionRow[];
}

/**
 * A question as a fixed row gives it: its latest version, or `version` (its text, options, key
 * and analysis from `exam_question_version`; its bank, difficulty and default score today's).
 * `enabledOnly`: only if the question is enabled.
 */
export async function fixedQuestionRow(q: Queryable, questionId: number, version: number | null, enabledOnly: boolean): Promise<QuestionRow | undefined> {
  const k = kyselyOf(q);
  if (version === null) {
    let latest = k.selectFrom("exam_question").select(QUESTION_FIELDS).where("id", "=", questionId);
    if (enabledOnly) latest = latest.where("status", "=", "enable");
    return (await latest.executeTakeFirst()) as unknown as QuestionRow | undefined;
  }
  let pinned = k
    .selectFrom("exam_question as q")
    .innerJoin("exam_question_version as v", (j) => j.onRef("v.question_id", "=", "q.id").on("v.version", "=", version))
    .select(["q.id", "q.classify_id", "v.type", "v.stem", "v.options", "v.answer", "v.analysis", "q.difficulty", "q.score", "v.version"])
    .where("q.id", "=", questionId);
  if (enabledOnly) pinned = pinned.where("q.status", "=", "enable");
  return (await pinned.executeTakeFirst()) as unknown as QuestionRow | undefined;
}

/** A paper row as `loadPaper` reads it (JSON from the database). */
export interface PaperRowJson {
  kind: "fixed" | "draw";
  question_id: number | null;
  question_version: number | null;
  classify_id: number | null;
  question_type: string | null;
  difficulty: number | null;
  count: number;
  score: number | string;
}

/** An enabled paper with its rows in paper order (one statement: a start's transaction runs it), or undefined. */
export async function enabledPaperWithRows(q: Queryable, paperId: number): Promise<(PaperRow & { spec: PaperRowJson[] }) | undefined> {
  const { rows } = await sql<PaperRow & { spec: PaperRowJson[] }>`select p.id, p.title, p.total_score, p.pass_score, p.duration, p.partial_credit, p.shuffle_options,
       coalesce((select json_agg(json_build_object('kind', r.kind, 'question_id', r.question_id, 'question_version', r.question_version, 'classify_id', r.classify_id,
                   'question_type', r.question_type, 'difficulty', r.difficulty, 'count', r.count, 'score', r.score) order by r.weigh desc, r.id)
                 from exam_paper_row r where r.paper_id = p.id), '[]'::json) as spec
     from exam_paper p where p.id = ${paperId} and p.status = 'enable'`.execute(kyselyOf(q));
  return rows[0];
}

/** Whether every bank of the paper is open to the member (modules/org/visibility.ts). */
export async function paperOpenTo(q: Queryable, paperId: number, memberId: number): Promise<boolean> {
  const { rows } = await sql<{ open: boolean }>`select ${paperVisibleTo(sql<number>`${paperId}::int`, sql<number>`${memberId}::int`)} as open`.execute(kyselyOf(q));
  return rows[0]?.open === true;
}

/** The given versions of questions (id and version pairs that exist), as question rows' read fields. */
export async function questionVersions(
  q: Queryable,
  wanted: readonly { id: number; version: number }[],
): Promise<Pick<QuestionRow, "id" | "type" | "stem" | "options" | "answer" | "analysis" | "version">[]> {
  const { rows } = await sql<Pick<QuestionRow, "id" | "type" | "stem" | "options" | "answer" | "analysis" | "version">>`select v.question_id as id, v.type, v.stem, v.options, v.answer, v.analysis, v.version
     from exam_question_version v join unnest(${wanted.map((w) => w.id)}::int[], ${wanted.map((w) => w.version)}::int[]) as w(id, version) on v.question_id = w.id and v.version = w.version`.execute(
    kyselyOf(q),
  );
  return rows;
}

/** The banks of a paper's fixed questions. */
export async function fixedQuestionBanks(q: Queryable, paperId: number): Promise<number[]> {
  const rows = await kyselyOf(q)
    .selectFrom("exam_question as q")
    .innerJoin("exam_paper_row as r", "r.question_id", "q.id")
    .select("q.classify_id")
    .distinct()
    .where("r.paper_id", "=", paperId)
    .execute();
  return rows.map((r) => r.classify_id);
}

export interface MockAttemptWrite {
  uuid: string;
  userId: number;
  paperId: number;
  /** JSON text: id and points of each question sat. */
  questions: string;
  /** JSON text of the answers. */
  answers: string;
  grade: GradeWrite;
  startedAt: number;
  submittedAt: number;
}

/** A mock attempt graded by the server, once per (member, uuid): its id, or undefined when it was there already. */
export async function insertMockAttempt(q: Queryable, a: MockAttemptWrite): Promise<number | undefined> {
  const row = await kyselyOf(q)
    .insertInto("exam_attempt")
    .values({
      uuid: a.uuid,
      user_id: a.userId,
      kind: "mock",
      paper_id: a.paperId,
      questions: a.questions,
      answers: a.answers,
      ...gradeColumns(a.grade),
      started_at: a.startedAt,
      submitted_at: a.submittedAt,
      status: "submitted",
    })
    .onConflict((oc) => oc.columns(["user_id", "uuid"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id;
}

// ---- Records (records.ts) ----

/** `total_score`: the paper's total as the attempt was sat (its snapshot), else the paper's today. */
export type RecordAttempt = AttemptRow & { paper_title: string; room_title: string | null; total_score: number | string };

/** How many attempts the member has. */
export async function memberAttemptCount(q: Queryable, memberId: number): Promise<number> {
  const row = await kyselyOf(q).selectFrom("exam_attempt").select(sql<number>`count(*)::int`.as("n")).where("user_id", "=", memberId).executeTakeFirst();
  return row?.n ?? 0;
}

/** The member's attempts with their paper and room titles: a page, newest first, or the one with `uuid`. */
function recordAttempts(q: Queryable, memberId: number) {
  return kyselyOf(q)
    .selectFrom("exam_attempt as a")
    .innerJoin("exam_paper as p", "p.id", "a.paper_id")
    .leftJoin("exam_room as r", "r.id", "a.room_id")
    .leftJoin("exam_attempt_snapshot as s", "s.attempt_id", "a.id")
    .selectAll("a")
    .select(["p.title as paper_title", "r.title as room_title", sql<string>`coalesce((s.paper ->> 'totalScore')::numeric, p.total_score)`.as("total_score")])
    .where("a.user_id", "=", memberId);
}

export async function memberAttemptsPage(q: Queryable, memberId: number, limit: number, offset: number): Promise<RecordAttempt[]> {
  const rows = await recordAttempts(q, memberId).orderBy("a.started_at", "desc").orderBy("a.id", "desc").limit(limit).offset(offset).execute();
  return rows as unknown as RecordAttempt[];
}

export async function memberAttemptByUuid(q: Queryable, memberId: number, uuid: string): Promise<RecordAttempt | undefined> {
  const row = await recordAttempts(q, memberId).where("a.uuid", "=", uuid).executeTakeFirst();
  return row as unknown as RecordAttempt | undefined;
}

/** A room's review policy and when it closes for everyone (members given extra time included: migration 0043). */
export async function roomReview(q: Queryable, roomId: number): Promise<{ review_policy: ReviewPolicy; closes_at: number } | undefined> {
  const row = await kyselyOf(q)
    .selectFrom("exam_room")
    .select(["review_policy", sql<number>`exam_room_closes_at(id, end_time)`.as("closes_at")])
    .where("id", "=", roomId)
    .executeTakeFirst();
  return row as { review_policy: ReviewPolicy; closes_at: number } | undefined;
}

// ---- Regrade (regrade.ts) ----

/** A room's id and title (locked with `lock`), or undefined. */
export async function roomTitle(q: Queryable, roomId: number, lock: boolean): Promise<{ id: number; title: string } | undefined> {
  const query = kyselyOf(q).selectFrom("exam_room").select(["id", "title"]).where("id", "=", roomId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** The ids of the room's finished (not open) attempts. */
export async function finishedAttemptIds(q: Queryable, roomId: number): Promise<number[]> {
  const rows = await kyselyOf(q).selectFrom("exam_attempt").select("id").where("room_id", "=", roomId).where("status", "<>", "open").execute();
  return rows.map((r) => r.id);
}

/** How many of the room's attempts are open. */
export async function openAttemptCount(q: Queryable, roomId: number): Promise<number> {
  const row = await kyselyOf(q)
    .selectFrom("exam_attempt")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("room_id", "=", roomId)
    .where("status", "=", "open")
    .executeTakeFirstOrThrow();
  return row.n;
}

/** A regrade candidate (numeric figures come back as numbers: the seam parses them). */
export interface CandidateRow {
  id: number;
  stem: string;
  type: string;
  question_score: number;
  attempts: number;
  min_points: number;
  max_points: number;
  d_type: boolean;
  d_stem: boolean;
  d_options: boolean;
  d_answer: boolean;
  d_analysis: boolean;
}

/** The snapshot element `e` differs from the live row `q` in the compared fields (jsonb equality: key order does not count). */
const DIFFERS = sql<boolean>`(e -> 'type' is distinct from to_jsonb(q.type) or e -> 'stem' is distinct from to_jsonb(q.stem)
  or e -> 'options' is distinct from q.options or e -> 'answer' is distinct from q.answer or e -> 'analysis' is distinct from to_jsonb(q.analysis))`;

/** The questions of the room's finished attempts whose current row differs from what some attempt sat, with what differs. */
export async function regradeCandidateRows(q: Queryable, roomId: number): Promise<CandidateRow[]> {
  const { rows } = await sql<CandidateRow>`select q.id, q.stem, q.type, q.score as question_score, count(distinct a.id)::int as attempts,
       min((e ->> 'score')::numeric) as min_points, max((e ->> 'score')::numeric) as max_points,
       bool_or(e -> 'type' is distinct from to_jsonb(q.type)) as d_type,
       bool_or(e -> 'stem' is distinct from to_jsonb(q.stem)) as d_stem,
       bool_or(e -> 'options' is distinct from q.options) as d_options,
       bool_or(e -> 'answer' is distinct from q.answer) as d_answer,
       bool_or(e -> 'analysis' is distinct from to_jsonb(q.analysis)) as d_analysis
     from exam_attempt a
     join exam_attempt_snapshot s on s.attempt_id = a.id
     cross join lateral jsonb_array_elements(s.questions) as x(e)
     join exam_question q on q.id = (e ->> 'id')::int
     where a.room_id = ${roomId} and a.status <> 'open' and e ->> 'missing' is null and ${DIFFERS}
     group by q.id order by q.id`.execute(kyselyOf(q));
  return rows;
}

/** The questions with the given ids, as they are now. */
export async function questionsByIds(q: Queryable, ids: readonly number[]): Promise<QuestionRow[]> {
  const rows = await kyselyOf(q)
    .selectFrom("exam_question")
    .select(QUESTION_FIELDS)
    .where(sql<boolean>`id = any(${ids}::int[])`)
    .execute();
  return rows as unknown as QuestionRow[];
}

export type FinishedAttempt = { id: number; answers: Record<string, unknown>; score: number | null; passed: boolean | null; username: string; nickname: string | null };

/** The room's finished attempts with their members' names, in id order (`lock`: the attempts are locked). */
export async function finishedAttempts(q: Queryable, roomId: number, lock: boolean): Promise<FinishedAttempt[]> {
  const query = kyselyOf(q)
    .selectFrom("exam_attempt as a")
    .innerJoin("member as m", "m.id", "a.user_id")
    .select(["a.id", "a.answers", "a.score", "a.passed", "m.username", "m.nickname"])
    .where("a.room_id", "=", roomId)
    .where("a.status", "<>", "open")
    .orderBy("a.id");
  const rows = await (lock ? query.forUpdate("a") : query).execute();
  return rows as unknown as FinishedAttempt[];
}

/** A regrade's new snapshot questions for an attempt. */
export async function setSnapshotQuestions(q: Queryable, attemptId: number, questions: AttemptSnapshot["questions"]): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_attempt_snapshot")
    .set({ questions: JSON.stringify(questions) })
    .where("attempt_id", "=", attemptId)
    .execute();
}

/** A regrade's new grade for an attempt, and when it was regraded. */
export async function setRegradedGrade(q: Queryable, attemptId: number, grade: GradeWrite, at: number): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_attempt")
    .set({ ...gradeColumns(grade), regraded_at: at })
    .where("id", "=", attemptId)
    .execute();
}

// ---- Snapshots (snapshot.ts) ----

/** Stores what an attempt was given (once: an attempt's snapshot is never replaced here). */
export async function insertSnapshot(q: Queryable, attemptId: number, paperJson: string, questionsJson: string): Promise<void> {
  await kyselyOf(q)
    .insertInto("exam_attempt_snapshot")
    .values({ attempt_id: attemptId, paper: paperJson, questions: questionsJson })
    .onConflict((oc) => oc.column("attempt_id").doNothing())
    .execute();
}

/** A snapshot as stored: the paper's figures may be numeric text. */
export type StoredSnapshot = { paper: { totalScore: number | string; passScore: number | string; partialCredit: boolean }; questions: (SatQuestion | MissingQuestion)[] };

/** Only what grading reads of each question (a room's results read thousands of snapshots: not their texts). */
const GRADING_FIELDS = sql`coalesce((select jsonb_agg(jsonb_strip_nulls(jsonb_build_object('id', e -> 'id', 'type', e -> 'type', 'answer', e -> 'answer',
  'score', e -> 'score', 'missing', e -> 'missing', 'classify_id', e -> 'classify_id', 'difficulty', e -> 'difficulty', 'version', e -> 'version', 'stem', '', 'analysis', '', 'options', '[]'::jsonb))
  order by n) from jsonb_array_elements(questions) with ordinality as x(e, n)), '[]'::jsonb)`;

/** The stored snapshots of the given attempts (`gradingOnly`: each question's texts left empty). */
export async function snapshotRows(q: Queryable, attemptIds: readonly number[], gradingOnly: boolean): Promise<(StoredSnapshot & { attempt_id: number })[]> {
  const questions = gradingOnly ? GRADING_FIELDS : sql`questions`;
  const { rows } = await sql<StoredSnapshot & { attempt_id: number }>`select attempt_id, paper, ${questions} as questions from exam_attempt_snapshot where attempt_id = any(${attemptIds}::int[])`.execute(
    kyselyOf(q),
  );
  return rows;
}

/**
 * Snapshots for attempts made without one (before migration 0038 ran on them, or written by
 * other means): the same rule as that migration's backfill, from what the database holds now.
 */
export async function freezeSnapshots(q: Queryable, attemptIds: readonly number[]): Promise<void> {
  await sql`insert into exam_attempt_snapshot (attempt_id, paper, questions)
select a.id,
  jsonb_build_object('totalScore', p.total_score, 'passScore', coalesce(r.pass_score, p.pass_score), 'partialCredit', p.partial_credit),
  coalesce((
    select jsonb_agg(
      case when q.id is null
        then jsonb_build_object('id', (e.item ->> 'id')::int, 'score', coalesce((e.item ->> 'score')::numeric, 0), 'missing', true)
        else jsonb_build_object('id', q.id, 'classify_id', q.classify_id, 'type', q.type, 'stem', q.stem, 'options', q.options, 'answer', q.answer,
          'analysis', q.analysis, 'difficulty', q.difficulty, 'version', q.version,
          'score', coalesce((e.item ->> 'score')::numeric,
            (select pr.score from exam_paper_row pr where pr.paper_id = a.paper_id
               and ((pr.kind = 'fixed' and pr.question_id = q.id)
                 or (pr.kind = 'draw' and pr.classify_id = q.classify_id and pr.question_type = q.type
                     and (pr.difficulty is null or pr.difficulty = q.difficulty) and q.status = 'enable'))
             order by pr.weigh, pr.id desc limit 1),
            q.score))
      end order by e.n)
    from jsonb_array_elements(a.questions) with ordinality as e(item, n)
    left join exam_question q on q.id = (e.item ->> 'id')::int
  ), '[]'::jsonb)
from exam_attempt a
join exam_paper p on p.id = a.paper_id
left join exam_room r on r.id = a.room_id
where a.id = any(${attemptIds}::int[])
on conflict (attempt_id) do nothing`.execute(kyselyOf(q));
}

/**
 * The attempts among these that have no snapshot yet (snapshot.ts makes them one): an index probe
 * each, no snapshot read.
 */
export async function attemptsWithoutSnapshot(q: Queryable, attemptIds: readonly number[]): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select a.id from unnest(${attemptIds}::int[]) as a(id)
     where not exists (select 1 from exam_attempt_snapshot s where s.attempt_id = a.id)`.execute(kyselyOf(q));
  return rows.map((r) => r.id);
}

/** What grading reads of the snapshots of many attempts: the attempts that sat the same, as one row. */
export interface GradingGroupRow {
  attempt_ids: number[];
  paper: StoredSnapshot["paper"];
  /** The questions that can be graded (not `missing`), in the order given: their ids, types, answer keys and points. */
  ids: number[];
  types: SatQuestion["type"][];
  answers: unknown[];
  scores: (number | string)[];
}

/** Only the questions that can be graded, one field each (jsonpath on the stored value: no element is rebuilt). */
const GRADED = (field: string) => sql.raw(`jsonb_path_query_array(s.questions, '$[*] ? (!exists(@.missing)).${field}')`);

/**
 * The given attempts' snapshots as grading reads them (a room's item analysis over thousands of
 * attempts): each question's id, type, answer key and points, never its texts; attempts that sat
 * the same questions with the same keys and points (a fixed paper: all of them) come back as one
 * row. Only the stored snapshots: snapshotsOf makes the missing ones first.
 */
export async function gradingGroupRows(q: Queryable, attemptIds: readonly number[]): Promise<GradingGroupRow[]> {
  const { rows } = await sql<GradingGroupRow>`select array_agg(g.attempt_id order by g.attempt_id) as attempt_ids, g.paper, g.ids, g.types, g.answers, g.scores
     from (select s.attempt_id, s.paper, ${GRADED("id")} as ids, ${GRADED("type")} as types, ${GRADED("answer")} as answers, ${GRADED("score")} as scores
           from exam_attempt_snapshot s where s.attempt_id = any(${attemptIds}::int[])) g
     group by g.paper, g.ids, g.types, g.answers, g.scores`.execute(kyselyOf(q));
  return rows;
}

/**
 * Question id -> its stem and type in the snapshot of a given attempt (`firstSat`: question id ->
 * the attempt): the item analysis's stems, each read from one snapshot.
 */
export async function satStemRows(q: Queryable, firstSat: ReadonlyMap<number, number>): Promise<{ id: number; attempt_id: number; stem: string; type: string }[]> {
  if (firstSat.size === 0) return [];
  const { rows } = await sql<{ id: number; attempt_id: number; stem: string; type: string }>`select (e ->> 'id')::int as id, s.attempt_id, e ->> 'stem' as stem, e ->> 'type' as type
     from exam_attempt_snapshot s, jsonb_array_elements(s.questions) as x(e)
     where s.attempt_id = any(${[...new Set(firstSat.values())]}::int[]) and e ->> 'missing' is null and (e ->> 'id')::int = any(${[...firstSat.keys()]}::int[])`.execute(kyselyOf(q));
  return rows.filter((r) => firstSat.get(r.id) === r.attempt_id);
}

// ---- Per-question outcomes (outcomes.ts, migration 0059) ----

/** What grading an attempt again reads of it: its member and answers. */
export async function attemptAnswers(q: Queryable, attemptIds: readonly number[]): Promise<Pick<AttemptRow, "id" | "user_id" | "answers">[]> {
  const rows = await kyselyOf(q).selectFrom("exam_attempt").select(["id", "user_id", "answers"]).where(sql<boolean>`id = any(${attemptIds}::int[])`).execute();
  return rows as unknown as Pick<AttemptRow, "id" | "user_id" | "answers">[];
}

/** The scores markers gave these attempts' answers (marked ones only): what every grading counts. */
export async function markedScores(q: Queryable, attemptIds: readonly number[]): Promise<{ attempt_id: number; question_id: number; score: unknown }[]> {
  return kyselyOf(q)
    .selectFrom("exam_mark")
    .select(["attempt_id", "question_id", "score"])
    .where(sql<boolean>`attempt_id = any(${attemptIds}::int[])`)
    .where("status", "=", "marked")
    .execute();
}

/**
 * Keeps attempts' per-question outcomes found by grading them again (attempts graded before
 * migration 0059), one statement; an attempt whose outcomes a grading wrote meanwhile keeps those.
 */
export async function keepOutcomes(q: Queryable, outcomes: readonly { id: number; graded: number[]; right: number[] }[]): Promise<void> {
  if (outcomes.length === 0) return;
  await sql`update exam_attempt a set graded_questions = o.graded, right_questions = o."right"
     from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as o(id int, graded int[], "right" int[])
     where a.id = o.id and a.graded_questions is null`.execute(kyselyOf(q));
}
