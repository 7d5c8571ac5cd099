import { sql, type RawBuilder } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import type { LedgerEntry } from "../account/repository.ts";
import { visibleTo } from "../org/visibility.ts";

/**
 * The course module's rows (queries.ts, enrolment.ts, progress.ts, media.ts and mediaAccess.ts
 * call these; no SQL lives beside them). Statements that test visibility are `sql` templates over
 * the visibility rule's piece (modules/org/visibility.ts), the member a parameter.
 */

/** A course `c` the member may see and open (0: nobody logged in). */
const courseVisible = (memberId: number): RawBuilder<boolean> => visibleTo("course", sql.ref("c.id"), memberId);

/** The columns of a CourseSummary for the member (0: nobody). */
const courseColumns = (memberId: number): RawBuilder<unknown> => sql`c.id, c.category_id, c.title, c.cover, c.summary, c.price, ls.lesson_count, ls.duration,
  exists (select 1 from course_enrolment e where e.course_id = c.id and e.user_id = ${memberId}) as enrolled`;
const LESSON_STATS = sql`cross join lateral (
  select count(*)::int as lesson_count, coalesce(sum(l.duration), 0)::int as duration
  from lesson l where l.course_id = c.id and l.status = 'enable') ls`;

const nowSeconds = sql<number>`extract(epoch from now())::bigint`;

export interface CourseRow {
  id: number;
  category_id: number;
  title: string;
  cover: string;
  summary: string;
  price: number;
  lesson_count: number;
  duration: number;
  enrolled: boolean;
}

export interface LessonRow {
  id: number;
  course_id: number;
  title: string;
  duration: number;
  free_preview: boolean;
  video_url: string;
  position: number | null;
  completed: boolean | null;
  last_watched: number | null;
  at: number | null;
}

export interface CategoryRow {
  id: number;
  pid: number;
  title: string;
  title_en: string;
}

/** A visible lesson's own row (content, media, attachments), or undefined. */
export interface LessonRecord {
  id: number;
  course_id: number;
  course_title: string;
  free_preview: boolean;
  content: string;
  video_url: string;
  video_type: string;
  video_size: number;
  attachments: unknown;
}

export interface EnrolmentRow {
  course_id: number;
  create_time: number;
  paid: number;
}

/* ---- the catalogue, detail, my courses and lessons (queries.ts) ---- */

/** The enabled lessons of these courses in order, with the member's progress (0: nobody). */
export async function lessonRowsOf(q: Queryable, courseIds: number[], memberId: number): Promise<LessonRow[]> {
  const { rows } = await sql<LessonRow>`select l.id, l.course_id, l.title, l.duration, l.free_preview, l.video_url, p.position, p.completed, p.last_watched, p.at
     from lesson l left join lesson_progress p on p.lesson_id = l.id and p.user_id = ${memberId}
     where l.course_id = any(${courseIds}::int[]) and l.status = 'enable'
     order by l.course_id, l.weigh desc, l.id`.execute(kyselyOf(q));
  return rows;
}

export async function enrolmentRow(q: Queryable, userId: number, courseId: number): Promise<EnrolmentRow | undefined> {
  return kyselyOf(q)
    .selectFrom("course_enrolment")
    .select(["course_id", "create_time", "paid"])
    .where("user_id", "=", userId)
    .where("course_id", "=", courseId)
    .executeTakeFirst();
}

/** The enabled categories, by weigh (desc) then id. */
export async function enabledCategories(q: Queryable): Promise<CategoryRow[]> {
  return kyselyOf(q)
    .selectFrom("course_category")
    .select(["id", "pid", "title", "title_en"])
    .where("status", "=", "enable")
    .orderBy("weigh", "desc")
    .orderBy("id")
    .execute();
}

/** How many enabled courses the member sees in each category. */
export async function visibleCourseCounts(q: Queryable, memberId: number): Promise<{ category_id: number; n: number }[]> {
  const { rows } = await sql<{ category_id: number; n: number }>`select c.category_id, count(*)::int as n from course c
    where c.status = 'enable' and ${courseVisible(memberId)} group by c.category_id`.execute(kyselyOf(q));
  return rows;
}

/** The catalogue's filters: courses of these categories, courses matching a `likePattern`. */
export interface CourseFilter {
  categoryIds?: number[];
  pattern?: string;
}

