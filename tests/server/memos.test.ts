import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/server/db/index.ts";
import { bundledMigrations, migrate } from "../../src/server/db/migrate.ts";
import { DEMO_MEMBER } from "../../src/server/demo/accounts.ts";
import { DEMO_MONEY_LOG, DEMO_SCORE_LOG, demoTotal } from "../../src/server/demo/accountLogs.ts";
import { demoParts, seedDemo } from "../../src/server/demo/index.ts";
import { translator } from "../../src/server/i18n/index.ts";
import { memos, renderMemo } from "../../src/server/modules/account/memos.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const zh = translator("zh-cn");
/** Migrating and seeding a whole demo database on embedded PGlite takes a while on a busy machine. */
const SEEDING = 120_000;
const en = translator("en");

describe("log memos", () => {
  it("render from key and parameters in the reader's language", () => {
    const bought = memos.courseBought("数学入门");
    expect(renderMemo(zh, bought.key, bought.params, "")).toBe("购买课程：数学入门");
    expect(renderMemo(en, bought.key, bought.params, "")).toBe("Bought course: 数学入门");
    const lesson = memos.lessonCompleted("Lesson 1");
    expect(renderMemo(zh, lesson.key, lesson.params, "")).toBe("完成课时：Lesson 1");
    expect(renderMemo(en, lesson.key, lesson.params, "")).toBe("Completed lesson: Lesson 1");
    expect(renderMemo(zh, "recharge", {}, "")).toBe("充值");
    expect(renderMemo(en, "recharge", {}, "")).toBe("Recharge");
    expect(renderMemo(zh, "signup", {}, "")).toBe("新会员注册奖励");
    expect(renderMemo(zh, "admin.adjust", {}, "")).toBe("管理员调整");
    expect(renderMemo(zh, "checkin", {}, "")).toBe("每日签到");
    expect(renderMemo(zh, "refund", {}, "")).toBe("退款");
  });

  it("fall back to the row's text without a known key, and survive odd parameters", () => {
    expect(renderMemo(zh, "", {}, "Written by hand")).toBe("Written by hand");
    expect(renderMemo(en, "no.such.key", { title: "x" }, "kept")).toBe("kept");
    expect(renderMemo(en, "__proto__", {}, "kept")).toBe("kept");
    expect(renderMemo(en, "course.bought", null, "")).toBe("Bought a course");
    expect(renderMemo(zh, "course.bought", ["x"], "")).toBe("购买课程");
    expect(renderMemo(en, "lesson.completed", { title: { nested: true } }, "")).toBe("Completed a lesson");
    expect(renderMemo(en, "course.bought", { title: 42 }, "")).toBe("Bought course: 42");
  });
});

async function chain(db: Database, table: "user_money_log" | "user_score_log", userId: number) {
  const column = table === "user_money_log" ? "money" : "score";
  const { rows } = await db.query<{ change: string; before: string; after: string; memo_key: string }>(
    `select ${column} as change, before, after, memo_key from ${table} where user_id = $1 order by create_time, id`,
    [userId],
  );
  return rows.map((r) => ({ change: Number(r.change), before: Number(r.before), after: Number(r.after), key: r.memo_key }));
}

function expectChained(rows: { change: number; before: number; after: number }[], total: number) {
  let previous = 0;
  for (const row of rows) {
    expect(row.before).toBe(previous);
    expect(row.after).toBe(row.before + row.change);
    previous = row.after;
  }
  expect(previous).toBe(total);
}

