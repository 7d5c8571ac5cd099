import { sql, type RawBuilder } from "kysely";
import type { Queryable } from "../db/database.ts";
import { kyselyOf } from "../db/kysely.ts";

/** The demo seed's rows (the part files beside it hold the content and call these). */

// ---------------------------------------------------------------------------------------------
// Seeding bookkeeping (index.ts)

/** Serialises demo seeding across processes until the transaction ends. */
export async function lockDemoSeeding(q: Queryable, lockId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${lockId})`.execute(kyselyOf(q));
}

/** The demo seeding's keys in app_meta (`demo` and each part's `seed:<name>`) with their values, in one read. */
export async function demoMeta(q: Queryable): Promise<Map<string, string>> {
  const rows = await kyselyOf(q)
    .selectFrom("app_meta")
    .select(["key", "value"])
    .where((eb) => eb.or([eb("key", "=", "demo"), eb("key", "like", "seed:%")]))
    .execute();
  return new Map(rows.map((r) => [r.key, r.value]));
}

export async function appMeta(q: Queryable, key: string): Promise<string | undefined> {
  const row = await kyselyOf(q).selectFrom("app_meta").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

export async function insertAppMeta(q: Queryable, key: string, value: string): Promise<void> {
  await kyselyOf(q).insertInto("app_meta").values({ key, value }).execute();
}

/** Admins and members together. */
export async function accountCount(q: Queryable): Promise<number> {
  const { rows } = await sql<{ n: number }>`select (select count(*) from admin) + (select count(*) from member) as n`.execute(kyselyOf(q));
  return Number(rows[0]?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Accounts and the organisation

/** A super admin; answers its id. */
export async function insertSuperAdmin(q: Queryable, a: { username: string; nickname: string; passwordHash: string; motto: string }): Promise<number> {
  const row = await kyselyOf(q)
    .insertInto("admin")
    .values({ username: a.username, nickname: a.nickname, password_hash: a.passwordHash, is_super: true, motto: a.motto })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Puts the admin in the first group that holds every rule ('*'), if there is one. */
export async function joinAllRulesGroup(q: Queryable, adminId: number): Promise<void> {
  const k = kyselyOf(q);
  await k
    .insertInto("admin_group_access")
    .columns(["uid", "group_id"])
    .expression(
      k
        .selectFrom("admin_group")
        .select((eb) => [eb.val(adminId).as("uid"), "id"])
        .where("rules", "=", "*")
        .orderBy("id")
        .limit(1),
    )
    .execute();
}

export interface DemoMember {
  username: string;
  nickname: string;
  email: string;
  passwordHash: string;
  money: number;
  score: number;
  motto: string;
}

/** A member (gender 0) in the first user group. */
export async function insertMemberInFirstGroup(q: Queryable, m: DemoMember): Promise<void> {
  const k = kyselyOf(q);
  await k
    .insertInto("member")
    .values({
      username: m.username,
      nickname: m.nickname,
      email: m.email,
      password_hash: m.passwordHash,
      gender: 0,
      money: m.money,
      score: m.score,
      motto: m.motto,
      group_id: k.selectFrom("user_group").select("id").orderBy("id").limit(1),
    })
    .execute();
}

export async function memberIdByUsername(q: Queryable, username: string): Promise<number | undefined> {
  const row = await kyselyOf(q).selectFrom("member").select("id").where("username", "=", username).executeTakeFirst();
  return row?.id;
}

/** A company (weigh left to its default when not given); answers its id. */
export async function insertCompany(q: Queryable, c: { pid: number; name: string; weigh?: number }): Promise<number> {
  const row = await kyselyOf(q)
    .insertInto("company")
    .values(c.weigh === undefined ? { pid: c.pid, name: c.name } : { pid: c.pid, name: c.name, weigh: c.weigh })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Duties in one statement; answers their ids in the order given. */
export async function insertDuties(q: Queryable, duties: { name: string; weigh: number }[]): Promise<number[]> {
  const rows = await kyselyOf(q).insertInto("duty").values(duties).returning("id").execute();
  return rows.map((r) => r.id);
}

export async function setMemberPlace(q: Queryable, username: string, companyId: number, dutyId: number): Promise<void> {
  await kyselyOf(q).updateTable("member").set({ company_id: companyId, duty_id: dutyId }).where("username", "=", username).execute();
}

/** A classroom headed by the admin of that username; answers its id. */
export async function insertClassroom(
  q: Queryable,
  c: { companyId: number; name: string; headAdmin: string; startTime: number; endTime: number },
): Promise<number> {
  const k = kyselyOf(q);
  const row = await k
    .insertInto("classroom")
    .values({
      company_id: c.companyId,
      name: c.name,
      head_admin_id: k.selectFrom("admin").select("id").where("username", "=", c.headAdmin),
      start_time: c.startTime,
      end_time: c.endTime,
      remark: "",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Seats the member of that username (if any) in the classroom. */
export async function seatMember(q: Queryable, classroomId: number, username: string): Promise<void> {
  const k = kyselyOf(q);
  await k
    .insertInto("classroom_member")
    .columns(["classroom_id", "user_id"])
    .expression(k.selectFrom("member").select((eb) => [eb.val(classroomId).as("classroom_id"), "id"]).where("username", "=", username))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Balance and points logs (accountLogs.ts)

export type DemoLedger = "user_money_log" | "user_score_log";

export interface LedgerEntry {
  change: number;
  before: number;
  after: number;
  memoKey: string;
  /** JSON text. */
  memoParams: string;
  createTime: number;
}

/** The entries in order, one statement each. */
export async function insertLedgerEntries(q: Queryable, ledger: DemoLedger, userId: number, entries: LedgerEntry[]): Promise<void> {
  const k = kyselyOf(q);
  for (const e of entries) {
    const common = { user_id: userId, before: e.before, after: e.after, memo_key: e.memoKey, memo_params: e.memoParams, create_time: e.createTime };
    if (ledger === "user_money_log") await k.insertInto("user_money_log").values({ ...common, money: e.change }).execute();
    else await k.insertInto("user_score_log").values({ ...common, score: e.change }).execute();
  }
}

export async function setMemberTotals(q: Queryable, memberId: number, money: number, score: number): Promise<void> {
  await kyselyOf(q).updateTable("member").set({ money, score }).where("id", "=", memberId).execute();
}

/** Whether the member paid for any course. */
export async function hasPaidEnrolment(q: Queryable, memberId: number): Promise<boolean> {
  const row = await kyselyOf(q)
    .selectFrom("course_enrolment")
    .select(sql<number>`1`.as("one"))
    .where("user_id", "=", memberId)
    .where("paid", ">", 0)
    .executeTakeFirst();
  return row !== undefined;
}

/** A line an earlier demo story wrote in the member's money or score ledger, told by its memo and figures. */
interface StoryLine {
  memoKey: string;
  amount: number;
  before: number;
  after: number;
  /** The line was written before memos had parameters. */
  noParams?: boolean;
}

/** SQL true on the member's line of the ledger (`money` or `score`) that is `line`. */
function isStoryLine(figure: "money" | "score", memberId: number, line: StoryLine): RawBuilder<boolean> {
  const params = line.noParams ? sql` and memo_params = '{}'::jsonb` : sql``;
  return sql<boolean>`user_id = ${memberId} and memo_key = ${line.memoKey}${params}
    and ${sql.ref(figure)} = ${line.amount} and ${sql.ref("before")} = ${line.before} and ${sql.ref("after")} = ${line.after}`;
}

/** The earlier demo story's "Bought a course −20.00" rows (10000 → 8000, no memo params). */
export async function earlierDemoPurchases(q: Queryable, memberId: number): Promise<{ id: number; after: number }[]> {
  const line = { memoKey: "course.bought", noParams: true, amount: -2000, before: 10000, after: 8000 };
  return kyselyOf(q).selectFrom("user_money_log").select(["id", "after"]).where(isStoryLine("money", memberId, line)).execute();
}

/** The earlier demo story's "Refund" rows (+20.00, 8000 → 10000). */
export async function earlierDemoRefunds(q: Queryable, memberId: number): Promise<{ id: number }[]> {
  const line = { memoKey: "refund", amount: 2000, before: 8000, after: 10000 };
  return kyselyOf(q).selectFrom("user_money_log").select("id").where(isStoryLine("money", memberId, line)).execute();
}

export async function deleteMoneyLogs(q: Queryable, ids: number[]): Promise<void> {
  await kyselyOf(q)
    .deleteFrom("user_money_log")
    .where(sql<boolean>`id = any(${ids}::int[])`)
    .execute();
}

/** The earlier story's check-in points (0 → 50) become the sign-up bonus. */
export async function retellCheckInPoints(q: Queryable, memberId: number): Promise<void> {
  const line = { memoKey: "checkin", amount: 50, before: 0, after: 50 };
  await kyselyOf(q).updateTable("user_score_log").set({ memo_key: "signup" }).where(isStoryLine("score", memberId, line)).execute();
}

/** The earlier story's lesson points (50 → 100, no memo params) become an administrator's gift. */
export async function retellLessonPoints(q: Queryable, memberId: number): Promise<void> {
  const line = { memoKey: "lesson.completed", noParams: true, amount: 50, before: 50, after: 100 };
  await kyselyOf(q).updateTable("user_score_log").set({ memo_key: "admin.adjust" }).where(isStoryLine("score", memberId, line)).execute();
}

// ---------------------------------------------------------------------------------------------
// Courses (course.ts)

export async function insertCourseCategory(q: Queryable, c: { pid: number; title: string; titleEn: string; weigh: number }): Promise<number> {
  const row = await kyselyOf(q)
    .insertInto("course_category")
    .values({ pid: c.pid, title: c.title, title_en: c.titleEn, weigh: c.weigh })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A demo course's own row. */
export interface DemoCourseRow {
  categoryId: number;
  title: string;
  cover: string;
  summary: string;
  introduction: string;
  price: number;
  weigh: number;
}

export async function insertCourse(q: Queryable, c: DemoCourseRow): Promise<number> {
  const row = await kyselyOf(q)
    .insertInto("course")
    .values({ category_id: c.categoryId, title: c.title, cover: c.cover, summary: c.summary, introduction: c.introduction, price: c.price, weigh: c.weigh })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface DemoLessonRow {
  courseId: number;
  title: string;
  content: string;
  videoUrl: string;
  videoType: string;
  videoSize: number;
  duration: number;
  /** JSON text. */
  attachments: string;
  freePreview: boolean;
  weigh: number;
}

export async function insertLesson(q: Queryable, l: DemoLessonRow): Promise<void> {
  await kyselyOf(q)
    .insertInto("lesson")
    .values({
      course_id: l.courseId,
      title: l.title,
      content: l.content,
      video_url: l.videoUrl,
      video_type: l.videoType,
      video_size: l.videoSize,
      duration: l.duration,
      attachments: l.attachments,
      free_preview: l.freePreview,
      weigh: l.weigh,
    })
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Exam content (exam.ts)

/** A question bank (kind left to its default when not given); answers its id. */
export async function insertBankRow(q: Queryable, b: { pid: number; title: string; titleEn: string; weigh: number; kind?: string }): Promise<number> {
  const values = { pid: b.pid, title: b.title, title_en: b.titleEn, weigh: b.weigh };
  const row = await kyselyOf(q)
    .insertInto("exam_classify")
    .values(b.kind === undefined ? values : { ...values, kind: b.kind })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface DemoQuestionRow {
  type: string;
  stem: string;
  /** JSON text. */
  options: string;
  /** JSON text. */
  answer: string;
  analysis: string;
  difficulty: number;
  score: number;
  weigh: number;
}

/** The bank's questions in order, one statement each; answers their ids in that order. */
export async function insertQuestions(q: Queryable, classifyId: number, questions: DemoQuestionRow[]): Promise<number[]> {
  const k = kyselyOf(q);
  const ids: number[] = [];
  for (const question of questions) {
    const row = await k
      .insertInto("exam_question")
      .values({ classify_id: classifyId, ...question })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

export async function insertPaper(
  q: Queryable,
  p: { title: string; totalScore: number; passScore: number; duration: number; partialCredit?: boolean },
): Promise<number> {
  const values = { title: p.title, total_score: p.totalScore, pass_score: p.passScore, duration: p.duration };
  const row = await kyselyOf(q)
    .insertInto("exam_paper")
    .values(p.partialCredit === undefined ? values : { ...values, partial_credit: p.partialCredit })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A fixed question or a draw rule of a paper (the columns not given keep their defaults). */
export type DemoPaperRow =
  | { kind: "fixed"; questionId: number; score: number; weigh: number }
  | { kind: "draw"; classifyId: number; questionType: string; count: number; score: number; weigh?: number };

/** The rows in order, one statement each. */
export async function insertPaperRows(q: Queryable, paperId: number, rows: DemoPaperRow[]): Promise<void> {
  const k = kyselyOf(q);
  for (const r of rows) {
    const values =
      r.kind === "fixed"
        ? { paper_id: paperId, kind: r.kind, question_id: r.questionId, score: r.score, weigh: r.weigh }
        : { paper_id: paperId, kind: r.kind, classify_id: r.classifyId, question_type: r.questionType, count: r.count, score: r.score, ...(r.weigh === undefined ? {} : { weigh: r.weigh }) };
    await k.insertInto("exam_paper_row").values(values).execute();
  }
}

export async function roomExists(q: Queryable, title: string): Promise<boolean> {
  const row = await kyselyOf(q).selectFrom("exam_room").select("id").where("title", "=", title).executeTakeFirst();
  return row !== undefined;
}

/** Moves the room of that title to `paperId` if it still sits on a paper of title `fromPaper`. */
export async function moveRoomPaper(q: Queryable, title: string, fromPaper: string, paperId: number): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_room")
    .set({ paper_id: paperId })
    .where("title", "=", title)
    .where("paper_id", "in", (eb) => eb.selectFrom("exam_paper").select("id").where("title", "=", fromPaper))
    .execute();
}

export interface DemoRoom {
  paperId: number;
  title: string;
  startTime: number;
  endTime: number;
  duration: number;
  attemptsAllowed: number;
  passScore: number;
  reviewPolicy: string;
}

export async function insertRoom(q: Queryable, r: DemoRoom): Promise<void> {
  await kyselyOf(q)
    .insertInto("exam_room")
    .values({
      paper_id: r.paperId,
      title: r.title,
      start_time: r.startTime,
      end_time: r.endTime,
      duration: r.duration,
      attempts_allowed: r.attemptsAllowed,
      pass_score: r.passScore,
      review_policy: r.reviewPolicy,
    })
    .execute();
}
