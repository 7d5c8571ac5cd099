import type { FastifyRequest } from "fastify";
import type {
  CourseCategoryNode,
  CourseDetail,
  CourseList,
  CourseSummary,
  Enrolment,
  LessonAttachment,
  LessonDetail,
  LessonSummary,
  MyCourse,
  MyCourses,
} from "../../../shared/course/types.ts";
import type { Queryable } from "../../db/index.ts";
import type { MemberRow } from "../../plugins/auth.ts";
import { visibleSql } from "../org/visibility.ts";
import { safeMediaUrl, sanitizeRichText } from "./html.ts";

/**
 * The course read model (src/shared/course/types.ts is the contract): catalogue, detail, my
 * courses, a lesson's siblings and progress. Courses, lessons and categories are visible while
 * their status is 'enable' and, for courses, while they are open to the member (modules/org/
 * visibility.ts: assigned to the member's company, duty or classroom, or to nobody, i.e. open to
 * all; member 0 sees only those open to all); lists are ordered by weigh (desc) then id. Enrolling and buying are
 * in ./enrolment.ts, the routes in ./routes.ts.
 */


/** `x ilike $n escape '\'` matches the text literally: %, _ and \ lose their meaning. */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

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

/** A course `c` the member `$1` may see and open (0: nobody logged in). */
export const COURSE_VISIBLE = visibleSql("course", "c.id", "$1");

/** The columns of a CourseSummary; `$1` is the member id (0: nobody). */
export const COURSE_COLUMNS = `c.id, c.category_id, c.title, c.cover, c.summary, c.price, ls.lesson_count, ls.duration,
  exists (select 1 from course_enrolment e where e.course_id = c.id and e.user_id = $1) as enrolled`;
export const LESSON_STATS = `cross join lateral (
  select count(*)::int as lesson_count, coalesce(sum(l.duration), 0)::int as duration
  from lesson l where l.course_id = c.id and l.status = 'enable') ls`;