/** The where clause of the catalogue: the enabled courses the member sees that match the filters. */
function catalogueWhere(memberId: number, filter: CourseFilter): RawBuilder<boolean> {
  const conditions = [sql`c.status = 'enable'`, courseVisible(memberId)];
  if (filter.categoryIds) conditions.push(sql`c.category_id = any(${filter.categoryIds}::int[])`);
  if (filter.pattern !== undefined) conditions.push(sql`(c.title ilike ${filter.pattern} escape '\\' or c.summary ilike ${filter.pattern} escape '\\')`);
  return sql<boolean>`${sql.join(conditions, sql` and `)}`;
}

/** How many visible enabled courses match the filters. */
export async function countCourses(q: Queryable, memberId: number, filter: CourseFilter): Promise<number> {
  const total = await sql<{ n: number }>`select count(*)::int as n from course c where ${catalogueWhere(memberId, filter)}`.execute(kyselyOf(q));
  return total.rows[0]?.n ?? 0;
}

/** A page of the visible enabled courses matching the filters, by weigh (desc) then id. */
export async function coursePage(q: Queryable, memberId: number, filter: CourseFilter, limit: number, offset: number): Promise<CourseRow[]> {
  const { rows } = await sql<CourseRow>`select ${courseColumns(memberId)} from course c ${LESSON_STATS}
     where ${catalogueWhere(memberId, filter)} order by c.weigh desc, c.id limit ${limit} offset ${offset}`.execute(kyselyOf(q));
  return rows;
}

export type CourseDetailRow = CourseRow & { introduction: string; category_title: string | null; category_title_en: string | null };

/** A course the member (0: nobody) may see, with its introduction and category. */
export async function courseDetailRow(q: Queryable, courseId: number, memberId: number): Promise<CourseDetailRow | undefined> {
  const { rows } = await sql<CourseDetailRow>`select ${courseColumns(memberId)}, c.introduction, cc.title as category_title, cc.title_en as category_title_en
     from course c ${LESSON_STATS} left join course_category cc on cc.id = c.category_id
     where c.id = ${courseId} and c.status = 'enable' and ${courseVisible(memberId)}`.execute(kyselyOf(q));
  return rows[0];
}

/** The visible enabled courses the member is enrolled in, with when they enrolled. */
export async function enrolledCourseRows(q: Queryable, memberId: number): Promise<(CourseRow & { enrolled_at: number })[]> {
  const { rows } = await sql<CourseRow & { enrolled_at: number }>`select ${courseColumns(memberId)}, e.create_time as enrolled_at
     from course_enrolment e join course c on c.id = e.course_id ${LESSON_STATS}
     where e.user_id = ${memberId} and c.status = 'enable' and ${courseVisible(memberId)}`.execute(kyselyOf(q));
  return rows;
}

/** A lesson of a course the member (0: nobody) may see. */
export async function lessonRecord(q: Queryable, lessonId: number, memberId: number): Promise<LessonRecord | undefined> {
  const found = await sql<LessonRecord>`select l.id, l.course_id, c.title as course_title, l.free_preview, l.content, l.video_url, l.video_type, l.video_size, l.attachments
     from lesson l join course c on c.id = l.course_id
     where l.id = ${lessonId} and l.status = 'enable' and c.status = 'enable' and ${courseVisible(memberId)}`.execute(kyselyOf(q));
  return found.rows[0];
}

/* ---- enrolling and buying (enrolment.ts) ---- */

/** An enabled course the member may see (its id and price), or undefined. */
export async function enrollableCourse(q: Queryable, memberId: number, courseId: number): Promise<{ id: number; price: number } | undefined> {
  const course = await sql<{ id: number; price: number }>`select c.id, c.price from course c
    where c.id = ${courseId} and c.status = 'enable' and ${courseVisible(memberId)}`.execute(kyselyOf(q));
  return course.rows[0];
}

/** Enrols the member for free; an enrolment already there stays as it is. */
export async function insertFreeEnrolment(q: Queryable, memberId: number, courseId: number): Promise<void> {
  await kyselyOf(q)
    .insertInto("course_enrolment")
    .values({ user_id: memberId, course_id: courseId, paid: 0 })
    .onConflict((oc) => oc.columns(["user_id", "course_id"]).doNothing())
    .execute();
}

