import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import type { Queryable } from "../../src/server/db/index.ts";
import type { Memo } from "../../src/server/modules/account/memos.ts";

/**
 * Test data made by each test for itself (members and their account logs, admins, banks,
 * questions, papers, exam rooms, courses with their lessons, files in storage), so tests assert
 * on what they made and not on the demo content. Each call makes new rows with unique names; the
 * values a test does not care about have plain defaults.
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

/**
 * A member (balance and points in cents / points) with a live access token; with `password`, one
 * who can also log in.
 */
export async function createMember(
  db: Queryable,
  options: { username?: string; password?: string; email?: string; mobile?: string; money?: number; score?: number; groupId?: number | null; companyId?: number | null; dutyId?: number | null } = {},
): Promise<TestMember> {
  const username = options.username ?? next("m");
  const { rows } = await db.query<{ id: number }>(
    "insert into member (username, password_hash, email, money, score, group_id, company_id, duty_id, mobile) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id",
    [
      username,
      options.password ? await hashPassword(options.password) : "x",
      options.email ?? null,
      options.money ?? 0,
      options.score ?? 0,
      options.groupId ?? null,
      options.companyId ?? null,
      options.dutyId ?? null,
      options.mobile ?? null,
    ],
  );
  const id = rows[0]!.id;
  const token = await issueToken(db, "user", id, 3600);
  return { id, username, token, headers: { "ba-user-token": token, "think-lang": "en" } };
}

/** One log row: how many days ago, the change (cents for money), the memo. */
export type AccountLogEntry = [daysAgo: number, change: number, memo: Memo];

/**
 * A member's balance and points logs, oldest first: each row's `before` is the previous row's
 * `after`, starting at 0, and the member's balance and points become the last ones.
 */
export async function createAccountLogs(db: Queryable, memberId: number, logs: { money?: AccountLogEntry[]; score?: AccountLogEntry[] }): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  for (const [table, column, entries] of [
    ["user_money_log", "money", logs.money ?? []],
    ["user_score_log", "score", logs.score ?? []],
  ] as const) {
    let before = 0;
    for (const [daysAgo, change, memo] of entries) {
      await db.query(`insert into ${table} (user_id, ${column}, before, after, memo_key, memo_params, create_time) values ($1, $2, $3, $4, $5, $6, $7)`, [
        memberId,
        change,
        before,
        before + change,
        memo.key,
        JSON.stringify(memo.params),
        now - daysAgo * 86_400,
      ]);
      before += change;
    }
    if (entries.length > 0) await db.query(`update member set ${column} = $1 where id = $2`, [before, memberId]);
  }
}

export interface TestAdmin {
  id: number;
  username: string;
  /** An access token (`batoken`) valid for an hour. */
  token: string;
  headers: Record<string, string>;
}

/** An admin with a live access token: a super admin (every rule) unless told; with `companyId`, a company admin of it. */
export async function createAdmin(db: Queryable, options: { username?: string; isSuper?: boolean; companyId?: number } = {}): Promise<TestAdmin> {
  const username = options.username ?? next("a");
  const { rows } = await db.query<{ id: number }>("insert into admin (username, password_hash, is_super, is_company, company_id) values ($1, 'x', $2, $3, $4) returning id", [
    username,
    options.isSuper ?? options.companyId === undefined,
    options.companyId !== undefined,
    options.companyId ?? null,
  ]);
  const id = rows[0]!.id;
  const token = await issueToken(db, "admin", id, 3600);
  return { id, username, token, headers: { batoken: token, "think-lang": "en" } };
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
  /** 1..5; 1 unless told. */
  difficulty?: number;
}

/**
 * A question of `bankId` (a single-choice question with answer "A" unless told; a true-or-false
 * question has no options unless told).
 */