export function courseSummary(r: CourseRow): CourseSummary {
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

/** A course's enabled lessons in order, with the member's progress (`$2`; 0: nobody). */
export async function courseLessons(db: Queryable, courseIds: number[], memberId: number): Promise<LessonRow[]> {
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

export function lessonSummary(r: LessonRow): LessonSummary {
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

export function enrolment(r: { course_id: number; create_time: number; paid: number }): Enrolment {
  return { courseId: r.course_id, enrolledAt: Number(r.create_time), paid: Number(r.paid) };
}

export async function findEnrolment(db: Queryable, userId: number, courseId: number): Promise<Enrolment | null> {
  const { rows } = await db.query<{ course_id: number; create_time: number; paid: number }>(
    "select course_id, create_time, paid from course_enrolment where user_id = $1 and course_id = $2",
    [userId, courseId],
  );
  return rows[0] ? enrolment(rows[0]) : null;
}

export interface CategoryRow {
  id: number;
  pid: number;
  title: string;
  title_en: string;
}

/** The enabled category tree; each node counts the enabled courses in it and its sub-categories. */
export function categoryTree(rows: CategoryRow[], counts: Map<number, number>, req: FastifyRequest): { tree: CourseCategoryNode[]; nodes: Map<number, CourseCategoryNode> } {
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
export function withDescendants(node: CourseCategoryNode | undefined): number[] {
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

export function attachments(value: unknown): LessonAttachment[] {
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

export const VIDEO_TYPES = new Set(["mp4", "webm", "hls"]);

/** What the catalogue shows: a page of courses matching the filters. */
export interface CourseListQuery {
  categoryId: number;
  keyword: string;
  page: number;
  limit: number;
}

export async function listCourses(db: Queryable, q: CourseListQuery, memberId: number, req: FastifyRequest): Promise<CourseList> {
  const categories = await db.query<CategoryRow>("select id, pid, title, title_en from course_category where status = 'enable' order by weigh desc, id");
  const counted = await db.query<{ category_id: number; n: number }>(
    `select c.category_id, count(*)::int as n from course c where c.status = 'enable' and ${COURSE_VISIBLE} group by c.category_id`,
    [memberId],
  );
  const { tree, nodes } = categoryTree(categories.rows, new Map(counted.rows.map((r) => [r.category_id, r.n])), req);

  // The filters, their placeholders numbered from `first` (the list query has the member as $1).
  const filters: { sql: (n: number) => string; value: unknown }[] = [];
  if (q.categoryId > 0) filters.push({ sql: (n) => `c.category_id = any($${n}::int[])`, value: withDescendants(nodes.get(q.categoryId)) });
  if (q.keyword) filters.push({ sql: (n) => `(c.title ilike $${n} escape '\\' or c.summary ilike $${n} escape '\\')`, value: likePattern(q.keyword) });
  const where = (first: number) => ["c.status = 'enable'", COURSE_VISIBLE, ...filters.map((f, i) => f.sql(first + i))].join(" and ");
  const values = filters.map((f) => f.value);
  const total = await db.query<{ n: number }>(`select count(*)::int as n from course c where ${where(2)}`, [memberId, ...values]);
  const n = values.length;
  const { rows } = await db.query<CourseRow>(
    `select ${COURSE_COLUMNS} from course c ${LESSON_STATS}
     where ${where(2)} order by c.weigh desc, c.id limit $${n + 2} offset $${n + 3}`,
    [memberId, ...values, q.limit, (q.page - 1) * q.limit],
  );
  return { categories: tree, list: rows.map(courseSummary), total: total.rows[0]?.n ?? 0 };
}

/** A course with its lessons and the member's progress and enrolment; null when not visible. */
export async function courseDetail(db: Queryable, courseId: number, member: MemberRow | null, req: FastifyRequest): Promise<CourseDetail | null> {
  const memberId = member?.id ?? 0;
  const { rows } = await db.query<CourseRow & { introduction: string; category_title: string | null; category_title_en: string | null }>(
    `select ${COURSE_COLUMNS}, c.introduction, cc.title as category_title, cc.title_en as category_title_en
     from course c ${LESSON_STATS} left join course_category cc on cc.id = c.category_id
     where c.id = $2 and c.status = 'enable' and ${COURSE_VISIBLE}`,
    [memberId, courseId],
  );
  const row = rows[0];
  if (!row) return null;
  const lessons = await courseLessons(db, [row.id], memberId);
  return {
    course: {
      ...courseSummary(row),
      introduction: sanitizeRichText(row.introduction),
      categoryTitle: (req.lang === "en" && row.category_title_en ? row.category_title_en : row.category_title) ?? "",
    },
    lessons: lessons.map(lessonSummary),
    enrolment: member ? await findEnrolment(db, member.id, row.id) : null,
    continueLessonId: continueLesson(lessons),
  };
}

/** The member's enrolled courses, most recently studied first, then most recently enrolled. */
export async function myCourses(db: Queryable, memberId: number): Promise<MyCourses> {
  const { rows } = await db.query<CourseRow & { enrolled_at: number }>(
    `select ${COURSE_COLUMNS}, e.create_time as enrolled_at
     from course_enrolment e join course c on c.id = e.course_id ${LESSON_STATS}
     where e.user_id = $1 and c.status = 'enable' and ${COURSE_VISIBLE}`,
    [memberId],
  );
  const lessons = await courseLessons(db, rows.map((r) => r.id), memberId);
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
  list.sort((a, b) => b.lastWatched - a.lastWatched || b.enrolledAt - a.enrolledAt || a.id - b.id);
  return { list };
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

/** A lesson of a course the member (0: nobody) may see. */
export async function findLesson(db: Queryable, lessonId: number, memberId: number): Promise<LessonRecord | undefined> {
  const found = await db.query<LessonRecord>(
    `select l.id, l.course_id, c.title as course_title, l.free_preview, l.content, l.video_url, l.video_type, l.video_size, l.attachments
     from lesson l join course c on c.id = l.course_id
     where l.id = $2 and l.status = 'enable' and c.status = 'enable' and ${COURSE_VISIBLE}`,
    [memberId, lessonId],
  );
  return found.rows[0];
}

/** The lesson as the player shows it, with its neighbours and the member's progress (0: nobody). */
export async function lessonDetail(db: Queryable, lesson: LessonRecord, memberId: number): Promise<LessonDetail> {
  const siblings = await courseLessons(db, [lesson.course_id], memberId);
  const at = siblings.findIndex((l) => l.id === lesson.id);
  const self = siblings[at]!;
  const videoUrl = safeMediaUrl(lesson.video_url);
  return {
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
}