/** The member's balance, the member row locked for the rest of the transaction. */
export async function lockMemberMoney(q: Queryable, memberId: number): Promise<number> {
  const locked = await kyselyOf(q).selectFrom("member").select("money").where("id", "=", memberId).forUpdate().executeTakeFirstOrThrow();
  return Number(locked.money);
}

/** An enabled course the member may see, share-locked against changes while it is bought. */
export async function purchasableCourse(q: Queryable, memberId: number, courseId: number): Promise<{ id: number; title: string; price: number } | undefined> {
  const course = await sql<{ id: number; title: string; price: number }>`select c.id, c.title, c.price from course c
    where c.id = ${courseId} and c.status = 'enable' and ${courseVisible(memberId)} for share of c`.execute(kyselyOf(q));
  return course.rows[0];
}

export async function setMemberMoney(q: Queryable, memberId: number, money: number): Promise<void> {
  await kyselyOf(q).updateTable("member").set({ money, update_time: nowSeconds }).where("id", "=", memberId).execute();
}

export async function insertMoneyLog(q: Queryable, e: LedgerEntry): Promise<void> {
  await kyselyOf(q)
    .insertInto("user_money_log")
    .values({ user_id: e.memberId, money: e.amount, before: e.before, after: e.after, memo_key: e.memo.key, memo_params: JSON.stringify(e.memo.params) })
    .execute();
}

export async function insertPaidEnrolment(q: Queryable, memberId: number, courseId: number, paid: number): Promise<EnrolmentRow> {
  return kyselyOf(q)
    .insertInto("course_enrolment")
    .values({ user_id: memberId, course_id: courseId, paid })
    .returning(["course_id", "create_time", "paid"])
    .executeTakeFirstOrThrow();
}

/* ---- lesson progress (progress.ts) ---- */

export interface ProgressLesson {
  id: number;
  course_id: number;
  title: string;
  duration: number;
  free_preview: boolean;
  enrolled: boolean;
}

/** An enabled lesson of an enabled course the member may see, and whether they are enrolled in it. */
export async function progressLesson(q: Queryable, lessonId: number, userId: number): Promise<ProgressLesson | undefined> {
  const found = await sql<ProgressLesson>`select l.id, l.course_id, l.title, l.duration, l.free_preview,
            exists (select 1 from course_enrolment e where e.user_id = ${userId} and e.course_id = l.course_id) as enrolled
     from lesson l join course c on c.id = l.course_id
     where l.id = ${lessonId} and l.status = 'enable' and c.status = 'enable' and ${courseVisible(userId)}`.execute(kyselyOf(q));
  return found.rows[0];
}

export interface ProgressOp {
  userId: number;
  lessonId: number;
  position: number;
  completed: boolean;
  /** The op time (ms): orders ops, and is the completion time when it completes. */
  at: number;
  opId: string;
}

/**
 * Merges one op into the member's progress of the lesson: the position is last-writer-wins by
 * (op time, op id), completion sticky and dated by its earliest op, last_watched the latest.
 */
export async function mergeLessonProgress(q: Queryable, op: ProgressOp): Promise<void> {
  await sql`insert into lesson_progress (user_id, lesson_id, position, completed, completed_at, last_watched, at, op_id)
     values (${op.userId}, ${op.lessonId}, ${op.position}, ${op.completed}, ${op.completed ? op.at : null}, ${Math.floor(op.at / 1000)}, ${op.at}, ${op.opId})
     on conflict (user_id, lesson_id) do update set
       position = case when (excluded.at, excluded.op_id collate "C") > (lesson_progress.at, lesson_progress.op_id collate "C")
                       then excluded.position else lesson_progress.position end,
       op_id = case when (excluded.at, excluded.op_id collate "C") > (lesson_progress.at, lesson_progress.op_id collate "C")
                    then excluded.op_id else lesson_progress.op_id end,
       at = greatest(lesson_progress.at, excluded.at),
       completed = lesson_progress.completed or excluded.completed,
       completed_at = least(lesson_progress.completed_at, excluded.completed_at),
       last_watched = greatest(lesson_progress.last_watched, excluded.last_watched)`.execute(kyselyOf(q));
}

/** Flips `points_awarded` of a completed lesson once: true for the one call that flipped it. */
export async function claimLessonPoints(q: Queryable, userId: number, lessonId: number): Promise<boolean> {
  const award = await kyselyOf(q)
    .updateTable("lesson_progress")
    .set({ points_awarded: true })
    .where("user_id", "=", userId)
    .where("lesson_id", "=", lessonId)
    .where("completed", "=", true)
    .where("points_awarded", "=", false)
    .returning("lesson_id")
    .execute();
  return award.length > 0;
}

