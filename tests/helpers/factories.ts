import { issueToken } from "../../src/server/auth/tokens.ts";
import type { Queryable } from "../../src/server/db/index.ts";

/**
 * Test data made by each test for itself (members, banks, questions, courses), so tests assert
 * on what they made and not on the demo content's counts. Each call makes new rows with unique
 * names; the values a test does not care about have plain defaults.
 */

let serial = 0;
const next = (prefix: string) => `${prefix}${Date.now().toString(36)}${(serial++).toString(36)}`;

export interface TestMember {
  id: number;
  username: string;
  /** An access token (`ba-user-token`) valid for an hour. */
  token: string;
  headers: Record<string, string>;
}

/** A member (balance and points in cents / points) with a live access token. */
export async function createMember(db: Queryable, options: { username?: string; money?: number; score?: number; groupId?: number | null } = {}): Promise<TestMember> {
  const username = options.username ?? next("m");
  const { rows } = await db.query<{ id: number }>(
    "insert into member (username, password_hash, money, score, group_id) values ($1, 'x', $2, $3, $4) returning id",
    [username, options.money ?? 0, options.score ?? 0, options.groupId ?? null],
  );
  const id = rows[0]!.id;
  const token = await issueToken(db, "user", id, 3600);
  return { id, username, token, headers: { "ba-user-token": token, "think-lang": "en" } };
}

/** A question bank (classify node): `practice` (listed, downloadable) or `exam` (exam-only). */
export async function createBank(db: Queryable, options: { title?: string; titleEn?: string; kind?: "practice" | "exam"; pid?: number } = {}): Promise<number> {
  const title = options.title ?? next("bank ");
  const { rows } = await db.query<{ id: number }>("insert into exam_classify (pid, title, title_en, weigh, kind) values ($1, $2, $3, 0, $4) returning id", [
    options.pid ?? 0,
    title,
    options.titleEn ?? title,
    options.kind ?? "practice",
  ]);
  return rows[0]!.id;
}

export interface QuestionSpec {
  type?: string;
  stem?: string;
  /** Option texts, keyed A, B, C... */
  options?: string[];
  answer?: unknown;
  analysis?: string;
  score?: number;
}

/** A question of `bankId` (a single-choice question with answer "A" unless told). */
export async function createQuestion(db: Queryable, bankId: number, spec: QuestionSpec = {}): Promise<number> {
  const options = (spec.options ?? ["one", "two", "three", "four"]).map((text, k) => ({ key: String.fromCharCode(65 + k), text }));
  const { rows } = await db.query<{ id: number }>(
    `insert into exam_question (classify_id, type, stem, options, answer, analysis, difficulty, score, weigh)
     values ($1, $2, $3, $4, $5, $6, 1, $7, 0) returning id`,
    [bankId, spec.type ?? "single", spec.stem ?? next("question "), JSON.stringify(options), JSON.stringify(spec.answer ?? "A"), spec.analysis ?? "because", spec.score ?? 1],
  );
  return rows[0]!.id;
}

/** A bank with `count` questions. */
export async function createBankWithQuestions(db: Queryable, count: number, options: Parameters<typeof createBank>[1] = {}): Promise<{ id: number; questionIds: number[] }> {
  const id = await createBank(db, options);
  const questionIds: number[] = [];
  for (let i = 0; i < count; i++) questionIds.push(await createQuestion(db, id));
  return { id, questionIds };
}

export interface LessonSpec {
  title?: string;
  freePreview?: boolean;
  videoUrl?: string;
  videoType?: "" | "mp4" | "webm" | "hls";
  duration?: number;
  content?: string;
}

/** A course (free unless `price`, in cents) in a new category, with its lessons in order. */
export async function createCourse(
  db: Queryable,
  options: { title?: string; price?: number; categoryId?: number; lessons?: LessonSpec[] } = {},
): Promise<{ id: number; categoryId: number; lessonIds: number[] }> {
  const categoryId =
    options.categoryId ??
    (await db.query<{ id: number }>("insert into course_category (pid, title, title_en, weigh) values (0, $1, $1, 0) returning id", [next("category ")])).rows[0]!.id;
  const title = options.title ?? next("course ");
  const { rows } = await db.query<{ id: number }>(
    "insert into course (category_id, title, cover, summary, introduction, price, weigh) values ($1, $2, '', $3, '', $4, 0) returning id",
    [categoryId, title, `about ${title}`, options.price ?? 0],
  );
  const id = rows[0]!.id;
  const lessons = options.lessons ?? [{}];
  const lessonIds: number[] = [];
  for (const [i, lesson] of lessons.entries()) {
    const inserted = await db.query<{ id: number }>(
      `insert into lesson (course_id, title, content, video_url, video_type, video_size, duration, attachments, free_preview, weigh)
       values ($1, $2, $3, $4, $5, 0, $6, '[]', $7, $8) returning id`,
      [id, lesson.title ?? `lesson ${i + 1}`, lesson.content ?? "", lesson.videoUrl ?? "", lesson.videoType ?? "", lesson.duration ?? 60, lesson.freePreview ?? false, lessons.length - i],
    );
    lessonIds.push(inserted.rows[0]!.id);
  }
  return { id, categoryId, lessonIds };
}
