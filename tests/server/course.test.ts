import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LESSON_COMPLETE_POINTS } from "../../src/shared/course/types.ts";
import { hashToken, issueSession, issueToken } from "../../src/server/auth/tokens.ts";
import { hashPassword } from "../../src/server/auth/password.ts";
import { forgetCourseMedia } from "../../src/server/modules/course/mediaAccess.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCourse, createCourseCategory, storeLessonMedia, type LessonMediaName, type LessonSpec } from "../helpers/factories.ts";

let t: TestApp;
let dataDir: string;
const course = { study: 0, video: 0, english: 0 };
const category = { study: 0, tech: 0, video: 0 };
/** Lessons of each course in course order. */
const lessons: Record<keyof typeof course, { id: number; title: string; duration: number; free_preview: boolean; video_url: string }[]> = {
  study: [],
  video: [],
  english: [],
};
/** The paid course's price (cents). */
const PRICE = 1990;
/** Seconds of each lesson video. */
const DURATIONS = { "pattern.mp4": 30, "bars.mp4": 24, "pattern.webm": 20, hls: 24 } as const;
/** Where the free courses' and the paid course's lesson media live (the paid one's are its own: a file a free course uses is open to everyone). */
const free = "/storage/course/free";
const paid = "/storage/course/paid";
const VIDEO_TITLE = "网页视频入门：格式、编码与流媒体";

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-course-"));
  t = await createTestApp({ config: { dataDir } });
  const db = t.database.db;
  // A catalogue of the test's own: three categories (one under another), two free courses and a
  // paid one, with MP4, WebM, HLS and text-only lessons, a free preview with an attachment.
  const freeMedia = storeLessonMedia(dataDir, "free");
  const paidMedia = storeLessonMedia(dataDir, "paid");
  const video = (media: typeof freeMedia, name: LessonMediaName & keyof typeof DURATIONS): LessonSpec => ({
    videoUrl: media.files[name].url,
    videoType: name.endsWith(".webm") ? "webm" : "mp4",
    videoSize: media.files[name].size,
    duration: DURATIONS[name],
  });
  const hls = (media: typeof freeMedia): LessonSpec => ({ videoUrl: media.hls.url, videoType: "hls", videoSize: media.hls.size, duration: DURATIONS.hls });
  category.study = await createCourseCategory(db, { title: "学习方法", titleEn: "Study skills" });
  category.tech = await createCourseCategory(db, { title: "技术入门", titleEn: "Tech basics" });
  category.video = await createCourseCategory(db, { title: "网页视频", titleEn: "Web video", pid: category.tech });
  course.study = (
    await createCourse(db, {
      categoryId: category.study,
      title: "高效学习法：从计划到复盘",
      summary: "用一周时间建立自己的学习系统：制定计划、专注执行、主动回忆与每周复盘。",
      lessons: [
        { title: "为什么要制定学习计划", ...video(freeMedia, "pattern.mp4") },
        { title: "番茄工作法：25 分钟的专注", ...video(freeMedia, "bars.mp4") },
        { title: "主动回忆与间隔重复（图文课时）", duration: 0, content: "<p>本课时没有视频。</p>" },
        { title: "每周复盘：让计划越来越准", ...video(freeMedia, "pattern.webm") },
      ],
    })
  ).id;
  course.video = (
    await createCourse(db, {
      categoryId: category.video,
      title: VIDEO_TITLE,
      cover: freeMedia.files["cover-video.jpg"].url,
      summary: "弄懂 MP4、WebM 与 HLS 的区别，理解浏览器如何拖动进度和离线缓存视频。",
      introduction: '<h3>课程大纲</h3><p>参考资料：<a href="https://developer.mozilla.org/zh-CN/docs/Web/Media/Formats" target="_blank">MDN</a></p>',
      price: PRICE,
      lessons: [
        {
          title: "容器与编码（免费试看）",
          ...video(paidMedia, "pattern.mp4"),
          freePreview: true,
          content: "<p>把索引放在文件开头：</p><pre><code>ffmpeg -i input.mov -movflags +faststart output.mp4</code></pre>",
          attachments: [{ name: "视频格式速查.txt", url: paidMedia.files["cheatsheet.txt"].url, size: paidMedia.files["cheatsheet.txt"].size }],
        },
        { title: "WebM 与开放格式", ...video(paidMedia, "pattern.webm") },
        { title: "HLS 流媒体：播放列表与分片", ...hls(paidMedia) },
        { title: "HTTP Range 请求与拖动进度", ...video(paidMedia, "bars.mp4") },
      ],
    })
  ).id;
  course.english = (
    await createCourse(db, {
      categoryId: category.study,
      title: "English for Exams: Reading Strategies",
      summary: "Three short lessons on reading exam passages faster and answering more accurately.",
      lessons: [
        { title: "Skimming and scanning", ...video(freeMedia, "bars.mp4") },
        { title: "Read the questions first", ...hls(freeMedia) },
        { title: "Vocabulary in context", ...video(freeMedia, "pattern.webm") },
      ],
    })
  ).id;
  for (const key of Object.keys(course) as (keyof typeof course)[]) {
    const { rows } = await db.query<(typeof lessons)["study"][number]>(
      "select id, title, duration, free_preview, video_url from lesson where course_id = $1 order by weigh desc, id",
      [course[key]],
    );
    lessons[key] = rows;
  }
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let members = 0;
async function newMember(money = 0): Promise<{ id: number; token: string }> {
  members++;
  const { rows } = await t.database.db.query<{ id: number }>("insert into member (username, password_hash, money) values ($1, $2, $3) returning id", [
    `course_${members}_${Date.now() % 100000}`,
    await hashPassword("irrelevant1"),
    money,
  ]);
  const id = rows[0]!.id;
  return { id, token: await issueToken(t.database.db, "user", id, 3600) };
}

const headers = (token?: string) => ({ "think-lang": "en", ...(token ? { "ba-user-token": token } : {}) });
const get = async (url: string, token?: string) => (await t.app.inject({ method: "GET", url, headers: headers(token) })).json();
const post = async (url: string, payload: object, token?: string) => (await t.app.inject({ method: "POST", url, headers: headers(token), payload })).json();
const sync = async (token: string, ops: unknown[]) => (await post("/api/exam/sync", { ops }, token)).data.results as { id: string; status: string; msg?: string }[];

const base = Date.UTC(2026, 0, 1);
const progressOp = (lessonId: number, position: number, completed: boolean, at: number, id = randomUUID()) => ({
  id,
  type: "lesson.progress",
  at,
  payload: { lessonId, position, completed },
});

async function one<T>(sql: string, params: unknown[]): Promise<T> {
  return (await t.database.db.query<T>(sql, params)).rows[0]!;
}
const count = async (sql: string, params: unknown[]) => (await one<{ n: number }>(sql, params)).n;
const money = async (id: number) => Number((await one<{ money: number }>("select money from member where id = $1", [id])).money);
const score = async (id: number) => Number((await one<{ score: number }>("select score from member where id = $1", [id])).score);

