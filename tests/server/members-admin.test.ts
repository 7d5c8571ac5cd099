import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { call as send, type Caller, type Method } from "../helpers/call.ts";
import { createAdmin, createBankWithQuestions, createCourse, createMember, createPaper, type TestAdmin } from "../helpers/factories.ts";
import { secondServer } from "../helpers/second.ts";

/**
 * The members area of the back office: balance and points adjustments (one log row and the
 * member's figure in one transaction, never below zero, no lost update under concurrency), the
 * member rules that make the member center's menus, and the dashboard's figures.
 */

let t: TestApp;
let root: TestAdmin;
let serial = 0;
const q = <T>(text: string, params: unknown[] = []) => t.database.db.query<T & Record<string, unknown>>(text, params).then((r) => r.rows);

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

/** The answers' data, read field by field, with a refusal's message per field. */
type Data = Record<string, unknown> & { fields?: Record<string, string> };
/** A call to `app` (the test's unless told) as `who`, from a browser named "members-test". */
const call = (who: Caller, method: Method, url: string, payload?: object, app = t.app) => send<Data>(app, who, method, url, payload, { headers: { "user-agent": "members-test" } });

const figures = async (id: number) => {
  const [row] = await q<{ money: string; score: string }>("select money, score from member where id = $1", [id]);
  return { money: Number(row!.money), score: Number(row!.score) };
};
/** The member's log rows, figures as numbers (PGlite and pg read bigint differently). */
const logs = (table: "user_money_log" | "user_score_log", id: number) =>
  q<{ id: number; money?: number; score?: number; before: number; after: number; memo: string; memo_key: string }>(
    `select id, ${table === "user_money_log" ? "money::float8 as money" : "score::float8 as score"}, before::float8 as before, after::float8 as after, memo, memo_key from ${table} where user_id = $1 order by id`,
    [id],
  );

/** A non-super admin whose group grants these rules (by name). */
async function adminWith(rules: string[]): Promise<TestAdmin> {
  const a = await createAdmin(t.database.db, { isSuper: false });
  const ids = (await q<{ id: number }>("select id from admin_rule where name = any($1::text[])", [rules])).map((r) => r.id);
  const [group] = await q<{ id: number }>("insert into admin_group (name, rules) values ($1, $2) returning id", [`mg${serial++}`, ids.join(",")]);
  await q("insert into admin_group_access (uid, group_id) values ($1, $2)", [a.id, group!.id]);
  return a;
}