export async function createQuestion(db: Queryable, bankId: number, spec: QuestionSpec = {}): Promise<number> {
  const texts = spec.options ?? (spec.type === "judge" ? [] : ["one", "two", "three", "four"]);
  const options = texts.map((text, k) => ({ key: String.fromCharCode(65 + k), text }));
  const { rows } = await db.query<{ id: number }>(
    `insert into exam_question (classify_id, type, stem, options, answer, analysis, difficulty, score, weigh)
     values ($1, $2, $3, $4, $5, $6, $8, $7, 0) returning id`,
    [bankId, spec.type ?? "single", spec.stem ?? next("question "), JSON.stringify(options), JSON.stringify(spec.answer ?? "A"), spec.analysis ?? "because", spec.score ?? 1, spec.difficulty ?? 1],
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

/** One row of a paper: a fixed question, or `count` questions of `type` (and `difficulty`, unless any) drawn from bank `draw`. */
export type PaperRowSpec = { fixed: number; score?: number } | { draw: number; type?: string; difficulty?: number | null; count: number; score?: number };

export interface PaperSpec {
  title?: string;
  totalScore?: number;
  passScore?: number;
  /** Seconds. */
  duration?: number;
  partialCredit?: boolean;
  /** In paper order. */
  rows: PaperRowSpec[];
}

/**
 * A paper with its rows (a mock paper, unless a room that has not ended uses it or it can hold
 * withheld questions). Unless told, its total is what its rows add up to and its pass score at
 * most 60 of it, as staff's forms require.
 */
export async function createPaper(db: Queryable, spec: PaperSpec): Promise<number> {
  const rowsTotal = spec.rows.reduce((sum, row) => sum + (row.score ?? 1) * ("fixed" in row ? 1 : row.count), 0);
  const total = spec.totalScore ?? rowsTotal;
  const { rows } = await db.query<{ id: number }>(
    "insert into exam_paper (title, total_score, pass_score, duration, partial_credit) values ($1, $2, $3, $4, $5) returning id",
    [spec.title ?? next("paper "), total, spec.passScore ?? Math.min(60, total), spec.duration ?? 3600, spec.partialCredit ?? false],
  );
  const id = rows[0]!.id;
  for (const [i, row] of spec.rows.entries()) {
    const weigh = spec.rows.length - i;
    if ("fixed" in row) {
      await db.query("insert into exam_paper_row (paper_id, kind, question_id, score, weigh) values ($1, 'fixed', $2, $3, $4)", [id, row.fixed, row.score ?? 1, weigh]);
    } else {
      await db.query("insert into exam_paper_row (paper_id, kind, classify_id, question_type, difficulty, count, score, weigh) values ($1, 'draw', $2, $3, $4, $5, $6, $7)", [
        id,
        row.draw,
        row.type ?? "single",
        row.difficulty ?? null,
        row.count,
        row.score ?? 1,
        weigh,
      ]);
    }
  }
  return id;
}

export interface RoomSpec {
  title?: string;
  /** Unix seconds; open from a minute ago for a day unless told. */
  startTime?: number;
  endTime?: number;
  /** Seconds per attempt. */
  duration?: number;
  attemptsAllowed?: number;
  passScore?: number;
  reviewPolicy?: "submitted" | "closed" | "never";
  latePolicy?: "review" | "refuse";
  userGroupId?: number | null;
  /** The room's face rule. */
  faceRuleId?: number | null;
}

/** An official exam room sitting `paperId` (its pass score, unless told, 60 or the paper's total if less). */
export async function createRoom(db: Queryable, paperId: number, spec: RoomSpec = {}): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const { rows } = await db.query<{ id: number }>(
    `insert into exam_room (paper_id, title, start_time, end_time, duration, attempts_allowed, pass_score, review_policy, late_policy, user_group_id, face_rule_id)
     values ($1, $2, $3, $4, $5, $6, coalesce($7, least(60, (select total_score from exam_paper where id = $1))), $8, $9, $10, $11) returning id`,
    [
      paperId,
      spec.title ?? next("room "),
      spec.startTime ?? now - 60,
      spec.endTime ?? now + 86_400,
      spec.duration ?? 600,
      spec.attemptsAllowed ?? 1,
      spec.passScore ?? null,
      spec.reviewPolicy ?? "never",
      spec.latePolicy ?? "review",
      spec.userGroupId ?? null,
      spec.faceRuleId ?? null,
    ],
  );
  return rows[0]!.id;
}

export interface FaceRuleSpec {
  name?: string;
  beforeStart?: boolean;
  everyMinutes?: number;
  randomCount?: number;
  threshold?: number;
  liveness?: boolean;
  maxFailures?: number;
  action?: "stop" | "flag";
}

/** A face rule: before the start only, threshold 0.6, flag after 3 failures unless told. */
export async function createFaceRule(db: Queryable, spec: FaceRuleSpec = {}): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into face_rule (name, before_start, every_minutes, random_count, threshold, liveness, max_failures, action)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [spec.name ?? next("face rule "), spec.beforeStart ?? true, spec.everyMinutes ?? 0, spec.randomCount ?? 0, spec.threshold ?? 0.6, spec.liveness ?? false, spec.maxFailures ?? 3, spec.action ?? "flag"],
  );
  return rows[0]!.id;
}

