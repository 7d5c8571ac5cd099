import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { z } from "zod";
import {
  formatPrice,
  type CourseCategoryNode,
  type CourseDetail,
  type CourseList,
  type CourseSummary,
  type Enrolment,
  type LessonAttachment,
  type LessonDetail,
  type LessonSummary,
  type MyCourse,
  type MyCourses,
} from "../../../shared/course/types.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { optionalMember, requireMember } from "../../plugins/auth.ts";
import { memos } from "../account/memos.ts";
import { safeMediaUrl, sanitizeRichText } from "./html.ts";
import { issueMediaCookie } from "./mediaAccess.ts";

/**
 * The member's course API (src/shared/course/types.ts is the contract): catalogue, detail,
 * enrol (free), buy (paid, from the balance), my courses, lesson detail. Lesson progress
 * arrives through the sync queue (./progress.ts). Courses, lessons and categories are visible
 * while their status is 'enable'; lists are ordered by weigh (desc) then id.
 */

const MAX_ID = 2_147_483_647;
const MAX_KEYWORD = 50;
export const MAX_PAGE_SIZE = 50;

const id = z.coerce.number().int().positive().max(MAX_ID);
const listQuery = z.object({
  categoryId: z.coerce.number().int().min(0).max(MAX_ID).default(0),
  keyword: z.string().trim().max(MAX_KEYWORD).default(""),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(12),
});
const price = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

function parse<T>(schema: z.ZodType<T>, value: unknown, message: MessageDescriptor): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new ApiError(message);
  return parsed.data;
}

const courseGone = () => new ApiError(msg`This course does not exist or is no longer available`);
const lessonGone = () => new ApiError(msg`This lesson does not exist or is no longer available`);

/** `x ilike $n escape '\'` matches the text literally: %, _ and \ lose their meaning. */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

interface CourseRow {
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

/** The columns of a CourseSummary; `$1` is the member id (0: nobody). */
const COURSE_COLUMNS = `c.id, c.category_id, c.title, c.cover, c.summary, c.price, ls.lesson_count, ls.duration,
  exists (select 1 from course_enrolment e where e.course_id = c.id and e.user_id = $1) as enrolled`;
const LESSON_STATS = `cross join lateral (
  select count(*)::int as lesson_count, coalesce(sum(l.duration), 0)::int as duration
  from lesson l where l.course_id = c.id and l.status = 'enable') ls`;

function courseSummary(r: CourseRow): CourseSummary {
  return {
    id: r.id,
    categoryId: r.category_id,
    title: r.title,
    cover: safeMediaUrl(r.cover),
    summary: r.summary,
    price: Number(r.price),
    lessonCount: r.lesson_count,
    duration: r.duration,
    enrolled: r.enrolled,
  };
}

interface LessonRow {
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

/** A course's enabled lessons in order, with the member's progress (`$2`; 0: nobody). */
async function courseLessons(db: Queryable, courseIds: number[], memberId: number): Promise<LessonRow[]> {
  if (courseIds.length === 0) return [];
  const { rows } = await db.query<LessonRow>(
    `select l.id, l.course_id, l.title, l.duration, l.free_preview, l.video_url, p.position, p.completed, p.last_watched, p.at
     from lesson l left join lesson_progress p on p.lesson_id = l.id and p.user_id = $2
     where l.course_id = any($1::int[]) and l.status = 'enable'
     order by l.course_id, l.weigh desc, l.id`,
    [courseIds, memberId],
  );
  return rows;
}

function lessonSummary(r: LessonRow): LessonSummary {
  return {
    id: r.id,
    courseId: r.course_id,
    title: r.title,
    duration: r.duration,
    freePreview: r.free_preview,
    hasVideo: safeMediaUrl(r.video_url) !== "",
    progress: { position: Number(r.position ?? 0), completed: r.completed ?? false, lastWatched: Number(r.last_watched ?? 0) },
  };
}

/** The last watched unfinished lesson, else the first unfinished, else the first (null: no lessons). */
export function continueLesson(lessons: LessonRow[]): number | null {
  let best: LessonRow | undefined;
  const key = (l: LessonRow): [number, number] => [Number(l.last_watched ?? 0), Number(l.at ?? 0)];
  for (const l of lessons) {
    if (l.completed || !l.last_watched) continue;
    const [watched, at] = key(l);
    const [bestWatched, bestAt] = best ? key(best) : [0, 0];
    if (!best || watched > bestWatched || (watched === bestWatched && at > bestAt)) best = l;
  }
  return (best ?? lessons.find((l) => !l.completed) ?? lessons[0])?.id ?? null;
}

function enrolment(r: { course_id: number; create_time: number; paid: number }): Enrolment {
  return { courseId: r.course_id, enrolledAt: Number(r.create_time), paid: Number(r.paid) };
}

async function findEnrolment(db: Queryable, userId: number, courseId: number): Promise<Enrolment | null> {
  const { rows } = await db.query<{ course_id: number; create_time: number; paid: number }>(
    "select course_id, create_time, paid from course_enrolment where user_id = $1 and course_id = $2",
    [userId, courseId],
  );
  return rows[0] ? enrolment(rows[0]) : null;
}

interface CategoryRow {
  id: number;
  pid: number;
  title: string;
  title_en: string;
}

/** The enabled category tree; each node counts the enabled courses in it and its sub-categories. */
function categoryTree(rows: CategoryRow[], counts: Map<number, number>, req: FastifyRequest): { tree: CourseCategoryNode[]; nodes: Map<number, CourseCategoryNode> } {
  const nodes = new Map<number, CourseCategoryNode>();
  for (const r of rows) {
    nodes.set(r.id, { id: r.id, pid: r.pid, title: req.lang === "en" && r.title_en ? r.title_en : r.title, courseCount: 0, children: [] });
  }
  const tree: CourseCategoryNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.pid !== node.id ? nodes.get(node.pid) : undefined;
    (parent?.children ?? tree).push(node);
  }
  // Nodes caught in a pid cycle hang from no root: they are simply not shown.
  const total = (node: CourseCategoryNode, depth: number): number => {
    node.courseCount = (counts.get(node.id) ?? 0) + (depth > 64 ? 0 : node.children.reduce((n, c) => n + total(c, depth + 1), 0));
    return node.courseCount;
  };
  for (const root of tree) total(root, 0);
  return { tree, nodes };
}

/** A category and everything under it. */
function withDescendants(node: CourseCategoryNode | undefined): number[] {
  const ids: number[] = [];
  const seen = new Set<number>();
  const stack = node ? [node] : [];
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    ids.push(n.id);
    stack.push(...n.children);
  }
  return ids;
}