/* ---- demo media (media.ts) ---- */

/** Whether the "course" demo seed has run on this database. */
export async function courseDemoSeeded(q: Queryable): Promise<boolean> {
  const row = await kyselyOf(q).selectFrom("app_meta").select(sql<number>`1`.as("one")).where("key", "=", "seed:course").executeTakeFirst();
  return row !== undefined;
}

/* ---- media access (mediaAccess.ts: on every paid media request, one statement each) ---- */

/** Stores `value` under `key` unless a value is there already; answers the stored value. */
export async function appMetaOnce(q: Queryable, key: string, value: string): Promise<string> {
  const k = kyselyOf(q);
  await k
    .insertInto("app_meta")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  const row = await k.selectFrom("app_meta").select("value").where("key", "=", key).executeTakeFirstOrThrow();
  return row.value;
}

/** The login session of a live (not rotated) member access token, by its hash. */
export async function sessionOfAccessToken(q: Queryable, tokenHash: string, memberId: number): Promise<string | undefined> {
  const row = await kyselyOf(q)
    .selectFrom("token")
    .select("session_id")
    .where("token_hash", "=", tokenHash)
    .where("type", "=", "user")
    .where("user_id", "=", memberId)
    .where("rotated_at", "is", null)
    .executeTakeFirst();
  return row?.session_id;
}

/**
 * The member's live sessions (an unexpired access token, or a refresh token not exchanged yet:
 * an exchanged one stays until its expiry only to detect reuse), newest first, at most 50; none
 * when the member is disabled.
 */
export async function liveMemberSessions(q: Queryable, memberId: number, now: number): Promise<string[]> {
  const { rows } = await sql<{ session_id: string }>`select t.session_id from token t join member m on m.id = t.user_id
     where t.type in ('user', 'user-refresh') and t.user_id = ${memberId} and t.expire_time > ${now} and t.rotated_at is null and m.status = 'enable'
     group by t.session_id order by max(t.expire_time) desc limit 50`.execute(kyselyOf(q));
  return rows.map((r) => r.session_id);
}

export interface LessonMediaRow {
  id: number;
  video_url: string;
  video_type: string;
  attachments: unknown;
}

/** Every lesson (disabled ones too) with a stored video or attachments. */
export async function lessonsWithMedia(q: Queryable): Promise<LessonMediaRow[]> {
  const { rows } = await sql<LessonMediaRow>`select id, video_url, video_type, attachments from lesson
     where video_url like '/storage/%' or (jsonb_typeof(attachments) = 'array' and jsonb_array_length(attachments) > 0)`.execute(kyselyOf(q));
  return rows;
}

export interface LessonAccessRow {
  course_id: number;
  free_preview: boolean;
  price: number;
  /** The course is open to all (assigned to nobody). */
  open: boolean;
}

/** The enabled lessons of enabled courses among these, with what opens them to anyone. */
export async function lessonsAccess(q: Queryable, lessonIds: number[]): Promise<LessonAccessRow[]> {
  const { rows } = await sql<LessonAccessRow>`select l.course_id, l.free_preview, c.price, ${visibleTo("course", sql.ref("c.id"), sql.lit(0))} as open
     from lesson l join course c on c.id = l.course_id
     where l.id = any(${lessonIds}::int[]) and l.status = 'enable' and c.status = 'enable'`.execute(kyselyOf(q));
  return rows;
}

/**
 * Whether the member may watch one of these lessons: an enabled lesson of an enabled course
 * open to them that is a free preview, free, or one they are enrolled in.
 */
export async function memberMayWatch(q: Queryable, memberId: number, lessonIds: number[]): Promise<boolean> {
  const allowed = await sql`select 1 from lesson l join course c on c.id = l.course_id
     where l.id = any(${lessonIds}::int[]) and l.status = 'enable' and c.status = 'enable' and ${courseVisible(memberId)}
       and (l.free_preview or c.price = 0 or exists (select 1 from course_enrolment e where e.user_id = ${memberId} and e.course_id = c.id)) limit 1`.execute(kyselyOf(q));
  return allowed.rows.length > 0;
}
