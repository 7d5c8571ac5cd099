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
import { safeMediaUrl, sanitizeRichText } from "./html.ts";
import {
  countCourses,
  courseDetailRow,
  coursePage,
  enabledCategories,
  enrolledCourseRows,
  enrolmentRow,
  lessonRecord,
  lessonRowsOf,
  visibleCourseCounts,
  type CategoryRow,
  type CourseRow,
  type LessonRecord,
  type LessonRow,
} from "./repository.ts";

export type { CategoryRow, CourseRow, LessonRecord, LessonRow } from "./repository.ts";

/**
 * The course read model (src/shared/course/types.ts is the contract): catalogue, detail, my
 * courses, a lesson's siblings and progress. Courses, lessons and categories are visible while
 * their status is 'enable' and, for courses, while they are open to the member
 * (src/server/modules/org/visibility.ts: assigned to the member's company, duty or classroom, or to nobody, i.e. open to
 * all; member 0 sees only those open to all); lists are ordered by weigh (desc) then id. Enrolling and buying are
 * in ./enrolment.ts, the routes in ./routes.ts.
 */


/** `x ilike $n escape '\'` matches the text literally: %, _ and \ lose their meaning. */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

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

/** A course's enabled lessons in order, with the member's progress (`$2`; 0: nobody). */
export async function courseLessons(db: Queryable, courseIds: number[], memberId: number): Promise<LessonRow[]> {
  if (courseIds.length === 0) return [];
  return lessonRowsOf(db, courseIds, memberId);
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
  const row = await enrolmentRow(db, userId, courseId);
  return row ? enrolment(row) : null;
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
  const categories = await enabledCategories(db);
  const counted = await visibleCourseCounts(db, memberId);
  const { tree, nodes } = categoryTree(categories, new Map(counted.map((r) => [r.category_id, r.n])), req);

  const filter = {
    ...(q.categoryId > 0 ? { categoryIds: withDescendants(nodes.get(q.categoryId)) } : {}),
    ...(q.keyword ? { pattern: likePattern(q.keyword) } : {}),
  };
  const total = await countCourses(db, memberId, filter);
  const rows = await coursePage(db, memberId, filter, q.limit, (q.page - 1) * q.limit);
  return { categories: tree, list: rows.map(courseSummary), total };
}

/** A course with its lessons and the member's progress and enrolment; null when not visible. */
export async function courseDetail(db: Queryable, courseId: number, member: MemberRow | null, req: FastifyRequest): Promise<CourseDetail | null> {
  const memberId = member?.id ?? 0;
  const row = await courseDetailRow(db, courseId, memberId);
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
  const rows = await enrolledCourseRows(db, memberId);
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

/** A lesson of a course the member (0: nobody) may see. */
export async function findLesson(db: Queryable, lessonId: number, memberId: number): Promise<LessonRecord | undefined> {
  return lessonRecord(db, lessonId, memberId);
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