function attachments(value: unknown): LessonAttachment[] {
  if (!Array.isArray(value)) return [];
  const list: LessonAttachment[] = [];
  for (const item of value as unknown[]) {
    if (!item || typeof item !== "object") continue;
    const a = item as Record<string, unknown>;
    const url = safeMediaUrl(a.url);
    if (!url || typeof a.name !== "string") continue;
    list.push({ name: a.name, url, size: Number.isFinite(Number(a.size)) ? Math.max(0, Math.trunc(Number(a.size))) : 0 });
  }
  return list;
}

const VIDEO_TYPES = new Set(["mp4", "webm", "hls"]);

export async function courseApiRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get("/api/course/list", async (req, reply) => {
    const q = parse(listQuery, req.query, msg`Incorrect list parameters: page from 1, limit from 1 to 50, keyword at most 50 characters`);
    const member = await optionalMember(db, req);
    const categories = await db.query<CategoryRow>("select id, pid, title, title_en from course_category where status = 'enable' order by weigh desc, id");
    const counted = await db.query<{ category_id: number; n: number }>(
      "select category_id, count(*)::int as n from course where status = 'enable' group by category_id",
    );
    const { tree, nodes } = categoryTree(categories.rows, new Map(counted.rows.map((r) => [r.category_id, r.n])), req);

    // The filters, their placeholders numbered from `first` (the list query has the member as $1).
    const filters: { sql: (n: number) => string; value: unknown }[] = [];
    if (q.categoryId > 0) filters.push({ sql: (n) => `c.category_id = any($${n}::int[])`, value: withDescendants(nodes.get(q.categoryId)) });
    if (q.keyword) filters.push({ sql: (n) => `(c.title ilike $${n} escape '\\' or c.summary ilike $${n} escape '\\')`, value: likePattern(q.keyword) });
    const where = (first: number) => ["c.status = 'enable'", ...filters.map((f, i) => f.sql(first + i))].join(" and ");
    const values = filters.map((f) => f.value);
    const total = await db.query<{ n: number }>(`select count(*)::int as n from course c where ${where(1)}`, values);
    const n = values.length;
    const { rows } = await db.query<CourseRow>(
      `select ${COURSE_COLUMNS} from course c ${LESSON_STATS}
       where ${where(2)} order by c.weigh desc, c.id limit $${n + 2} offset $${n + 3}`,
      [member?.id ?? 0, ...values, q.limit, (q.page - 1) * q.limit],
    );
    const data: CourseList = { categories: tree, list: rows.map(courseSummary), total: total.rows[0]?.n ?? 0 };
    return reply.success(data);
  });

  app.get("/api/course/detail", async (req, reply) => {
    const { id: courseId } = parse(z.object({ id }), req.query, msg`Please choose a course`);
    const member = await optionalMember(db, req);
    const memberId = member?.id ?? 0;
    const { rows } = await db.query<CourseRow & { introduction: string; category_title: string | null; category_title_en: string | null }>(
      `select ${COURSE_COLUMNS}, c.introduction, cc.title as category_title, cc.title_en as category_title_en
       from course c ${LESSON_STATS} left join course_category cc on cc.id = c.category_id
       where c.id = $2 and c.status = 'enable'`,
      [memberId, courseId],
    );
    const row = rows[0];
    if (!row) throw courseGone();
    const lessons = await courseLessons(db, [row.id], memberId);
    const data: CourseDetail = {
      course: {
        ...courseSummary(row),
        introduction: sanitizeRichText(row.introduction),
        categoryTitle: (req.lang === "en" && row.category_title_en ? row.category_title_en : row.category_title) ?? "",
      },
      lessons: lessons.map(lessonSummary),
      enrolment: member ? await findEnrolment(db, member.id, row.id) : null,
      continueLessonId: continueLesson(lessons),
    };
    return reply.success(data);
  });

  app.post("/api/course/enrol", async (req, reply) => {
    const member = await requireMember(db, req);
    const { courseId } = parse(z.object({ courseId: id }), req.body, msg`Please choose a course`);
    const course = await db.query<{ id: number; price: number }>("select id, price from course where id = $1 and status = 'enable'", [courseId]);
    if (!course.rows[0]) throw courseGone();
    const existing = await findEnrolment(db, member.id, courseId);
    if (existing) return reply.success({ enrolment: existing }, msg`You are already enrolled in this course`);
    if (Number(course.rows[0].price) > 0) throw new ApiError(msg`This is a paid course: please buy it to enrol`);
    await db.query("insert into course_enrolment (user_id, course_id, paid) values ($1, $2, 0) on conflict (user_id, course_id) do nothing", [
      member.id,
      courseId,
    ]);
    return reply.success({ enrolment: (await findEnrolment(db, member.id, courseId))! }, msg`You are enrolled in this course`);
  });

  app.post("/api/course/buy", async (req, reply) => {
    const member = await requireMember(db, req);
    const body = parse(z.object({ courseId: id, price }), req.body, msg`Please choose a course and send the price you were shown (in cents)`);
    const outcome = await db.transaction(async (tx) => {
      // The member row is locked first: two purchases of one member never interleave.
      const locked = await tx.query<{ money: number }>("select money from member where id = $1 for update", [member.id]);
      const balance = Number(locked.rows[0]!.money);
      const course = await tx.query<{ id: number; title: string; price: number }>(
        "select id, title, price from course where id = $1 and status = 'enable' for share",
        [body.courseId],
      );
      const row = course.rows[0];
      if (!row) throw courseGone();
      const existing = await findEnrolment(tx, member.id, row.id);
      if (existing) return { enrolment: existing, money: balance, charged: false };
      const current = Number(row.price);
      if (current === 0) throw new ApiError(msg`This course is free: enrol in it instead of buying it`);
      if (body.price !== current) {
        const price = formatPrice(current);
        throw new ApiError(msg`The price of this course has changed to ${price} yuan: please check it and try again`, 0, { price: current });
      }
      if (balance < current) {
        const price = formatPrice(current);
        const money = formatPrice(balance);
        throw new ApiError(msg`Your balance is not enough: this course costs ${price} yuan and your balance is ${money} yuan`, 0, {
          price: current,
          money: balance,
        });
      }
      const after = balance - current;
      const title = row.title;
      await tx.query("update member set money = $1, update_time = extract(epoch from now())::bigint where id = $2", [after, member.id]);
      // The memo is a key with parameters, shown in the reader's language (account/memos.ts).
      const memo = memos.courseBought(title);
      await tx.query("insert into user_money_log (user_id, money, before, after, memo_key, memo_params) values ($1, $2, $3, $4, $5, $6)", [
        member.id,
        -current,
        balance,
        after,
        memo.key,
        JSON.stringify(memo.params),
      ]);
      const inserted = await tx.query<{ course_id: number; create_time: number; paid: number }>(
        "insert into course_enrolment (user_id, course_id, paid) values ($1, $2, $3) returning course_id, create_time, paid",
        [member.id, row.id, current],
      );
      return { enrolment: enrolment(inserted.rows[0]!), money: after, charged: true };
    });
    return reply.success(
      { enrolment: outcome.enrolment, money: outcome.money },
      outcome.charged ? msg`Purchase complete: you are enrolled in this course` : msg`You are already enrolled in this course`,
    );
  });

  app.get("/api/course/my", async (req, reply) => {
    const member = await requireMember(db, req);
    const { rows } = await db.query<CourseRow & { enrolled_at: number }>(
      `select ${COURSE_COLUMNS}, e.create_time as enrolled_at
       from course_enrolment e join course c on c.id = e.course_id ${LESSON_STATS}
       where e.user_id = $1 and c.status = 'enable'`,
      [member.id],
    );
    const lessons = await courseLessons(db, rows.map((r) => r.id), member.id);
    const list: MyCourse[] = rows.map((r) => {
      const own = lessons.filter((l) => l.course_id === r.id);
      const completed = own.filter((l) => l.completed).length;
      return {
        ...courseSummary(r),
        completedLessons: completed,
        percent: own.length ? Math.floor((completed * 100) / own.length) : 0,
        continueLessonId: continueLesson(own),
        lastWatched: own.reduce((max, l) => Math.max(max, Number(l.last_watched ?? 0)), 0),
        enrolledAt: Number(r.enrolled_at),
      };
    });
    // Most recently studied first, then most recently enrolled.
    list.sort((a, b) => b.lastWatched - a.lastWatched || b.enrolledAt - a.enrolledAt || a.id - b.id);
    const data: MyCourses = { list };
    return reply.success(data);
  });

  app.get("/api/course/lesson", async (req, reply) => {
    const { id: lessonId } = parse(z.object({ id }), req.query, msg`Please choose a lesson`);
    const found = await db.query<{
      id: number;
      course_id: number;
      course_title: string;
      free_preview: boolean;
      content: string;
      video_url: string;
      video_type: string;
      video_size: number;
      attachments: unknown;
    }>(
      `select l.id, l.course_id, c.title as course_title, l.free_preview, l.content, l.video_url, l.video_type, l.video_size, l.attachments
       from lesson l join course c on c.id = l.course_id
       where l.id = $1 and l.status = 'enable' and c.status = 'enable'`,
      [lessonId],
    );
    const lesson = found.rows[0];
    if (!lesson) throw lessonGone();
    // A free preview is open to everyone; any other lesson needs a logged-in, enrolled member.
    const member = lesson.free_preview ? await optionalMember(db, req) : await requireMember(db, req);
    if (!lesson.free_preview && !(await findEnrolment(db, member!.id, lesson.course_id))) {
      throw new ApiError(msg`Please enrol in this course first`, 0, { courseId: lesson.course_id });
    }
    // The lesson's media are fetched by the video element and hls.js, which send no token header.
    if (member) await issueMediaCookie(db, req, reply, member.id);
    const siblings = await courseLessons(db, [lesson.course_id], member?.id ?? 0);
    const at = siblings.findIndex((l) => l.id === lesson.id);
    const self = siblings[at]!;
    const videoUrl = safeMediaUrl(lesson.video_url);
    const data: LessonDetail = {
      lesson: {
        ...lessonSummary(self),
        content: sanitizeRichText(lesson.content),
        videoUrl,
        videoType: videoUrl && VIDEO_TYPES.has(lesson.video_type) ? (lesson.video_type as LessonDetail["lesson"]["videoType"]) : "",
        videoSize: videoUrl ? Number(lesson.video_size) : 0,
        attachments: attachments(lesson.attachments),
      },
      course: { id: lesson.course_id, title: lesson.course_title },
      prevLessonId: siblings[at - 1]?.id ?? null,
      nextLessonId: siblings[at + 1]?.id ?? null,
    };
    return reply.success(data);
  });
}