/**
 * An official exam as the product sets one up: an exam-only bank of `singles` single-choice and
 * `judges` true-or-false questions (answers alternate "A"/"B" and "T"/"F"), a paper drawing
 * `draw` of each type at `score` points, and a room open now (`room` overrides its settings).
 */
export async function createOfficialExam(
  db: Queryable,
  options: { singles?: number; judges?: number; draw?: number; score?: number; paper?: Omit<PaperSpec, "rows">; room?: RoomSpec } = {},
): Promise<{ bankId: number; questionIds: number[]; paperId: number; roomId: number }> {
  const bankId = await createBank(db, { kind: "exam" });
  const questionIds: number[] = [];
  for (let i = 0; i < (options.singles ?? 15); i++) questionIds.push(await createQuestion(db, bankId, { answer: i % 2 ? "B" : "A", score: options.score ?? 2 }));
  for (let i = 0; i < (options.judges ?? 15); i++) questionIds.push(await createQuestion(db, bankId, { type: "judge", answer: i % 2 ? "F" : "T", score: options.score ?? 2 }));
  const draw = options.draw ?? 5;
  const paperId = await createPaper(db, {
    ...options.paper,
    rows: [
      { draw: bankId, type: "single", count: draw, score: options.score ?? 2 },
      { draw: bankId, type: "judge", count: draw, score: options.score ?? 2 },
    ],
  });
  const roomId = await createRoom(db, paperId, options.room);
  return { bankId, questionIds, paperId, roomId };
}

/** A course category (under `pid` when given). */
export async function createCourseCategory(db: Queryable, options: { title?: string; titleEn?: string; pid?: number } = {}): Promise<number> {
  const title = options.title ?? next("category ");
  const { rows } = await db.query<{ id: number }>("insert into course_category (pid, title, title_en, weigh) values ($1, $2, $3, 0) returning id", [
    options.pid ?? 0,
    title,
    options.titleEn ?? title,
  ]);
  return rows[0]!.id;
}

export interface LessonSpec {
  title?: string;
  freePreview?: boolean;
  videoUrl?: string;
  videoType?: "" | "mp4" | "webm" | "hls";
  /** Bytes of the video (HLS: playlist and media). */
  videoSize?: number;
  duration?: number;
  content?: string;
  attachments?: { name: string; url: string; size: number }[];
}