describe("lesson videos under /storage", () => {
  it("serves a lesson video with range requests (206) and HLS with its content types", async () => {
    const size = statSync(path.join(dataDir, `${free}/pattern.mp4`)).size;
    const range = await t.app.inject({ method: "GET", url: `${free}/pattern.mp4`, headers: { range: "bytes=0-99" } });
    expect(range.statusCode).toBe(206);
    expect(range.headers["content-range"]).toBe(`bytes 0-99/${size}`);
    expect(range.headers["content-type"]).toBe("video/mp4");
    expect(range.headers["accept-ranges"]).toBe("bytes");
    expect(range.rawPayload.length).toBe(100);
    expect(range.rawPayload.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const tail = await t.app.inject({ method: "GET", url: `${free}/pattern.mp4`, headers: { range: `bytes=${size - 10}-` } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.length).toBe(10);

    const webm = await t.app.inject({ method: "GET", url: `${free}/pattern.webm`, headers: { range: "bytes=0-3" } });
    expect(webm.statusCode).toBe(206);
    expect(webm.headers["content-type"]).toBe("video/webm");
    const playlist = await t.app.inject({ method: "GET", url: `${free}/hls/index.m3u8` });
    expect(playlist.statusCode).toBe(200);
    expect(playlist.headers["content-type"]).toMatch(/^application\/vnd\.apple\.mpegurl/);
    expect(playlist.headers["content-disposition"]).toBeUndefined();
    expect(playlist.body).toContain("#EXT-X-ENDLIST");
    const segment = await t.app.inject({ method: "GET", url: `${free}/hls/segment-00.m4s` });
    expect(segment.statusCode).toBe(200);
    expect(segment.headers["content-disposition"]).toBeUndefined();
  });
});

describe("GET /api/course/list", () => {
  it("lists enabled courses with the category tree and counts (a category counts its sub-categories)", async () => {
    const data = (await get("/api/course/list")).data;
    expect(data.total).toBe(3);
    expect(data.list.map((c: { id: number }) => c.id).sort()).toEqual([course.study, course.video, course.english].sort());
    expect(data.list.every((c: { enrolled: boolean }) => c.enrolled === false)).toBe(true);
    const tech = data.categories.find((c: { id: number }) => c.id === category.tech);
    expect(tech).toMatchObject({ title: "Tech basics", courseCount: 1, children: [{ id: category.video, title: "Web video", courseCount: 1, children: [] }] });
    expect(data.categories.find((c: { id: number }) => c.id === category.study).courseCount).toBe(2);
    const video = data.list.find((c: { id: number }) => c.id === course.video);
    expect(video).toMatchObject({ price: PRICE, lessonCount: lessons.video.length, cover: `${free}/cover-video.jpg` });
    expect(video.duration).toBe(lessons.video.reduce((n, l) => n + l.duration, 0));
    // Chinese titles by default.
    const zh = (await t.app.inject({ method: "GET", url: "/api/course/list" })).json().data;
    expect(zh.categories.find((c: { id: number }) => c.id === category.tech).title).toBe("技术入门");
  });

  it("filters by category including sub-categories", async () => {
    const tech = (await get(`/api/course/list?categoryId=${category.tech}`)).data;
    expect(tech.list.map((c: { id: number }) => c.id)).toEqual([course.video]);
    expect(tech.total).toBe(1);
    const study = (await get(`/api/course/list?categoryId=${category.study}`)).data;
    expect(study.list.map((c: { id: number }) => c.id).sort()).toEqual([course.study, course.english].sort());
    expect((await get("/api/course/list?categoryId=999999")).data).toMatchObject({ list: [], total: 0 });
  });

  it("searches title and summary, case-insensitively, with LIKE wildcards taken literally", async () => {
    expect((await get("/api/course/list?keyword=ENGLISH")).data.list.map((c: { id: number }) => c.id)).toEqual([course.english]);
    expect((await get(`/api/course/list?keyword=${encodeURIComponent("番茄")}`)).data.total).toBe(0); // only in a lesson, not the course
    expect((await get(`/api/course/list?keyword=${encodeURIComponent("HLS")}`)).data.list.map((c: { id: number }) => c.id)).toEqual([course.video]); // summary
    expect((await get(`/api/course/list?keyword=${encodeURIComponent("%")}`)).data.total).toBe(0);
    expect((await get(`/api/course/list?keyword=${encodeURIComponent("_")}`)).data.total).toBe(0);
    const both = (await get(`/api/course/list?keyword=reading&categoryId=${category.tech}`)).data;
    expect(both.total).toBe(0);
  });

  it("pages with sane bounds", async () => {
    const p1 = (await get("/api/course/list?page=1&limit=2")).data;
    const p2 = (await get("/api/course/list?page=2&limit=2")).data;
    expect(p1.total).toBe(3);
    expect(p1.list).toHaveLength(2);
    expect(p2.list).toHaveLength(1);
    expect(new Set([...p1.list, ...p2.list].map((c: { id: number }) => c.id)).size).toBe(3);
    expect((await get("/api/course/list?page=9&limit=2")).data.list).toEqual([]);
    for (const q of ["page=0", "limit=0", "limit=51", "page=x", `keyword=${"a".repeat(51)}`]) {
      const body = await get(`/api/course/list?${q}`);
      expect(body.code, q).toBe(0);
      expect(body.msg).toMatch(/^Incorrect list parameters/);
    }
  });

  it("hides disabled courses and marks the member's enrolments", async () => {
    const m = await newMember();
    expect((await post("/api/course/enrol", { courseId: course.english }, m.token)).code).toBe(1);
    const list = (await get("/api/course/list", m.token)).data.list;
    expect(list.find((c: { id: number }) => c.id === course.english).enrolled).toBe(true);
    expect(list.find((c: { id: number }) => c.id === course.study).enrolled).toBe(false);
    await t.database.db.query("update course set status = 'disable' where id = $1", [course.english]);
    try {
      const hidden = (await get("/api/course/list", m.token)).data;
      expect(hidden.total).toBe(2);
      expect(hidden.list.some((c: { id: number }) => c.id === course.english)).toBe(false);
      expect((await get(`/api/course/detail?id=${course.english}`)).msg).toBe("This course does not exist or is no longer available");
    } finally {
      await t.database.db.query("update course set status = 'enable' where id = $1", [course.english]);
    }
  });
});

describe("GET /api/course/detail", () => {
  it("works without login: lessons, no enrolment, sanitised introduction", async () => {
    const body = await get(`/api/course/detail?id=${course.video}`);
    expect(body.code).toBe(1);
    const d = body.data;
    expect(d.course).toMatchObject({ id: course.video, enrolled: false, price: PRICE, categoryTitle: "Web video" });
    expect(d.course.introduction).toContain("<h3>");
    expect(d.course.introduction).toContain('rel="noopener noreferrer"');
    expect(d.enrolment).toBeNull();
    expect(d.lessons.map((l: { id: number }) => l.id)).toEqual(lessons.video.map((l) => l.id));
    expect(d.lessons[0]).toMatchObject({ freePreview: true, hasVideo: true, progress: { position: 0, completed: false, lastWatched: 0 } });
    expect(d.continueLessonId).toBe(lessons.video[0]!.id);
    const text = (await get(`/api/course/detail?id=${course.study}`)).data.lessons.find((l: { hasVideo: boolean }) => !l.hasVideo);
    expect(text).toMatchObject({ duration: 0, freePreview: false });
  });

  it("refuses unknown ids and bad parameters with clear messages", async () => {
    expect((await get("/api/course/detail?id=999999")).msg).toBe("This course does not exist or is no longer available");
    expect((await get("/api/course/detail?id=abc")).msg).toBe("Please choose a course");
    expect((await get("/api/course/detail")).msg).toBe("Please choose a course");
  });

  it("never serves stored HTML unsanitised", async () => {
    const { id } = await one<{ id: number }>(
      "insert into course (category_id, title, introduction, status) values ($1, 'Raw', $2, 'disable') returning id",
      [category.study, `<p onclick="steal()">Hi<script>alert(1)</script><img src="javascript:alert(1)"><a href="javascript:x()">x</a><iframe src="https://evil"></iframe></p>`],
    );
    await t.database.db.query("update course set status = 'enable' where id = $1", [id]);
    try {
      const intro: string = (await get(`/api/course/detail?id=${id}`)).data.course.introduction;
      expect(intro).toContain("Hi");
      expect(intro).not.toMatch(/script|onclick|javascript|iframe/i);
    } finally {
      await t.database.db.query("delete from course where id = $1", [id]);
    }
  });

  it("shows the member's enrolment, progress and where to continue", async () => {
    const m = await newMember();
    await post("/api/course/enrol", { courseId: course.study }, m.token);
    const [l1, l2, l3] = lessons.study;
    await sync(m.token, [progressOp(l1!.id, l1!.duration, true, base), progressOp(l2!.id, 7, false, base + 2000), progressOp(l3!.id, 0, false, base + 1000)]);
    const d = (await get(`/api/course/detail?id=${course.study}`, m.token)).data;
    expect(d.course.enrolled).toBe(true);
    expect(d.enrolment).toMatchObject({ courseId: course.study, paid: 0 });
    expect(d.enrolment.enrolledAt).toBeGreaterThan(0);
    expect(d.lessons[0].progress).toEqual({ position: l1!.duration, completed: true, lastWatched: Math.floor(base / 1000) });
    expect(d.lessons[1].progress).toEqual({ position: 7, completed: false, lastWatched: Math.floor((base + 2000) / 1000) });
    expect(d.continueLessonId).toBe(l2!.id); // the last watched unfinished lesson
  });
});

describe("enrol and buy", () => {
  it("enrols in a free course once, however often asked", async () => {
    const m = await newMember();
    const first = await post("/api/course/enrol", { courseId: course.study }, m.token);
    expect(first).toMatchObject({ code: 1, msg: "You are enrolled in this course", data: { enrolment: { courseId: course.study, paid: 0 } } });
    const again = await post("/api/course/enrol", { courseId: course.study }, m.token);
    expect(again).toMatchObject({ code: 1, msg: "You are already enrolled in this course" });
    expect(again.data.enrolment).toEqual(first.data.enrolment);
    expect(await count("select count(*)::int as n from course_enrolment where user_id = $1", [m.id])).toBe(1);
  });

  it("refuses to enrol in a paid course, unknown courses and anonymous callers", async () => {
    const m = await newMember(100_000);
    expect(await post("/api/course/enrol", { courseId: course.video }, m.token)).toMatchObject({ code: 0, msg: "This is a paid course: please buy it to enrol" });
    expect((await post("/api/course/enrol", { courseId: 999999 }, m.token)).msg).toBe("This course does not exist or is no longer available");
    expect((await post("/api/course/enrol", { courseId: "x" }, m.token)).msg).toBe("Please choose a course");
    expect((await post("/api/course/enrol", { courseId: course.study })).code).toBe(303);
    expect(await count("select count(*)::int as n from course_enrolment where user_id = $1", [m.id])).toBe(0);
    expect(await money(m.id)).toBe(100_000);
  });

  it("stores the log memos as keys and shows them in the reader's language", async () => {
    const m = await newMember(5_000);
    const zh = { "think-lang": "zh-cn", "ba-user-token": m.token };
    const en = { "think-lang": "en", "ba-user-token": m.token };
    const bought = await t.app.inject({ method: "POST", url: "/api/course/buy", headers: zh, payload: { courseId: course.video, price: PRICE } });
    expect(bought.json().code).toBe(1);
    const lesson = (await t.database.db.query<{ id: number; title: string }>("select id, title from lesson where course_id = $1 order by weigh desc, id limit 1", [course.video])).rows[0]!;
    const synced = await t.app.inject({ method: "POST", url: "/api/exam/sync", headers: zh, payload: { ops: [progressOp(lesson.id, 1, true, base)] } });
    expect(synced.json().data.results[0].status).toBe("applied");
    const money = await t.database.db.query("select memo, memo_key, memo_params from user_money_log where user_id = $1", [m.id]);
    expect(money.rows).toEqual([{ memo: "", memo_key: "course.bought", memo_params: { title: VIDEO_TITLE } }]);
    const points = await t.database.db.query("select memo, memo_key, memo_params from user_score_log where user_id = $1", [m.id]);
    expect(points.rows).toEqual([{ memo: "", memo_key: "lesson.completed", memo_params: { title: lesson.title } }]);
    const read = async (url: string, headers: Record<string, string>) =>
      (await t.app.inject({ method: "GET", url, headers })).json().data.list.map((r: { memo: string }) => r.memo);
    expect(await read("/api/account/balance", zh)).toEqual([`购买课程：${VIDEO_TITLE}`]);
    expect(await read("/api/account/balance", en)).toEqual([`Bought course: ${VIDEO_TITLE}`]);
    expect(await read("/api/account/integral", zh)).toEqual([`完成课时：${lesson.title}`]);
    expect(await read("/api/account/integral", en)).toEqual([`Completed lesson: ${lesson.title}`]);
  });

  it("buys a paid course: balance debited with one log row, enrolled; buying again charges nothing", async () => {
    const m = await newMember(5_000);
    const body = await post("/api/course/buy", { courseId: course.video, price: PRICE }, m.token);
    expect(body).toMatchObject({ code: 1, msg: "Purchase complete: you are enrolled in this course", data: { money: 5_000 - PRICE } });
    expect(body.data.enrolment).toMatchObject({ courseId: course.video, paid: PRICE });
    expect(await money(m.id)).toBe(5_000 - PRICE);
    const logs = await t.database.db.query<{ money: number; before: number; after: number; memo_key: string }>(
      "select money, before, after, memo_key from user_money_log where user_id = $1",
      [m.id],
    );
    expect(logs.rows).toEqual([{ money: -PRICE, before: 5_000, after: 5_000 - PRICE, memo_key: "course.bought" }]);

    const again = await post("/api/course/buy", { courseId: course.video, price: PRICE }, m.token);
    expect(again).toMatchObject({ code: 1, msg: "You are already enrolled in this course", data: { money: 5_000 - PRICE } });
    expect(again.data.enrolment).toEqual(body.data.enrolment);
    expect(await money(m.id)).toBe(5_000 - PRICE);
    expect(await count("select count(*)::int as n from user_money_log where user_id = $1", [m.id])).toBe(1);
    expect(await count("select count(*)::int as n from course_enrolment where user_id = $1", [m.id])).toBe(1);
    // Enrolling in the bought course answers the enrolment too.
    expect((await post("/api/course/enrol", { courseId: course.video }, m.token)).data.enrolment).toEqual(body.data.enrolment);
    expect((await get(`/api/course/detail?id=${course.video}`, m.token)).data.enrolment).toEqual(body.data.enrolment);
  });

  it("two purchases at once charge once", async () => {
    const m = await newMember(10_000);
    const results = await Promise.all([1, 2, 3].map(() => post("/api/course/buy", { courseId: course.video, price: PRICE }, m.token)));
    expect(results.every((r) => r.code === 1)).toBe(true);
    expect(await money(m.id)).toBe(10_000 - PRICE);
    expect(await count("select count(*)::int as n from user_money_log where user_id = $1", [m.id])).toBe(1);
  });

  it("refuses without enough balance and changes nothing", async () => {
    const m = await newMember(PRICE - 1);
    const body = await post("/api/course/buy", { courseId: course.video, price: PRICE }, m.token);
    expect(body).toMatchObject({
      code: 0,
      msg: `Your balance is not enough: this course costs 19.90 yuan and your balance is 19.89 yuan`,
      data: { price: PRICE, money: PRICE - 1 },
    });
    expect(await money(m.id)).toBe(PRICE - 1);
    expect(await count("select count(*)::int as n from user_money_log where user_id = $1", [m.id])).toBe(0);
    expect(await count("select count(*)::int as n from course_enrolment where user_id = $1", [m.id])).toBe(0);
    expect((await get(`/api/course/lesson?id=${lessons.video[1]!.id}`, m.token)).msg).toBe("Please enrol in this course first");
  });

  it("refuses a stale price, a free course and bad bodies", async () => {
    const m = await newMember(100_000);
    const stale = await post("/api/course/buy", { courseId: course.video, price: 990 }, m.token);
    expect(stale).toMatchObject({ code: 0, msg: "The price of this course has changed to 19.90 yuan: please check it and try again", data: { price: PRICE } });
    expect((await post("/api/course/buy", { courseId: course.study, price: 0 }, m.token)).msg).toBe("This course is free: enrol in it instead of buying it");
    expect((await post("/api/course/buy", { courseId: course.video }, m.token)).msg).toBe("Please choose a course and send the price you were shown (in cents)");
    expect((await post("/api/course/buy", { courseId: course.video, price: 19.9 }, m.token)).code).toBe(0);
    expect((await post("/api/course/buy", { courseId: 999999, price: PRICE }, m.token)).msg).toBe("This course does not exist or is no longer available");
    expect((await post("/api/course/buy", { courseId: course.video, price: PRICE })).code).toBe(303);
    expect(await money(m.id)).toBe(100_000);
    expect(await count("select count(*)::int as n from user_money_log where user_id = $1", [m.id])).toBe(0);
    expect(await count("select count(*)::int as n from course_enrolment where user_id = $1", [m.id])).toBe(0);
  });
});

describe("GET /api/course/lesson", () => {
  it("refuses a lesson of a course the member is not enrolled in", async () => {
    const m = await newMember();
    const lesson = lessons.video[1]!;
    expect(await get(`/api/course/lesson?id=${lesson.id}`, m.token)).toMatchObject({ code: 0, msg: "Please enrol in this course first", data: { courseId: course.video } });
    expect((await get(`/api/course/lesson?id=${lesson.id}`)).code).toBe(303);
    expect((await get(`/api/course/lesson?id=${lessons.study[0]!.id}`, m.token)).msg).toBe("Please enrol in this course first");
    expect((await get("/api/course/lesson?id=999999", m.token)).msg).toBe("This lesson does not exist or is no longer available");
    expect((await get("/api/course/lesson?id=0", m.token)).msg).toBe("Please choose a lesson");
  });

  it("opens a free preview to everyone, with its video, attachments and neighbours", async () => {
    const preview = lessons.video.find((l) => l.free_preview)!;
    for (const token of [undefined, (await newMember()).token]) {
      const body = await get(`/api/course/lesson?id=${preview.id}`, token);
      expect(body.code).toBe(1);
      const d = body.data;
      expect(d.lesson).toMatchObject({ id: preview.id, courseId: course.video, freePreview: true, hasVideo: true, videoType: "mp4", videoUrl: `${paid}/pattern.mp4` });
      expect(d.lesson.videoSize).toBe(statSync(path.join(dataDir, `${paid}/pattern.mp4`)).size);
      expect(d.lesson.attachments).toEqual([
        { name: "视频格式速查.txt", url: `${paid}/cheatsheet.txt`, size: statSync(path.join(dataDir, `${paid}/cheatsheet.txt`)).size },
      ]);
      expect(d.lesson.content).toContain("<pre><code>");
      expect(d.course).toEqual({ id: course.video, title: VIDEO_TITLE });
      expect(d.prevLessonId).toBeNull();
      expect(d.nextLessonId).toBe(lessons.video[1]!.id);
    }
  });

  it("opens every lesson once enrolled, in course order, HLS and text-only included", async () => {
    const m = await newMember();
    await post("/api/course/enrol", { courseId: course.study }, m.token);
    const ids = lessons.study.map((l) => l.id);
    for (const [i, id] of ids.entries()) {
      const d = (await get(`/api/course/lesson?id=${id}`, m.token)).data;
      expect(d.prevLessonId).toBe(ids[i - 1] ?? null);
      expect(d.nextLessonId).toBe(ids[i + 1] ?? null);
      if (!d.lesson.hasVideo) expect(d.lesson).toMatchObject({ videoUrl: "", videoType: "", videoSize: 0, duration: 0 });
    }
    const buyer = await newMember(PRICE);
    await post("/api/course/buy", { courseId: course.video, price: PRICE }, buyer.token);
    const hls = lessons.video.find((l) => l.video_url.endsWith(".m3u8"))!;
    const d = (await get(`/api/course/lesson?id=${hls.id}`, buyer.token)).data;
    expect(d.lesson).toMatchObject({ videoType: "hls", videoUrl: `${paid}/hls/index.m3u8`, duration: DURATIONS.hls });
    expect(d.lesson.videoSize).toBeGreaterThan(100_000);
  });
});

describe("course media under /storage", () => {
  /** Every kind of paid lesson media: the URL and the lesson it belongs to (by its video URL). */
  const kinds = [
    { kind: "MP4", url: `${paid}/bars.mp4`, lessonVideo: `${paid}/bars.mp4`, type: "video/mp4" },
    { kind: "WebM", url: `${paid}/pattern.webm`, lessonVideo: `${paid}/pattern.webm`, type: "video/webm" },
    { kind: "HLS playlist", url: `${paid}/hls/index.m3u8`, lessonVideo: `${paid}/hls/index.m3u8`, type: "application/vnd.apple.mpegurl" },
    { kind: "HLS segment", url: `${paid}/hls/segment-00.m4s`, lessonVideo: `${paid}/hls/index.m3u8`, type: "" },
    { kind: "HLS init section", url: `${paid}/hls/init.mp4`, lessonVideo: `${paid}/hls/index.m3u8`, type: "video/mp4" },
  ];
  const lessonOf = (videoUrl: string) => lessons.video.find((l) => l.video_url === videoUrl)!;
  const preview = () => lessons.video.find((l) => l.free_preview)!;

  const media = (url: string, cookie?: string, extra: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url, headers: { "think-lang": "en", ...(cookie ? { cookie } : {}), ...extra } });

  /** The media cookie `/api/course/lesson` gives this member (as a Cookie header), with its Set-Cookie line. */
  async function mediaCookie(token: string, lessonId: number): Promise<{ cookie: string; setCookie: string }> {
    const res = await t.app.inject({ method: "GET", url: `/api/course/lesson?id=${lessonId}`, headers: headers(token) });
    expect(res.json().code).toBe(1);
    const setCookie = [res.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith("examhub_media="));
    expect(setCookie).toBeDefined();
    return { cookie: setCookie!.split(";")[0]!, setCookie: setCookie! };
  }

  /** A member enrolled in the paid course, and one who is not (both hold a media cookie). */
  async function audiences() {
    const buyer = await newMember(PRICE);
    expect((await post("/api/course/buy", { courseId: course.video, price: PRICE }, buyer.token)).code).toBe(1);
    const outsider = await newMember(PRICE);
    return {
      buyer: { ...buyer, cookie: (await mediaCookie(buyer.token, lessonOf(`${paid}/bars.mp4`).id)).cookie },
      // Someone who only opened the free preview: a valid cookie, no enrolment.
      outsider: { ...outsider, cookie: (await mediaCookie(outsider.token, preview().id)).cookie },
    };
  }

  it("serves every kind of paid lesson media to enrolled members only: 401 anonymous, 403 not enrolled", async () => {
    const { buyer, outsider } = await audiences();
    for (const k of kinds) {
      const anonymous = await media(k.url);
      expect(anonymous.statusCode, `${k.kind} anonymous`).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 0, msg: "Please log in and open the lesson to watch its video", data: null });
      expect(anonymous.headers["cache-control"]).toBe("no-store");
      expect(anonymous.headers["set-cookie"]).toBeUndefined();

      const notEnrolled = await media(k.url, outsider.cookie);
      expect(notEnrolled.statusCode, `${k.kind} not enrolled`).toBe(403);
      expect(notEnrolled.json()).toMatchObject({ code: 0, msg: "Please enrol in this course to watch its videos" });
      // The refusal holds for a range request and HEAD too, and says nothing of the file.
      expect((await media(k.url, outsider.cookie, { range: "bytes=0-9" })).statusCode).toBe(403);
      expect((await t.app.inject({ method: "HEAD", url: k.url, headers: { cookie: outsider.cookie } })).statusCode).toBe(403);
      expect(notEnrolled.rawPayload.includes(Buffer.from("ftyp"))).toBe(false);

      const full = await media(k.url, buyer.cookie);
      expect(full.statusCode, `${k.kind} enrolled`).toBe(200);
      const file = readFileSync(path.join(dataDir, k.url));
      expect(full.rawPayload.equals(file)).toBe(true);
      if (k.type) expect(full.headers["content-type"]).toMatch(new RegExp(`^${k.type.replace(/[.+]/g, "\\$&")}`));
      expect(full.headers["cache-control"]).toBe("private, no-cache");
      expect(full.headers["x-content-type-options"]).toBe("nosniff");
      const range = await media(k.url, buyer.cookie, { range: "bytes=0-9" });
      expect(range.statusCode, `${k.kind} enrolled range`).toBe(206);
      expect(range.rawPayload.equals(file.subarray(0, 10))).toBe(true);
    }
  });

  it("opens free previews to everyone, every kind of media", async () => {
    const { buyer, outsider } = await audiences();
    // The preview is an MP4 (with an attachment); the other kinds are made previews here.
    const others = [...new Set(kinds.map((k) => lessonOf(k.lessonVideo).id))];
    await t.database.db.query("update lesson set free_preview = true where id = any($1::int[])", [others]);
    try {
      const urls = [`${paid}/pattern.mp4`, `${paid}/cheatsheet.txt`, ...kinds.map((k) => k.url)];
      for (const url of urls) {
        for (const [who, cookie] of [["anonymous", undefined], ["not enrolled", outsider.cookie], ["enrolled", buyer.cookie]] as const) {
          const res = await media(url, cookie, { range: "bytes=0-9" });
          expect(res.statusCode, `${url} ${who}`).toBe(206);
          expect(res.headers["cache-control"]).toBe("public, max-age=3600");
        }
      }
    } finally {
      await t.database.db.query("update lesson set free_preview = false where id = any($1::int[])", [others]);
    }
    expect((await media(`${paid}/bars.mp4`)).statusCode).toBe(401);
  });

  it("keeps media of free courses open, and uploads that are no course media served as before", async () => {
    for (const url of [`${free}/pattern.webm`, `${free}/hls/index.m3u8`, `${free}/hls/segment-01.m4s`]) {
      expect((await media(url)).statusCode, url).toBe(200);
    }
    const cover = await media(`${free}/cover-video.jpg`);
    expect(cover.statusCode).toBe(200);
    expect(cover.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("sets the media cookie HttpOnly, SameSite=Strict, for /storage/ only, without the token in it", async () => {
    const m = await newMember();
    const { cookie, setCookie } = await mediaCookie(m.token, preview().id);
    const attributes = setCookie.split(";").map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["path=/storage/", "httponly", "samesite=strict", "max-age=43200"]));
    expect(attributes.some((a) => a.startsWith("domain="))).toBe(false);
    expect(cookie).toMatch(new RegExp(`^examhub_media=${m.id}\\.\\d+\\.[\\w-]{43}$`));
    expect(setCookie).not.toContain(m.token);
    // Anonymous visitors of a preview get none; a refused lesson sets none.
    const anonymous = await t.app.inject({ method: "GET", url: `/api/course/lesson?id=${preview().id}` });
    expect(anonymous.headers["set-cookie"]).toBeUndefined();
    const refused = await t.app.inject({ method: "GET", url: `/api/course/lesson?id=${lessonOf(`${paid}/bars.mp4`).id}`, headers: headers(m.token) });
    expect(refused.json().code).toBe(0);
    expect(refused.headers["set-cookie"]).toBeUndefined();
  });

  it("counts a media cookie only with its member's valid session, unaltered and unexpired", async () => {
    const { buyer } = await audiences();
    const url = `${paid}/pattern.webm`;
    expect((await media(url, buyer.cookie)).statusCode).toBe(200);
    const [, id, expires, sig] = /^examhub_media=(\d+)\.(\d+)\.(.+)$/.exec(buyer.cookie)!;
    const other = await newMember();
    const forged = [
      `examhub_media=${other.id}.${expires}.${sig}`,
      `examhub_media=${id}.${Number(expires) + 1}.${sig}`,
      `examhub_media=${id}.${expires}.${sig!.slice(0, -2)}AA`,
      `examhub_media=${id}.${expires}`,
      `examhub_media=${"9".repeat(12)}.${expires}.${sig}`,
      "examhub_media=",
      `ba-user-token=${buyer.token}`,
      "%%%;;;=",
    ];
    for (const cookie of forged) expect((await media(url, cookie)).statusCode, cookie).toBe(401);

    // Signed with the server's key but expired, or still valid and past half-life (renewed).
    const { value: secret } = await one<{ value: string }>("select value from app_meta where key = 'media_cookie_secret'", []);
    const { session_id: sessionId } = await one<{ session_id: string }>("select session_id from token where user_id = $1 and type = 'user'", [buyer.id]);
    const signed = (exp: number) =>
      `examhub_media=${buyer.id}.${exp}.${createHmac("sha256", Buffer.from(secret, "hex")).update(`media-v2.${buyer.id}.${exp}.${sessionId}`).digest("base64url")}`;
    const now = Math.floor(Date.now() / 1000);
    expect((await media(url, signed(now - 1))).statusCode).toBe(401);
    expect((await media(url, signed(now + 86_400 * 30))).statusCode).toBe(401);
    const aging = await media(url, signed(now + 3600));
    expect(aging.statusCode).toBe(200);
    expect(String(aging.headers["set-cookie"])).toMatch(/^examhub_media=\d+\.\d+\.[\w-]{43}; Max-Age=43200; Path=\/storage\/; HttpOnly; SameSite=Strict$/);
    expect((await media(url, buyer.cookie)).headers["set-cookie"]).toBeUndefined();

    // Logging out (the access token gone) ends it; so does a disabled account.
    await t.database.db.query("update member set status = 'disable' where id = $1", [buyer.id]);
    expect((await media(url, buyer.cookie)).statusCode).toBe(401);
    await t.database.db.query("update member set status = 'enable' where id = $1", [buyer.id]);
    expect((await media(url, buyer.cookie)).statusCode).toBe(200);
    await t.database.db.query("delete from token where user_id = $1", [buyer.id]);
    expect((await media(url, buyer.cookie)).statusCode).toBe(401);
  });

  it("keeps media playing across a token refresh (the refresh sets the cookie again), and ends them at logout or a stolen session", async () => {
    const url = `${paid}/pattern.webm`;
    /** A buyer logged in with "keep me logged in" (access and refresh token of one session) who opened a paid lesson. */
    async function watching() {
      const buyer = await newMember(PRICE);
      const session = await issueSession(t.database.db, "user", buyer.id, { access: 3600, refresh: 86_400 }, true);
      expect((await post("/api/course/buy", { courseId: course.video, price: PRICE }, session.token)).code).toBe(1);
      const { cookie } = await mediaCookie(session.token, lessonOf(url).id);
      expect((await media(url, cookie)).statusCode).toBe(200);
      return { ...buyer, ...session, cookie };
    }
    // The access token expires mid-playback: the client gets 409 on its next call and refreshes.
    const expire = (token: string) => t.database.db.query("update token set expire_time = $2 where token_hash = $1", [hashToken(token), Math.floor(Date.now() / 1000) - 1]);
    const refresh = (refreshToken: string) =>
      t.app.inject({ method: "POST", url: "/api/common/refreshToken", headers: { "think-lang": "en" }, payload: { refreshToken, side: "user" } });
    const cookieOf = (res: Awaited<ReturnType<typeof refresh>>) => [res.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith("examhub_media="));

    const m = await watching();
    await expire(m.token);
    expect((await get("/api/course/my", m.token)).code).toBe(409);
    const refreshed = await refresh(m.refreshToken);
    expect(refreshed.json()).toMatchObject({ code: 1, data: { type: "user-refresh" } });
    const setCookie = cookieOf(refreshed);
    expect(setCookie).toMatch(new RegExp(`^examhub_media=${m.id}\\.\\d+\\.[\\w-]{43}; Max-Age=43200; Path=/storage/; HttpOnly; SameSite=Strict$`));
    expect(setCookie).not.toContain(refreshed.json().data.token);
    const renewed = setCookie!.split(";")[0]!;
    // The cookie the refresh set plays, and so does the one the player already holds (same session).
    for (const cookie of [renewed, m.cookie]) {
      const res = await media(url, cookie, { range: "bytes=0-9" });
      expect(res.statusCode).toBe(206);
      expect(res.headers["cache-control"]).toBe("private, no-cache");
    }
    // Every later refresh (new token expired in turn) keeps it going; logout with the newest token ends it.
    const second = (await refresh(refreshed.json().data.refreshToken)).json().data as { token: string; refreshToken: string };
    await expire(refreshed.json().data.token);
    expect((await media(url, renewed)).statusCode).toBe(200);
    expect((await post("/api/user/logout", { refreshToken: second.refreshToken }, second.token)).code).toBe(1);
    for (const cookie of [renewed, m.cookie]) {
      const res = await media(url, cookie);
      expect(res.statusCode).toBe(401);
      expect(res.headers["set-cookie"]).toBeUndefined();
    }

    // A refresh token replayed after the grace (a stolen session) ends the session and its media.
    const stolen = await watching();
    expect((await refresh(stolen.refreshToken)).json().code).toBe(1);
    await t.database.db.query("update token set rotated_at = rotated_at - 3600 where token_hash = $1", [hashToken(stolen.refreshToken)]);
    expect((await refresh(stolen.refreshToken)).json().code).toBe(0);
    expect((await media(url, stolen.cookie)).statusCode).toBe(401);

    // A session without a refresh token ends with its access token; the admin side's refresh sets no media cookie.
    const once = await newMember(PRICE);
    expect((await post("/api/course/buy", { courseId: course.video, price: PRICE }, once.token)).code).toBe(1);
    const { cookie: onceCookie } = await mediaCookie(once.token, lessonOf(url).id);
    expect((await media(url, onceCookie)).statusCode).toBe(200);
    await expire(once.token);
    expect((await media(url, onceCookie)).statusCode).toBe(401);
    const { rows } = await t.database.db.query<{ id: number }>("insert into admin (username, password_hash) values ($1, 'x') returning id", [`media_admin_${members}`]);
    const admin = await issueSession(t.database.db, "admin", rows[0]!.id, { access: 3600, refresh: 86_400 }, true);
    const adminRefresh = await t.app.inject({ method: "POST", url: "/api/common/refreshToken", payload: { refreshToken: admin.refreshToken, side: "admin" } });
    expect(adminRefresh.json().code).toBe(1);
    expect(cookieOf(adminRefresh)).toBeUndefined();
  });

  it("refuses other spellings of a paid file's path rather than serving them", async () => {
    const { buyer } = await audiences();
    const spellings = [
      `${paid}/%62ars.mp4`,
      `${paid}/./bars.mp4`,
      `/storage/course//paid/bars.mp4`,
      `${free}/../paid/bars.mp4`,
      `${free}/%2e%2e/paid/bars.mp4`,
      `${paid}/bars.mp4?x=1`,
      `${paid}/bars.mp4#x`,
      `${paid}/hls/%2e/segment-00.m4s`,
      `${paid}/hls//segment-00.m4s`,
      `${paid}/bars.mp4/`,
      `${paid}/BARS.mp4`,
    ];
    for (const url of spellings) {
      const res = await media(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.rawPayload.includes(Buffer.from("ftyp")), url).toBe(false);
    }
    // The enrolled member gets the canonical and the encoded spelling, nothing odd.
    expect((await media(`${paid}/%62ars.mp4`, buyer.cookie)).statusCode).toBe(200);
    expect((await media(`${paid}/bars.mp4?x=1`, buyer.cookie)).statusCode).toBe(200);
  });

  it("keeps a disabled lesson's media closed, and treats a paid lesson's attachments as its media", async () => {
    const { buyer, outsider } = await audiences();
    const webm = lessonOf(`${paid}/pattern.webm`);
    await t.database.db.query("update lesson set status = 'disable' where id = $1", [webm.id]);
    try {
      expect((await media(webm.video_url, buyer.cookie)).statusCode).toBe(403);
      expect((await media(webm.video_url)).statusCode).toBe(401);
    } finally {
      await t.database.db.query("update lesson set status = 'enable' where id = $1", [webm.id]);
    }

    const notes = `${paid}/notes-${randomUUID()}.txt`;
    writeFileSync(path.join(dataDir, notes), "paid notes");
    expect((await media(notes)).statusCode).toBe(200);
    await t.database.db.query("update lesson set attachments = $2::jsonb where id = $1", [webm.id, JSON.stringify([{ name: "notes.txt", url: notes, size: 10 }])]);
    forgetCourseMedia(t.database.db);
    try {
      expect((await media(notes)).statusCode).toBe(401);
      expect((await media(notes, outsider.cookie)).statusCode).toBe(403);
      const own = await media(notes, buyer.cookie);
      expect(own.statusCode).toBe(200);
      expect(own.body).toBe("paid notes");
      expect(own.headers["content-disposition"]).toMatch(/^attachment;/);
    } finally {
      await t.database.db.query("update lesson set attachments = '[]'::jsonb where id = $1", [webm.id]);
      forgetCourseMedia(t.database.db);
    }
  });
});