describe("the demo account logs", () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.drop();
    t = undefined;
  });

  it("chain up from 0 to the member's balance and points, with keyed memos and no purchase", async () => {
    t = await createTestDatabase();
    await seedDemo(t.db);
    const member = (await t.db.query<{ id: number; money: string; score: string }>("select id, money, score from member where username = $1", [DEMO_MEMBER.username])).rows[0]!;
    const money = await chain(t.db, "user_money_log", member.id);
    const score = await chain(t.db, "user_score_log", member.id);
    expect(money.length).toBeGreaterThan(0);
    expect(score.length).toBeGreaterThan(0);
    expectChained(money, Number(member.money));
    expectChained(score, Number(member.score));
    expect(Number(member.money)).toBe(demoTotal(DEMO_MONEY_LOG));
    expect(Number(member.score)).toBe(demoTotal(DEMO_SCORE_LOG));
    // Every memo is a key the server can show in both languages.
    for (const row of [...money, ...score]) expect(renderMemo(zh, row.key, {}, "")).not.toBe("");
    // A purchase only where the member really bought a course (the demo member bought none).
    const enrolments = await t.db.query("select 1 from course_enrolment where user_id = $1 and paid > 0", [member.id]);
    expect(money.filter((r) => r.key === "course.bought")).toHaveLength(enrolments.rows.length);
  }, SEEDING);

  it("convert old free-text memos (migration 0012) and retell the old demo story", async () => {
    t = await createTestDatabase({ migrated: false });
    const before0012 = bundledMigrations.filter((m) => m.version < "0012");
    await migrate(t.db, before0012);
    // A demo database as an earlier release seeded it, with two real rows written in zh-cn and en.
    await t.db.query("insert into app_meta (key, value) values ('demo', '1')");
    await t.db.query(
      `insert into member (username, nickname, email, password_hash, gender, money, score, motto)
       values ($1, 'Member', 'member@example.com', 'x', 0, 10000, 105, ''), ('other', 'Other', 'o@example.com', 'x', 0, 0, 0, '')`,
      [DEMO_MEMBER.username],
    );
    const ids = (await t.db.query<{ id: number }>("select id from member order by id")).rows.map((r) => r.id);
    const [demo, other] = [ids[0]!, ids[1]!];
    const old: [number, number, number, string][] = [
      [10_000, 0, 10_000, "Recharge"],
      [-2_000, 10_000, 8_000, "Bought a course"],
      [2_000, 8_000, 10_000, "Refund"],
    ];
    for (const [change, b, a, memo] of old) {
      await t.db.query("insert into user_money_log (user_id, money, before, after, memo) values ($1, $2, $3, $4, $5)", [demo, change, b, a, memo]);
    }
    for (const [change, b, a, memo] of [
      [50, 0, 50, "Daily check-in"],
      [50, 50, 100, "Finished a lesson"],
      [5, 100, 105, "完成课时：第一课"],
    ] as const) {
      await t.db.query("insert into user_score_log (user_id, score, before, after, memo) values ($1, $2, $3, $4, $5)", [demo, change, b, a, memo]);
    }
    await t.db.query("insert into user_money_log (user_id, money, before, after, memo) values ($1, -1990, 5000, 3010, 'Bought course: Video 101'), ($1, 100, 3010, 3110, 'Gift from the teacher')", [other]);
    for (const part of demoParts) {
      if (part.name !== "accountLogsRetold") await t.db.query("insert into app_meta (key, value) values ($1, '0')", [`seed:${part.name}`]);
    }

    await migrate(t.db);
    const other0 = await t.db.query<{ memo: string; memo_key: string; memo_params: unknown }>(
      "select memo, memo_key, memo_params from user_money_log where user_id = $1 order by id",
      [other],
    );
    expect(other0.rows).toEqual([
      { memo: "", memo_key: "course.bought", memo_params: { title: "Video 101" } },
      { memo: "Gift from the teacher", memo_key: "", memo_params: {} },
    ]);
    const zhLesson = await t.db.query<{ memo_key: string; memo_params: unknown }>("select memo_key, memo_params from user_score_log where user_id = $1 and score = 5", [demo]);
    expect(zhLesson.rows).toEqual([{ memo_key: "lesson.completed", memo_params: { title: "第一课" } }]);

    expect(await seedDemo(t.db)).toEqual(["accountLogsRetold"]);
    const money = await chain(t.db, "user_money_log", demo);
    expect(money).toEqual([{ change: 10_000, before: 0, after: 10_000, key: "recharge" }]);
    const score = await chain(t.db, "user_score_log", demo);
    expect(score.map((r) => r.key)).toEqual(["signup", "admin.adjust", "lesson.completed"]);
    expectChained(money, 10_000);
    expectChained(score, 105);
    // The other member's rows are untouched by the demo's retelling.
    expect((await chain(t.db, "user_money_log", other)).map((r) => r.key)).toEqual(["course.bought", ""]);
  }, SEEDING);
});