describe("balance and points adjustments", () => {
  it("writes the member's new balance and exactly one log row with before / after, and one admin log row", async () => {
    const m = await createMember(t.database.db, { money: 1050 });
    const adminLogsBefore = (await q("select id from admin_log where url = '/admin/user/moneyLog/add'")).length;
    const res = await call(root, "POST", "/admin/user/moneyLog/add", { user_id: m.id, money: -250, memo: "Refund of a mistake" });
    expect(res).toMatchObject({ code: 1 });
    expect(await figures(m.id)).toEqual({ money: 800, score: 0 });
    const rows = await logs("user_money_log", m.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: res.data.id, money: -250, before: 1050, after: 800, memo: "Refund of a mistake", memo_key: "" });
    expect((await q("select id from admin_log where url = '/admin/user/moneyLog/add'")).length).toBe(adminLogsBefore + 1);
    // Points the same way; without a memo the row says so in the reader's language.
    expect((await call(root, "POST", "/admin/user/scoreLog/add", { user_id: m.id, score: 30 })).code).toBe(1);
    expect(await figures(m.id)).toEqual({ money: 800, score: 30 });
    const points = await logs("user_score_log", m.id);
    expect(points).toHaveLength(1);
    expect(points[0]).toMatchObject({ score: 30, before: 0, after: 30, memo_key: "admin.adjust" });
    // The member reads both on their side.
    const balance = (await t.app.inject({ method: "GET", url: "/api/account/balance", headers: { ...m.headers, "think-lang": "en" } })).json();
    expect(balance.data.list[0]).toMatchObject({ money: "-2.50", memo: "Refund of a mistake" });
    const listed = await call(root, "GET", `/admin/user/scoreLog/index?search[0][field]=user_id&search[0][operator]=eq&search[0][val]=${m.id}`);
    expect(listed.data.list).toMatchObject([{ user_id: m.id, score: 30, memo: "Changed by an administrator" }]);
  });

  it("refuses a balance or points below zero clearly, changing nothing", async () => {
    const m = await createMember(t.database.db, { money: 100, score: 5 });
    const money = await call(root, "POST", "/admin/user/moneyLog/add", { user_id: m.id, money: -101 });
    expect(money).toMatchObject({ code: 0, msg: "The balance cannot go below zero: the member has 1.00" });
    expect(money.data.fields).toEqual({ money: "The balance cannot go below zero: the member has 1.00" });
    const score = await call(root, "POST", "/admin/user/scoreLog/add", { user_id: m.id, score: -6 });
    expect(score).toMatchObject({ code: 0, msg: "The points cannot go below zero: the member has 5" });
    expect(await figures(m.id)).toEqual({ money: 100, score: 5 });
    expect(await logs("user_money_log", m.id)).toHaveLength(0);
    expect(await logs("user_score_log", m.id)).toHaveLength(0);
    // Down to exactly zero is fine.
    expect((await call(root, "POST", "/admin/user/moneyLog/add", { user_id: m.id, money: -100 })).code).toBe(1);
    expect((await figures(m.id)).money).toBe(0);
  });

  it("refuses hostile amounts and bodies with code 0 (never a 500), changing nothing", async () => {
    const m = await createMember(t.database.db, { money: 500 });
    const bodies: unknown[] = [
      { user_id: m.id, money: 0 },
      { user_id: m.id, money: 1.5 },
      { user_id: m.id, money: "100" },
      { user_id: m.id, money: 100_000_001 },
      { user_id: m.id, money: -1e300 },
      { user_id: m.id, money: 1e308 },
      { user_id: m.id, money: 100, memo: "a\u0000b" },
      { user_id: m.id, money: 100, memo: "x".repeat(201) },
      { user_id: m.id, money: 100, before: 0, after: 9_999_999 },
      { user_id: m.id, money: 100, score: 5 },
      { user_id: 99_999_999_999, money: 100 },
      { user_id: 2_000_000_000, money: 100 },
      { money: 100 },
      [m.id, 100],
    ];
    for (const body of bodies) {
      const res = await t.app.inject({ method: "POST", url: "/admin/user/moneyLog/add", headers: root.headers, payload: body as object });
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(res.json().code, JSON.stringify(body)).toBe(0);
    }
    expect((await call(root, "POST", "/admin/user/moneyLog/add", { user_id: 2_000_000_000, money: 100 })).msg).toBe("The member does not exist");
    // A balance past the highest figure.
    await q("update member set money = 999999999999 where id = $1", [m.id]);
    expect((await call(root, "POST", "/admin/user/moneyLog/add", { user_id: m.id, money: 100_000_000 })).msg).toBe("The result would be larger than the highest allowed figure");
    expect(await logs("user_money_log", m.id)).toHaveLength(0);
  });

  it("needs the log's add rule; an admin with only the list rule is refused", async () => {
    const m = await createMember(t.database.db, { money: 0 });
    const viewer = await adminWith(["user/moneyLog/index"]);
    expect((await call(viewer, "POST", "/admin/user/moneyLog/add", { user_id: m.id, money: 100 })).code).toBe(401);
    expect((await call({ headers: m.headers }, "POST", "/admin/user/moneyLog/add", { user_id: m.id, money: 100 })).code).not.toBe(1);
    const adjuster = await adminWith(["user/moneyLog/add"]);
    expect((await call(adjuster, "POST", "/admin/user/moneyLog/add", { user_id: m.id, money: 100 })).code).toBe(1);
    expect((await figures(m.id)).money).toBe(100);
  });

  it("loses no update when adjustments arrive at once (two servers on PostgreSQL), and never overdraws", async () => {
    const m = await createMember(t.database.db, { money: 0 });
    const second = await secondServer(t);
    try {
      const apps = [t.app, second.app];
      const burst = (count: number, money: number) =>
        Promise.all(Array.from({ length: count }, (_, i) => call(root, "POST", "/admin/user/moneyLog/add", { user_id: m.id, money, memo: `n${i}` }, apps[i % 2])));
      const added = await burst(16, 125);
      expect(added.map((a) => a.code)).toEqual(Array(16).fill(1));
      expect((await figures(m.id)).money).toBe(2000);
      // Withdrawals: only as many as the balance covers succeed.
      const taken = await burst(12, -300);
      expect(taken.filter((a) => a.code === 1)).toHaveLength(6);
      expect(taken.filter((a) => a.code === 0).every((a) => a.msg.startsWith("The balance cannot go below zero"))).toBe(true);
      expect((await figures(m.id)).money).toBe(200);
      // The log is one unbroken chain: each row starts where the previous one ended.
      const rows = await logs("user_money_log", m.id);
      expect(rows).toHaveLength(22);
      let balance = 0;
      for (const row of rows) {
        expect(Number(row.before)).toBe(balance);
        balance = Number(row.after);
        expect(balance - Number(row.before)).toBe(Number(row.money));
      }
      expect(balance).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe("member rules", () => {
  const menus = async (token: Record<string, string>) => {
    const res = (await t.app.inject({ method: "GET", url: "/api/index/index", headers: { ...token, "think-lang": "en" } })).json();
    const names: string[] = [];
    const walk = (nodes: { name: string; children: unknown[] }[]) => nodes.forEach((n) => (names.push(n.name), walk(n.children as never)));
    walk(res.data.menus);
    return names;
  };

  it("a rule added under a menu and granted to a group appears in that group's member center; disabled or deleted it goes", async () => {
    const [account] = await q<{ id: number }>("select id from user_rule where name = 'account'");
    const added = await call(root, "POST", "/admin/user/rule/add", { pid: account!.id, type: "menu", title: "证书", title_en: "Certificates", name: "account/certs", path: "account/certs", menu_type: "tab", component: "account/certs" });
    expect(added.code).toBe(1);
    const ruleId = added.data.id as number;
    const group = await call(root, "POST", "/admin/user/group/add", { name: `mg-rules-${serial++}`, rules: [account!.id, ruleId] });
    expect(group.code).toBe(1);
    const m = await createMember(t.database.db, { groupId: group.data.id as number });
    expect(await menus(m.headers)).toEqual(["account", "account/certs"]);
    // A parent that does not exist, or the rule under itself: refused.
    expect((await call(root, "POST", "/admin/user/rule/edit", { id: ruleId, pid: ruleId, type: "menu", title: "证书", name: "account/certs" })).code).toBe(0);
    expect((await call(root, "POST", "/admin/user/rule/edit", { id: ruleId, pid: 2_000_000_000, type: "menu", title: "证书", name: "account/certs" })).code).toBe(0);
    expect((await call(root, "POST", "/admin/user/rule/edit", { id: ruleId, pid: account!.id, type: "menu", title: "证书", title_en: "Certificates", name: "account/certs", path: "account/certs", menu_type: "tab", status: "disable" })).code).toBe(1);
    expect(await menus(m.headers)).toEqual(["account"]);
    // The parent with sub-rules cannot be deleted; the rule itself can, and leaves the group.
    expect((await call(root, "DELETE", `/admin/user/rule/del?ids[]=${account!.id}`)).msg).toBe("Delete or move its sub-rules first");
    expect((await call(root, "DELETE", `/admin/user/rule/del?ids[]=${ruleId}`)).code).toBe(1);
    const [row] = await q<{ rules: string }>("select rules from user_group where id = $1", [group.data.id]);
    expect(row!.rules).toBe(String(account!.id));
    // The group can still be saved (its rules all exist).
    expect((await call(root, "POST", "/admin/user/group/edit", { id: group.data.id, name: "renamed", rules: [account!.id] })).code).toBe(1);
  });

  it("refuses a duplicate rule name and a wrong type, changing nothing", async () => {
    const before = (await q("select id from user_rule")).length;
    expect((await call(root, "POST", "/admin/user/rule/add", { type: "menu", title: "x", name: "account/profile" })).msg).toBe("This value is already used by another row");
    expect((await call(root, "POST", "/admin/user/rule/add", { type: "admin", title: "x", name: "x/y" })).code).toBe(0);
    expect((await q("select id from user_rule")).length).toBe(before);
  });
});

describe("dashboard", () => {
  const DAY = 86_400;
  it("counts members, courses, questions, today's attempts and new members per day over 7 days", async () => {
    const read = async () => (await call(root, "GET", "/admin/dashboard/index")).data as { members: number; courses: number; questions: number; attemptsToday: number; newMembers: { day: string; count: number }[] };
    const base = await read();
    expect(base.newMembers).toHaveLength(7);
    const now = Math.floor(Date.now() / 1000);
    const today = now - (now % DAY);
    expect(base.newMembers.map((d) => d.day)).toEqual(Array.from({ length: 7 }, (_, i) => new Date((today - (6 - i) * DAY) * 1000).toISOString().slice(0, 10)));

    const made = await Promise.all([1, 2, 3, 4].map(() => createMember(t.database.db)));
    await q("update member set create_time = $1 where id = $2", [today - 3 * DAY + 10, made[0]!.id]);
    await q("update member set create_time = $1 where id = $2", [today - 9 * DAY, made[1]!.id]);
    await createCourse(t.database.db);
    await createBankWithQuestions(t.database.db, 3);
    const paper = await createPaper(t.database.db, { rows: [] });
    const attempt = (startedAt: number) =>
      q("insert into exam_attempt (uuid, user_id, kind, paper_id, started_at, status) values ($1, $2, 'mock', $3, $4, 'submitted')", [randomUUID(), made[2]!.id, paper, startedAt]);
    await attempt(now);
    await attempt(today + 1);
    await attempt(today - 1);

    const after = await read();
    expect(after.members - base.members).toBe(4);
    expect(after.courses - base.courses).toBe(1);
    expect(after.questions - base.questions).toBe(3);
    expect(after.attemptsToday - base.attemptsToday).toBe(2);
    const delta = after.newMembers.map((d, i) => d.count - base.newMembers[i]!.count);
    // Two today, one three days ago; the one nine days ago is outside the chart.
    expect(delta).toEqual([0, 0, 0, 1, 0, 0, 2]);
  });

  it("needs the dashboard rule", async () => {
    expect((await call(await adminWith(["user/user/index"]), "GET", "/admin/dashboard/index")).code).toBe(401);
    expect((await call(await adminWith(["dashboard"]), "GET", "/admin/dashboard/index")).code).toBe(1);
    const m = await createMember(t.database.db);
    expect((await call({ headers: m.headers }, "GET", "/admin/dashboard/index")).code).not.toBe(1);
  });
});