describe("lesson.progress through POST /api/exam/sync", () => {
  async function progress(userId: number, lessonId: number) {
    return (
      await t.database.db.query<{ position: number; completed: boolean; completed_at: number | null; last_watched: number; points_awarded: boolean }>(
        "select position, completed, completed_at, last_watched, points_awarded from lesson_progress where user_id = $1 and lesson_id = $2",
        [userId, lessonId],
      )
    ).rows[0];
  }
  const scoreLogs = (userId: number) => count("select count(*)::int as n from user_score_log where user_id = $1", [userId]);

  it("applies an op once (the same op again is a duplicate) and an older op never overwrites a newer position", async () => {
    const m = await newMember();
    await post("/api/course/enrol", { courseId: course.study }, m.token);
    const lesson = lessons.study[0]!;
    const newer = progressOp(lesson.id, 12.5, false, base + 10_000);
    expect(await sync(m.token, [newer])).toEqual([{ id: newer.id, status: "applied" }]);
    expect(await sync(m.token, [newer])).toEqual([{ id: newer.id, status: "duplicate" }]);
    const older = progressOp(lesson.id, 3, false, base + 5_000);
    expect(await sync(m.token, [older])).toEqual([{ id: older.id, status: "applied" }]);
    expect(await progress(m.id, lesson.id)).toMatchObject({ position: 12.5, completed: false, last_watched: Math.floor((base + 10_000) / 1000) });
    // Same time: the larger op id wins, whichever arrives first.
    const a = progressOp(lesson.id, 20, false, base + 20_000, "00000000-0000-4000-8000-00000000000a");
    const b = progressOp(lesson.id, 21, false, base + 20_000, "00000000-0000-4000-8000-00000000000b");
    await sync(m.token, [b, a]);
    expect((await progress(m.id, lesson.id))!.position).toBe(21);
    // Positions past the end are clamped to the duration.
    await sync(m.token, [progressOp(lesson.id, 9999, false, base + 30_000)]);
    expect((await progress(m.id, lesson.id))!.position).toBe(lesson.duration);
  });

  it("awards the completion points exactly once, whatever arrives after", async () => {
    const m = await newMember();
    await post("/api/course/enrol", { courseId: course.study }, m.token);
    const lesson = lessons.study[1]!;
    const before = await score(m.id);
    const watching = progressOp(lesson.id, 5, false, base + 1_000);
    const done = progressOp(lesson.id, lesson.duration, true, base + 2_000);
    expect((await sync(m.token, [watching, done])).map((r) => r.status)).toEqual(["applied", "applied"]);
    expect(await score(m.id)).toBe(before + LESSON_COMPLETE_POINTS);
    const logs = await t.database.db.query<{ score: number; before: number; after: number; memo_params: unknown }>(
      "select score, before, after, memo_params from user_score_log where user_id = $1",
      [m.id],
    );
    expect(logs.rows).toEqual([{ score: LESSON_COMPLETE_POINTS, before, after: before + LESSON_COMPLETE_POINTS, memo_params: { title: lesson.title } }]);

    // Another completing op, replays, and a later "not completed" report: no more points, still completed.
    const doneAgain = progressOp(lesson.id, lesson.duration, true, base + 3_000);
    const rewatch = progressOp(lesson.id, 2, false, base + 4_000);
    expect((await sync(m.token, [doneAgain, done, watching, rewatch])).map((r) => r.status)).toEqual(["applied", "duplicate", "duplicate", "applied"]);
    expect(await score(m.id)).toBe(before + LESSON_COMPLETE_POINTS);
    expect(await scoreLogs(m.id)).toBe(1);
    expect(await progress(m.id, lesson.id)).toMatchObject({ position: 2, completed: true, completed_at: base + 2_000, points_awarded: true });
    // An earlier completing op arriving late moves completed_at back, still without points.
    await sync(m.token, [progressOp(lesson.id, lesson.duration, true, base + 500)]);
    expect((await progress(m.id, lesson.id))!.completed_at).toBe(base + 500);
    expect(await scoreLogs(m.id)).toBe(1);
  });

  it("completes a lesson watched to the end even when the op does not say so", async () => {
    const m = await newMember();
    await post("/api/course/enrol", { courseId: course.english }, m.token);
    const lesson = lessons.english[0]!;
    await sync(m.token, [progressOp(lesson.id, lesson.duration * 0.96, false, base)]);
    expect((await progress(m.id, lesson.id))!.completed).toBe(true);
    expect(await scoreLogs(m.id)).toBe(1);
  });

  it("rejects a lesson of a course the member is not enrolled in, and unknown lessons; accepts a free preview", async () => {
    const m = await newMember();
    const locked = progressOp(lessons.video[1]!.id, 5, true, base);
    const unknown = progressOp(999999, 5, false, base);
    const preview = progressOp(lessons.video.find((l) => l.free_preview)!.id, 4, false, base);
    const results = await sync(m.token, [locked, unknown, preview]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "applied"]);
    expect(results[0]!.msg).toMatch(/not enrolled/i);
    expect(results[1]!.msg).toBe("Unknown lesson");
    expect(await progress(m.id, lessons.video[1]!.id)).toBeUndefined();
    expect(await scoreLogs(m.id)).toBe(0);
    // A rejected op is applied never: its replay (the answer lost on the way) is answered the same.
    expect(await sync(m.token, [locked])).toEqual([{ id: locked.id, status: "rejected", msg: results[0]!.msg }]);
  });

  it("awards no points for a free preview completed without enrolling; they come once, after enrolling", async () => {
    const m = await newMember(PRICE);
    const lesson = lessons.video.find((l) => l.free_preview)!;
    const done = progressOp(lesson.id, lesson.duration, true, base + 1_000);
    expect((await sync(m.token, [done]))[0]!.status).toBe("applied");
    expect(await progress(m.id, lesson.id)).toMatchObject({ completed: true, points_awarded: false });
    expect(await score(m.id)).toBe(0);
    expect(await scoreLogs(m.id)).toBe(0);
    // Watching it again unenrolled earns nothing either.
    await sync(m.token, [progressOp(lesson.id, lesson.duration, true, base + 2_000)]);
    expect(await scoreLogs(m.id)).toBe(0);

    expect((await post("/api/course/buy", { courseId: course.video, price: PRICE }, m.token)).code).toBe(1);
    await sync(m.token, [progressOp(lesson.id, 3, false, base + 3_000), progressOp(lesson.id, lesson.duration, true, base + 4_000)]);
    expect(await score(m.id)).toBe(LESSON_COMPLETE_POINTS);
    expect(await scoreLogs(m.id)).toBe(1);
    expect(await progress(m.id, lesson.id)).toMatchObject({ completed: true, points_awarded: true, completed_at: base + 1_000 });
  });

  it("ends in the same state and awards points once in any delivery order, with replays", async () => {
    const lesson = lessons.english[1]!;
    const ops = [
      progressOp(lesson.id, 3, false, base + 1_000),
      progressOp(lesson.id, 10, false, base + 2_000),
      progressOp(lesson.id, lesson.duration, true, base + 3_000),
      progressOp(lesson.id, lesson.duration, true, base + 3_500),
      progressOp(lesson.id, 6, false, base + 4_000),
    ];
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray([...ops, ...ops], { minLength: ops.length * 2, maxLength: ops.length * 2 }), async (delivery) => {
        const m = await newMember();
        await post("/api/course/enrol", { courseId: course.english }, m.token);
        for (let i = 0; i < delivery.length; i += 3) await sync(m.token, delivery.slice(i, i + 3));
        // The latest op (a rewatch at 6 s) holds the position; completion stays, from the earliest completing op.
        expect(await progress(m.id, lesson.id)).toMatchObject({
          position: 6,
          completed: true,
          completed_at: base + 3_000,
          last_watched: Math.floor((base + 4_000) / 1000),
          points_awarded: true,
        });
        expect(await scoreLogs(m.id)).toBe(1);
        expect(await score(m.id)).toBe(LESSON_COMPLETE_POINTS);
      }),
      { numRuns: 8 },
    );
  });
});