/** A course (free unless `price`, in cents) in a new category unless told, with its lessons in order. */
export async function createCourse(
  db: Queryable,
  options: { title?: string; summary?: string; introduction?: string; cover?: string; price?: number; categoryId?: number; lessons?: LessonSpec[] } = {},
): Promise<{ id: number; categoryId: number; lessonIds: number[] }> {
  const categoryId = options.categoryId ?? (await createCourseCategory(db));
  const title = options.title ?? next("course ");
  const { rows } = await db.query<{ id: number }>(
    "insert into course (category_id, title, cover, summary, introduction, price, weigh) values ($1, $2, $3, $4, $5, $6, 0) returning id",
    [categoryId, title, options.cover ?? "", options.summary ?? `about ${title}`, options.introduction ?? "", options.price ?? 0],
  );
  const id = rows[0]!.id;
  const lessons = options.lessons ?? [{}];
  const lessonIds: number[] = [];
  for (const [i, lesson] of lessons.entries()) {
    const inserted = await db.query<{ id: number }>(
      `insert into lesson (course_id, title, content, video_url, video_type, video_size, duration, attachments, free_preview, weigh)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
      [
        id,
        lesson.title ?? `lesson ${i + 1}`,
        lesson.content ?? "",
        lesson.videoUrl ?? "",
        lesson.videoType ?? "",
        lesson.videoSize ?? 0,
        lesson.duration ?? 60,
        JSON.stringify(lesson.attachments ?? []),
        lesson.freePreview ?? false,
        lessons.length - i,
      ],
    );
    lessonIds.push(inserted.rows[0]!.id);
  }
  return { id, categoryId, lessonIds };
}

export interface StoredFile {
  /** `/storage/...` */
  url: string;
  size: number;
  data: Buffer;
}

/** A file under `<dataDir>/storage` at `url` (`/storage/...`). */
export function storeFile(dataDir: string, url: string, data: Buffer | string): StoredFile {
  if (!url.startsWith("/storage/")) throw new Error(`not a storage URL: ${url}`);
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, "utf8");
  const file = path.join(dataDir, "storage", url.slice("/storage/".length));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  return { url, size: bytes.length, data: bytes };
}

/** The files `storeLessonMedia` makes, by their path under its folder. */
export const LESSON_MEDIA = [
  "pattern.mp4",
  "bars.mp4",
  "pattern.webm",
  "hls/index.m3u8",
  "hls/init.mp4",
  "hls/segment-00.m4s",
  "hls/segment-01.m4s",
  "hls/segment-02.m4s",
  "hls/segment-03.m4s",
  "hls/segment-04.m4s",
  "cheatsheet.txt",
  "cover-video.jpg",
] as const;
export type LessonMediaName = (typeof LESSON_MEDIA)[number];

/** An ISO BMFF `ftyp` box (how MP4 files and HLS init sections start). */
const FTYP = Buffer.from("00000018667479706973736f6d000002006973736f6d6d703431", "hex");
/** The EBML magic number a WebM file starts with. */
const EBML = Buffer.from("1a45dfa3", "hex");
/** A JPEG's start-of-image and JFIF header. */
const JPEG = Buffer.from("ffd8ffe000104a46494600", "hex");

/**
 * Lesson media made for a test under `/storage/course/<folder>/`: not playable, but shaped like
 * the real thing where servers look (an MP4's `ftyp` box, a WebM's EBML header, an HLS playlist
 * naming its init section and five segments), each file with random content of its own. `hls` is
 * the HLS video's URL and size (playlist and media, as a lesson records it).
 */
export function storeLessonMedia(dataDir: string, folder: string): { base: string; files: Record<LessonMediaName, StoredFile>; hls: { url: string; size: number } } {
  const base = `/storage/course/${folder}`;
  const random = (bytes: number) => randomBytes(bytes);
  const segments = [0, 1, 2, 3, 4].map((i) => `segment-0${i}.m4s`);
  const playlist = [
    "#EXTM3U",
    "#EXT-X-VERSION:7",
    "#EXT-X-TARGETDURATION:4",
    "#EXT-X-PLAYLIST-TYPE:VOD",
    '#EXT-X-MAP:URI="init.mp4"',
    ...segments.flatMap((s) => ["#EXTINF:4.000000,", s]),
    "#EXT-X-ENDLIST",
    "",
  ].join("\n");
  const content: Record<LessonMediaName, Buffer> = {
    "pattern.mp4": Buffer.concat([FTYP, random(48_000)]),
    "bars.mp4": Buffer.concat([FTYP, random(40_000)]),
    "pattern.webm": Buffer.concat([EBML, random(32_000)]),
    "hls/index.m3u8": Buffer.from(playlist, "utf8"),
    "hls/init.mp4": Buffer.concat([FTYP, random(1_000)]),
    "hls/segment-00.m4s": random(24_000),
    "hls/segment-01.m4s": random(24_000),
    "hls/segment-02.m4s": random(24_000),
    "hls/segment-03.m4s": random(24_000),
    "hls/segment-04.m4s": random(24_000),
    "cheatsheet.txt": Buffer.from(`MP4, WebM, HLS: a cheat sheet (${folder})\n`, "utf8"),
    "cover-video.jpg": Buffer.concat([JPEG, random(2_000)]),
  };
  const files = Object.fromEntries(LESSON_MEDIA.map((name) => [name, storeFile(dataDir, `${base}/${name}`, content[name])])) as Record<LessonMediaName, StoredFile>;
  const hlsSize = LESSON_MEDIA.filter((name) => name.startsWith("hls/")).reduce((sum, name) => sum + files[name].size, 0);
  return { base, files, hls: { url: `${base}/hls/index.m3u8`, size: hlsSize } };
}

/** A company (under `pid` when given). */
export async function createCompany(db: Queryable, options: { name?: string; pid?: number } = {}): Promise<number> {
  const { rows } = await db.query<{ id: number }>("insert into company (pid, name) values ($1, $2) returning id", [options.pid ?? 0, options.name ?? next("company ")]);
  return rows[0]!.id;
}

/** A duty (job position). */
export async function createDuty(db: Queryable, options: { name?: string } = {}): Promise<number> {
  const { rows } = await db.query<{ id: number }>("insert into duty (name) values ($1) returning id", [options.name ?? next("duty ")]);
  return rows[0]!.id;
}

/** A classroom of a company (or none) with these members. */
export async function createClassroom(db: Queryable, options: { name?: string; companyId?: number | null; memberIds?: number[]; status?: "enable" | "disable" } = {}): Promise<number> {
  const { rows } = await db.query<{ id: number }>("insert into classroom (name, company_id, status) values ($1, $2, $3) returning id", [
    options.name ?? next("classroom "),
    options.companyId ?? null,
    options.status ?? "enable",
  ]);
  const id = rows[0]!.id;
  for (const member of options.memberIds ?? []) await db.query("insert into classroom_member (classroom_id, user_id) values ($1, $2)", [id, member]);
  return id;
}

/** Assigns a course, exam room or bank to companies, duties and classrooms (it is then open only to them). */
export async function assign(db: Queryable, target: "course" | "room" | "bank", id: number, to: { companies?: number[]; duties?: number[]; classrooms?: number[] }): Promise<void> {
  const column = { course: "course_id", room: "room_id", bank: "bank_id" }[target];
  for (const [by, ids] of [["company_id", to.companies], ["duty_id", to.duties], ["classroom_id", to.classrooms]] as const) {
    for (const other of ids ?? []) await db.query(`insert into org_access (${column}, ${by}) values ($1, $2)`, [id, other]);
  }
}

export interface AttemptSpec {
  /** Unix seconds it started (a minute ago unless told). */
  startedAt?: number;
  /** `open` (being sat), `submitted` (default) or `expired`. */
  status?: "open" | "submitted" | "expired";
  score?: number | null;
  /** Null: waiting for marking. */
  passed?: boolean | null;
}

/** An official attempt of `memberId` in room `roomId` as it stands after grading (no answers: reports read only the outcome). */
export async function createAttempt(db: Queryable, roomId: number, memberId: number, spec: AttemptSpec = {}): Promise<number> {
  const startedAt = spec.startedAt ?? Math.floor(Date.now() / 1000) - 60;
  const status = spec.status ?? "submitted";
  const { rows } = await db.query<{ id: number }>(
    `insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, score, passed, started_at, submitted_at, status)
     values ($1, $2, 'official', (select paper_id from exam_room where id = $3), $3, $4, $5, $6, $7, $8) returning id`,
    [next("attempt-"), memberId, roomId, status === "open" ? null : (spec.score ?? 0), status === "open" ? null : spec.passed === undefined ? false : spec.passed, startedAt, status === "submitted" ? startedAt + 30 : null, status],
  );
  return rows[0]!.id;
}

/** A member's progress in a lesson: watched (position), completed or not; `at` in Unix seconds (now unless told). */
export async function createLessonProgress(db: Queryable, memberId: number, lessonId: number, options: { completed?: boolean; at?: number } = {}): Promise<void> {
  const at = options.at ?? Math.floor(Date.now() / 1000);
  await db.query(
    `insert into lesson_progress (user_id, lesson_id, position, completed, completed_at, last_watched, at, op_id) values ($1, $2, 10, $3, $4, $5, $6, $7)`,
    [memberId, lessonId, options.completed ?? false, options.completed ? at * 1000 : null, at, at * 1000, next("op-")],
  );
}
