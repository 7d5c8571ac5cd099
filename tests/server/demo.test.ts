import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MEMBER } from "../../src/server/demo/accounts.ts";
import { DEMO_DURATIONS, DEMO_PAID_PRICE } from "../../src/server/demo/course.ts";
import { demoParts, seedDemo } from "../../src/server/demo/index.ts";
import { bundledMigrations, migrate } from "../../src/server/db/migrate.ts";
import { copyDemoMedia, demoMediaSource } from "../../src/server/modules/course/media.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createTestDatabase } from "../helpers/db.ts";

/**
 * The demo seed itself (README "Run it"): what it promises, its media in DATA_DIR/storage, and
 * the repair of a demo database seeded by an older release. The only server tests that read the
 * demo content; every other test makes its own (tests/helpers/factories.ts).
 */

let t: TestApp;
let dataDir: string;
/** Lessons of each demo course in course order. */
const lessons: Record<"study" | "video", { id: number; title: string; duration: number; free_preview: boolean; video_url: string }[]> = { study: [], video: [] };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-demo-"));
  t = await createTestApp({ config: { dataDir, seedDemo: true } });
  const db = t.database.db;
  const courses = await db.query<{ id: number; title: string }>("select id, title from course order by id");
  const ids = { study: courses.rows.find((c) => c.title.startsWith("高效学习法"))!.id, video: courses.rows.find((c) => c.title.startsWith("网页视频入门"))!.id };
  for (const key of ["study", "video"] as const) {
    const { rows } = await db.query<(typeof lessons)["study"][number]>(
      "select id, title, duration, free_preview, video_url from lesson where course_id = $1 order by weigh desc, id",
      [ids[key]],
    );
    lessons[key] = rows;
  }
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function one<T>(sql: string, params: unknown[]): Promise<T> {
  return (await t.database.db.query<T>(sql, params)).rows[0]!;
}

describe("demo content", () => {
  it("seeds three categories, three courses (one paid the demo member can afford) and their lessons", async () => {
    const prices = await t.database.db.query<{ price: number }>("select price from course order by price");
    expect(prices.rows.map((r) => Number(r.price))).toEqual([0, 0, DEMO_PAID_PRICE]);
    const demo = await one<{ money: number }>("select money from member where username = $1", [DEMO_MEMBER.username]);
    expect(Number(demo.money)).toBeGreaterThanOrEqual(DEMO_PAID_PRICE);
    expect(lessons.study.length).toBeGreaterThanOrEqual(3);
    expect(lessons.video.filter((l) => l.free_preview)).toHaveLength(1);
    expect(lessons.study.some((l) => l.video_url === "" && l.duration === 0)).toBe(true);
    const types = await t.database.db.query<{ video_type: string }>("select distinct video_type from lesson where video_type <> '' order by 1");
    expect(types.rows.map((r) => r.video_type)).toEqual(["hls", "mp4", "webm"]);
  });

  it("has no bank that asks the same question twice", async () => {
    const { rows } = await t.database.db.query<{ classify_id: number; stem: string; options: unknown; n: number }>(
      "select classify_id, stem, options, count(*)::int as n from exam_question group by classify_id, stem, options having count(*) > 1",
    );
    expect(rows).toEqual([]);
    // The generated arithmetic is still all there (66 questions in the maths bank, 30 in the official one).
    const sizes = await t.database.db.query<{ title: string; n: number }>(
      "select c.title, count(q.id)::int as n from exam_classify c join exam_question q on q.classify_id = c.id where c.title in ('数学基础', '正式考试题库') group by c.title order by c.title",
    );
    expect(sizes.rows).toEqual([
      { title: "数学基础", n: 66 },
      { title: "正式考试题库", n: 30 },
    ]);
  });

  it("shows the official room's answers once the room has closed, not while it is open", async () => {
    const room = await one<{ review_policy: string; end_time: number }>("select review_policy, end_time from exam_room where title = $1", ["数学基础正式考试"]);
    expect(room.review_policy).toBe("closed");
    expect(Number(room.end_time)).toBeGreaterThan(Date.now() / 1000);
  });

  it("copies the demo media into DATA_DIR/storage with the sizes the lessons record", async () => {
    const storage = path.join(dataDir, "storage");
    const { rows } = await t.database.db.query<{ video_url: string; video_type: string; video_size: number; duration: number }>(
      "select video_url, video_type, video_size, duration from lesson where video_url <> ''",
    );
    for (const r of rows) {
      const file = path.join(storage, r.video_url.replace(/^\/storage\//, ""));
      expect(existsSync(file), file).toBe(true);
      if (r.video_type !== "hls") expect(Number(r.video_size)).toBe(statSync(file).size);
      expect(Object.values(DEMO_DURATIONS)).toContain(r.duration);
    }
    const playlist = readFileSync(path.join(storage, "course/demo/hls/index.m3u8"), "utf8");
    const segments = [...playlist.matchAll(/^(?!#)(\S+)$/gm), ...playlist.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!);
    expect(segments.length).toBeGreaterThanOrEqual(5);
    for (const s of segments) expect(existsSync(path.join(storage, "course/demo/hls", s)), s).toBe(true);
    // Idempotent: nothing to copy again; a removed file comes back.
    const source = demoMediaSource()!;
    expect(await copyDemoMedia(source, dataDir)).toBe(0);
    rmSync(path.join(storage, "course/demo/bars.mp4"));
    expect(await copyDemoMedia(source, dataDir)).toBe(1);
    expect(statSync(path.join(storage, "course/demo/bars.mp4")).size).toBe(statSync(path.join(source, "bars.mp4")).size);
  });

  it("moves a demo database seeded before 0010 onto the paid course's own media, leaving the free courses alone", async () => {
    const old = await createTestDatabase({ migrated: false });
    try {
      await migrate(old.db, bundledMigrations.filter((m) => m.version < "0010"));
      // The parts that shaped the courses (today's seed of the account logs needs later columns).
      await seedDemo(old.db, demoParts.filter((p) => p.name === "accounts" || p.name === "course"));
      // What the seed wrote before the paid course had media of its own.
      await old.db.query(
        `update lesson set video_url = replace(video_url, '/storage/course/demo-paid/', '/storage/course/demo/'),
           attachments = replace(attachments::text, '/storage/course/demo-paid/', '/storage/course/demo/')::jsonb`,
      );
      const before = await old.db.query<{ id: number; video_url: string; attachments: unknown }>("select id, video_url, attachments from lesson order by id");
      expect(await migrate(old.db)).toContain("0010");
      const after = await old.db.query<{ id: number; video_url: string; attachments: unknown; price: number }>(
        "select l.id, l.video_url, l.attachments, c.price from lesson l join course c on c.id = l.course_id order by l.id",
      );
      expect(after.rows.map((r) => r.id)).toEqual(before.rows.map((r) => r.id));
      for (const [i, r] of after.rows.entries()) {
        const was = before.rows[i]!;
        if (Number(r.price) > 0 && was.video_url) {
          expect(r.video_url).toBe(was.video_url.replace("/storage/course/demo/", "/storage/course/demo-paid/"));
          expect(JSON.stringify(r.attachments)).toBe(JSON.stringify(was.attachments).replaceAll("/storage/course/demo/", "/storage/course/demo-paid/"));
        } else {
          expect(r).toMatchObject({ video_url: was.video_url, attachments: was.attachments });
        }
      }
      expect(after.rows.some((r) => Number(r.price) > 0 && r.video_url.startsWith("/storage/course/demo-paid/"))).toBe(true);
    } finally {
      await old.drop();
    }
  });
});