describe("GET /api/course/my", () => {
  it("lists the member's courses with progress, most recently studied first", async () => {
    const m = await newMember(PRICE);
    expect((await get("/api/course/my")).code).toBe(303);
    expect((await get("/api/course/my", m.token)).data).toEqual({ list: [] });
    await post("/api/course/enrol", { courseId: course.study }, m.token);
    await post("/api/course/buy", { courseId: course.video, price: PRICE }, m.token);
    const [v1, v2] = lessons.video;
    await sync(m.token, [progressOp(v1!.id, v1!.duration, true, base + 60_000), progressOp(v2!.id, 4, false, base + 30_000)]);
    const list = (await get("/api/course/my", m.token)).data.list;
    expect(list.map((c: { id: number }) => c.id)).toEqual([course.video, course.study]);
    const video = list[0];
    expect(video).toMatchObject({
      id: course.video,
      enrolled: true,
      price: PRICE,
      lessonCount: lessons.video.length,
      completedLessons: 1,
      percent: Math.floor(100 / lessons.video.length),
      continueLessonId: v2!.id,
      lastWatched: Math.floor((base + 60_000) / 1000),
    });
    expect(video.enrolledAt).toBeGreaterThan(0);
    expect(list[1]).toMatchObject({ id: course.study, completedLessons: 0, percent: 0, continueLessonId: lessons.study[0]!.id, lastWatched: 0 });
    // Every lesson completed: 100 percent, continue with the first.
    await sync(
      m.token,
      lessons.study.map((l, i) => progressOp(l.id, l.duration, true, base + 100_000 + i)),
    );
    const study = (await get("/api/course/my", m.token)).data.list.find((c: { id: number }) => c.id === course.study);
    expect(study).toMatchObject({ completedLessons: lessons.study.length, percent: 100, continueLessonId: lessons.study[0]!.id });
    expect(await score(m.id)).toBe(LESSON_COMPLETE_POINTS * (1 + lessons.study.length));
  });
});

describe("member menu", () => {
  it("adds the catalogue under My learning", async () => {
    const rule = await one<{ title: string; title_en: string; component: string; menu_type: string; parent: string }>(
      "select r.title, r.title_en, r.component, r.menu_type, p.name as parent from user_rule r join user_rule p on p.id = r.pid where r.name = 'course/index'",
      [],
    );
    expect(rule).toEqual({ title: "全部课程", title_en: "All courses", component: "course/index", menu_type: "tab", parent: "learning" });
  });
});
