import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "../../src/server/auth/password.ts";
import { hashToken, issueToken } from "../../src/server/auth/tokens.ts";
import { requireAdmin } from "../../src/server/plugins/auth.ts";
import { DEMO_ADMIN } from "../../src/server/demo/accounts.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { solvedCaptcha } from "../helpers/captcha.ts";
import { secondServer } from "../helpers/second.ts";
import { createAdmin, createMember } from "../helpers/factories.ts";

describe("admin session", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { seedDemo: true },
      // An admin endpoint gated by a rule, as every back-office endpoint is (route option).
      prepare: (app) => app.post("/admin/test/addAdmin", { config: { adminRule: "auth/admin/add" } }, async (_req, reply) => reply.success({ ok: true })),
    });
  });
  afterAll(() => t.close());

  let address = 0;
  /** Each login from its own address: per-address captcha counting has its own test. */
  const login = (username: string, password: string, keep = true) =>
    t.app.inject({
      method: "POST",
      url: "/admin/index/login",
      headers: { "think-lang": "en" },
      remoteAddress: `10.2.0.${++address % 250}`,
      payload: { username, password, keep },
    });
  const index = (token?: string) =>
    t.app.inject({ method: "GET", url: "/admin/index/index", headers: { "think-lang": "en", ...(token ? { batoken: token } : {}) } });

  it("asks for login (303 need login) without a token", async () => {
    const res = await index();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 303, data: { type: "need login" } });
    expect((await index("made-up")).json().code).toBe(303);
  });

  it("checks the account and password rules on the server too", async () => {
    expect((await login("1bad", "admin123456")).json()).toMatchObject({ code: 0, msg: "A username is 3 to 15 letters, digits or underscores, starting with a letter" });
    expect((await login("admin", "<short")).json()).toMatchObject({ code: 0, msg: `A password is 6 to 32 characters, without & < > " or '` });
    const junk = await t.app.inject({ method: "POST", url: "/admin/index/login", payload: { username: 5 } });
    expect(junk.json().code).toBe(0);
  });

  it("logs the demo admin in and serves the back office's start data", async () => {
    const res = await login(DEMO_ADMIN.username, DEMO_ADMIN.password);
    const body = res.json();
    expect(body).toMatchObject({ code: 1, msg: "Login successful", data: { routePath: "/admin", userInfo: { username: "admin", super: true } } });
    const { token, refresh_token } = body.data.userInfo;
    expect(token).toMatch(/^[\w-]{40,}$/);
    expect(refresh_token).toMatch(/^[\w-]{40,}$/);

    const start = (await index(token)).json();
    expect(start.code).toBe(1);
    expect(start.data.adminInfo).toMatchObject({ username: "admin", refresh_token: "" });
    expect(start.data.siteConfig.siteName).toBe("ExamHub");
    const names = JSON.stringify(start.data.menus);
    for (const name of ["dashboard", "auth/admin", "exam/question", "course/lesson", "routine/attachment"]) expect(names).toContain(`"name":"${name}"`);
    expect(start.data.menus[0]).toMatchObject({ name: "dashboard", title: "Dashboard", menu_type: "tab" });

    // Stored as hashes only.
    const stored = await t.database.db.query<{ token_hash: string }>("select token_hash from token");
    expect(stored.rows.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(JSON.stringify(stored.rows)).not.toContain(token);
  });

  it("titles menus in the requested language", async () => {
    const { token } = (await login(DEMO_ADMIN.username, DEMO_ADMIN.password)).json().data.userInfo;
    const zh = await t.app.inject({ method: "GET", url: "/admin/index/index", headers: { batoken: token } });
    expect(zh.json().data.menus[0].title).toBe("控制台");
    // English titles are English words, not 题库分类 rendered word for word.
    const en = await t.app.inject({ method: "GET", url: "/admin/index/index", headers: { batoken: token, "think-lang": "en" } });
    const titles = JSON.stringify(en.json().data.menus);
    expect(titles).toContain('"title":"Question banks"');
    expect(titles).not.toContain("Exam classify");
    // A directory and its screen are not named alike (会员管理 › 会员管理 before).
    const pairs = (menus: { title: string; children?: { title: string }[] }[]): string[] => menus.flatMap((m) => (m.children ?? []).map((c) => `${m.title} › ${c.title}`));
    expect(pairs(zh.json().data.menus)).toContain("会员管理 › 会员");
    expect(pairs(en.json().data.menus)).toContain("Member management › Members");
    // The member screens say "Member", not "User", in English.
    expect(pairs(en.json().data.menus)).toEqual(expect.arrayContaining(["Member management › Member groups", "Member management › Member rules"]));
    expect(titles).not.toContain("User groups");
    for (const menus of [zh.json().data.menus, en.json().data.menus]) for (const pair of pairs(menus)) expect(pair.split(" › ")[0], pair).not.toBe(pair.split(" › ")[1]);
  });

  it("answers 409 for an expired token and refreshes it once with the refresh token", async () => {
    const { token, refresh_token } = (await login(DEMO_ADMIN.username, DEMO_ADMIN.password)).json().data.userInfo;
    await t.database.db.query("update token set expire_time = 0 where token_hash = $1", [hashToken(token)]);
    expect((await index(token)).json().code).toBe(409);

    const refreshed = await t.app.inject({ method: "POST", url: "/api/common/refreshToken", headers: { batoken: token }, payload: { refreshToken: refresh_token } });
    expect(refreshed.json()).toMatchObject({ code: 1, data: { type: "admin-refresh" } });
    const fresh = refreshed.json().data.token;
    expect((await index(fresh)).json().code).toBe(1);
    expect((await index(token)).json().code).toBe(409); // the old one stays expired (in-flight requests replay)

    const bad = await t.app.inject({ method: "POST", url: "/api/common/refreshToken", headers: { "think-lang": "en" }, payload: { refreshToken: "nope" } });
    expect(bad.json()).toMatchObject({ code: 0, msg: "Invalid token, please log in again" });
  });

  it("refuses an expired refresh token", async () => {
    const { refresh_token } = (await login(DEMO_ADMIN.username, DEMO_ADMIN.password)).json().data.userInfo;
    await t.database.db.query("update token set expire_time = 0 where token_hash = $1", [hashToken(refresh_token)]);
    const res = await t.app.inject({ method: "POST", url: "/api/common/refreshToken", headers: { "think-lang": "en" }, payload: { refreshToken: refresh_token } });
    expect(res.json()).toMatchObject({ code: 0, msg: "Invalid token, please log in again" });
    const zh = await t.app.inject({ method: "POST", url: "/api/common/refreshToken", payload: { refreshToken: refresh_token } });
    expect(zh.json().msg).toBe("令牌无效，请重新登录");
  });

  it("issues no refresh token unless 'keep' is ticked", async () => {
    const info = (await login(DEMO_ADMIN.username, DEMO_ADMIN.password, false)).json().data.userInfo;
    expect(info.refresh_token).toBe("");
  });

  it("logout revokes both tokens", async () => {
    const { token, refresh_token } = (await login(DEMO_ADMIN.username, DEMO_ADMIN.password)).json().data.userInfo;
    const out = await t.app.inject({ method: "POST", url: "/admin/index/logout", headers: { batoken: token }, payload: { refreshToken: refresh_token } });
    expect(out.json().code).toBe(1);
    expect((await index(token)).json().code).toBe(303);
    const again = await t.app.inject({ method: "POST", url: "/api/common/refreshToken", payload: { refreshToken: refresh_token } });
    expect(again.json().code).toBe(0);
  });

  it("a member token gets nothing from the admin side", async () => {
    const { token: memberToken } = await createMember(t.database.db);
    expect((await index(memberToken)).json().code).toBe(303);
    const both = await t.app.inject({ method: "GET", url: "/admin/index/index", headers: { "ba-user-token": memberToken } });
    expect(both.json().code).toBe(303);
  });

  it("shows an admin only the menus of their groups", async () => {
    const db = t.database.db;
    const rules = await db.query<{ id: number; name: string }>("select id, name from admin_rule where name in ('dashboard', 'exam', 'exam/question', 'exam/question/index')");
    const group = await db.query<{ id: number }>("insert into admin_group (name, rules) values ('Editors', $1) returning id", [rules.rows.map((r) => r.id).join(",")]);
    const editor = await db.query<{ id: number }>("insert into admin (username, password_hash) values ('editor', $1) returning id", [await hashPassword("editor123")]);
    await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [editor.rows[0]!.id, group.rows[0]!.id]);
    const { token } = (await login("editor", "editor123")).json().data.userInfo;
    const menus = (await index(token)).json().data.menus;
    expect(menus.map((m: { name: string }) => m.name)).toEqual(["dashboard", "exam"]);
    expect(menus[1].children.map((m: { name: string }) => m.name)).toEqual(["exam/question"]);
    expect(menus[1].children[0].children.map((m: { name: string }) => m.name)).toEqual(["exam/question/index"]);
  });

  it("checks the admin's rules on the server for admin endpoints", async () => {
    const db = t.database.db;
    const dashboard = await db.query<{ id: number }>("select id from admin_rule where name = 'dashboard'");
    const group = await db.query<{ id: number }>("insert into admin_group (name, rules) values ('Viewers', $1) returning id", [String(dashboard.rows[0]!.id)]);
    const viewer = await db.query<{ id: number }>("insert into admin (username, password_hash) values ('viewer', $1) returning id", [await hashPassword("viewer123")]);
    await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [viewer.rows[0]!.id, group.rows[0]!.id]);
    const viewerToken = (await login("viewer", "viewer123")).json().data.userInfo.token;
    const superToken = (await login(DEMO_ADMIN.username, DEMO_ADMIN.password)).json().data.userInfo.token;
    const call = (headers: Record<string, string>) => t.app.inject({ method: "POST", url: "/admin/test/addAdmin", headers: { "think-lang": "en", ...headers }, payload: {} });
    expect((await call({ batoken: viewerToken })).json()).toMatchObject({ code: 401, msg: "You have no permission to do this" });
    expect((await call({ batoken: superToken })).json()).toMatchObject({ code: 1 });
    expect((await call({})).json().code).toBe(303);
  });

  // The lock is per (account, address), and after 3 failures every
  // attempt needs the captcha (the full rules are in login.test.ts).
  it("locks an address out of an account after 10 failed logins from it", async () => {
    await t.database.db.query("insert into admin (username, password_hash) values ('victim', $1)", [await hashPassword("right-pass")]);
    const from = async (password: string) =>
      (
        await t.app.inject({
          method: "POST",
          url: "/admin/index/login",
          headers: { "think-lang": "en" },
          remoteAddress: "10.4.4.4",
          payload: { username: "victim", password, ...(await solvedCaptcha(t.app, t.database.db)) },
        })
      ).json();
    // The address logged in before: it is spared the per-account wait.
    expect((await from("right-pass")).code).toBe(1);
    for (let i = 0; i < 10; i++) expect((await from("wrong-pass")).msg).toBe("Incorrect username or password");
    expect(await from("right-pass")).toMatchObject({ code: 0, msg: "Too many failed logins: this account is locked, please try again later" });
    await t.database.db.query("update login_address set last_failure = 0 where username = 'victim'");
    expect((await from("right-pass")).code).toBe(1);
  });

  it("asks for the click captcha after 3 failures from one address", async () => {
    const from = (password: string) =>
      t.app.inject({ method: "POST", url: "/admin/index/login", headers: { "think-lang": "en" }, remoteAddress: "10.3.3.3", payload: { username: "admin", password } });
    const needs = () => t.app.inject({ method: "GET", url: "/admin/index/login", remoteAddress: "10.3.3.3" });
    expect((await needs()).json().data).toEqual({ captcha: false });
    for (let i = 0; i < 3; i++) expect((await from("wrong-pass")).json().msg).toBe("Incorrect username or password");
    expect((await needs()).json().data).toEqual({ captcha: true });
    expect((await from(DEMO_ADMIN.password)).json()).toMatchObject({ code: 0, msg: "Please complete the captcha", data: { captcha: true } });
  });

  it("counts an address's failures over every account in the database, for every server process", async () => {
    const other = await secondServer(t);
    try {
      // Three accounts (no account reaches its own captcha threshold), through the first process.
      for (const username of ["nobody_a", "nobody_b", "nobody_c"]) {
        const res = await t.app.inject({ method: "POST", url: "/admin/index/login", headers: { "think-lang": "en" }, remoteAddress: "10.3.4.4", payload: { username, password: "wrong-pass" } });
        expect(res.json().msg).toBe("Incorrect username or password");
      }
      // The second process (on PostgreSQL another app with its own pool) asks for the captcha.
      expect((await other.app.inject({ method: "GET", url: "/admin/index/login", remoteAddress: "10.3.4.4" })).json().data).toEqual({ captcha: true });
      const stored = await t.database.db.query("select kind, failures from login_address_failure where address = $1", ["10.3.4.4"]);
      expect(stored.rows).toEqual([{ kind: "admin", failures: 3 }]);
    } finally {
      await other.close();
    }
  });

  it("does not tell unknown users from wrong passwords", async () => {
    expect((await login("nobody_here", "whatever1")).json().msg).toBe("Incorrect username or password");
  });
});

describe("member index", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("requires login when asked, and serves the member center menus to a member", async () => {
    const anon = await t.app.inject({ method: "GET", url: "/api/index/index?requiredLogin=1" });
    expect(anon.json()).toMatchObject({ code: 303, data: { type: "need login" } });
    const open = await t.app.inject({ method: "GET", url: "/api/index/index" });
    expect(open.json()).toMatchObject({ code: 1, data: { userInfo: null, menus: [] } });

    // A member of the default member group, with a balance and points.
    const group = (await t.database.db.query<{ id: number }>("select id from user_group order by id limit 1")).rows[0]!.id;
    const { username, token } = await createMember(t.database.db, { groupId: group, money: 10_000, score: 100 });
    const res = await t.app.inject({ method: "GET", url: "/api/index/index?requiredLogin=1", headers: { "ba-user-token": token, "think-lang": "en" } });
    const body = res.json();
    expect(body.code).toBe(1);
    expect(body.data.userInfo).toMatchObject({ username, money: "100.00", score: 100 });
    expect(JSON.stringify(body.data.menus)).toContain('"name":"course/my_course"');

    const out = await t.app.inject({ method: "POST", url: "/api/user/logout", headers: { "ba-user-token": token }, payload: {} });
    expect(out.json().code).toBe(1);
    const after = await t.app.inject({ method: "GET", url: "/api/index/index?requiredLogin=1", headers: { "ba-user-token": token } });
    expect(after.json().code).toBe(303);
  });
});

/**
 * The token and its account come from one query (a join): these pin every outcome of that join,
 * and that an authenticated request costs one round trip for it.
 */
describe("token and account in one query", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      prepare: (app) => {
        app.get("/api/test/me", { config: { auth: "member" } }, async (req, reply) => reply.success({ member: req.member }));
        app.get("/admin/test/me", { config: { adminRule: { public: true } } }, async (req, reply) => reply.success({ admin: await requireAdmin(app.db, req) }));
      },
    });
  });
  afterAll(() => t.close());

  const me = (headers: Record<string, string>) => t.app.inject({ method: "GET", url: "/api/test/me", headers: { "think-lang": "en", ...headers } });
  const adminMe = (headers: Record<string, string>) => t.app.inject({ method: "GET", url: "/admin/test/me", headers: { "think-lang": "en", ...headers } });
  const needLogin = { code: 303, msg: "Please log in first", data: { type: "need login" } };
  const expired = { code: 409, msg: "Token expired" };

  it("finds a member with one query, the row without anything of the token", async () => {
    const m = await createMember(t.database.db, { money: 1234 });
    const spy = vi.spyOn(t.app.db, "query");
    try {
      const body = (await me(m.headers)).json();
      expect(body).toMatchObject({ code: 1, data: { member: { id: m.id, username: m.username, status: "enable", money: 1234 } } });
      expect(Object.keys(body.data.member).some((k) => k.includes("expire") || k.includes("token"))).toBe(false);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("looks up the tokens of requests arriving together in one query, each answered as alone (a token twice, unknown, expired, disabled, an admin's)", async () => {
    const [a, b, disabled, expiring] = await Promise.all([0, 1, 2, 3].map(() => createMember(t.database.db)));
    const admin = await createAdmin(t.database.db);
    await t.database.db.query("update member set status = 'disable' where id = $1", [disabled!.id]);
    await t.database.db.query("update token set expire_time = 0 where token_hash = $1", [hashToken(expiring!.token)]);
    const spy = vi.spyOn(t.app.db, "query");
    try {
      const bodies = (await Promise.all([me(a!.headers), me(b!.headers), me(a!.headers), me({ "ba-user-token": "nobody" }), me(expiring!.headers), me(disabled!.headers), me({ "ba-user-token": admin.token })])).map((r) => r.json());
      expect(bodies[0]).toMatchObject({ code: 1, data: { member: { id: a!.id, username: a!.username } } });
      expect(bodies[1]).toMatchObject({ code: 1, data: { member: { id: b!.id } } });
      expect(bodies[2]).toMatchObject({ code: 1, data: { member: { id: a!.id } } });
      expect(Object.keys(bodies[0].data.member).some((k) => k.includes("expire") || k.includes("token"))).toBe(false);
      expect(bodies.slice(3)).toMatchObject([needLogin, expired, needLogin, needLogin]);
      expect(spy.mock.calls.length).toBeLessThan(bodies.length);
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses a disabled member's valid token, and the token of a member who is gone", async () => {
    const m = await createMember(t.database.db);
    await t.database.db.query("update member set status = 'disable' where id = $1", [m.id]);
    expect((await me(m.headers)).json()).toMatchObject(needLogin);
    const orphan = await issueToken(t.database.db, "user", 2_000_000_000, 3600);
    expect((await me({ "ba-user-token": orphan })).json()).toMatchObject(needLogin);
  });

  it("answers 409 for an expired token before looking at the account (the client refreshes, then learns)", async () => {
    const m = await createMember(t.database.db);
    await t.database.db.query("update token set expire_time = $2 where token_hash = $1", [hashToken(m.token), Math.floor(Date.now() / 1000)]);
    expect((await me(m.headers)).json()).toMatchObject(expired);
    await t.database.db.query("update member set status = 'disable' where id = $1", [m.id]);
    expect((await me(m.headers)).json()).toMatchObject(expired);
  });

  it("takes a token only as what it was issued for", async () => {
    const m = await createMember(t.database.db);
    const a = await createAdmin(t.database.db);
    // An admin token (or an admin id that is also a member id) is nobody on the member side, and the other way round.
    expect((await me({ "ba-user-token": a.token })).json()).toMatchObject(needLogin);
    expect((await adminMe({ batoken: m.token })).json()).toMatchObject(needLogin);
    const refresh = await issueToken(t.database.db, "user-refresh", m.id, 3600);
    expect((await me({ "ba-user-token": refresh })).json()).toMatchObject(needLogin);
    // An exchanged token is no longer an access token.
    await t.database.db.query("update token set rotated_at = 1 where token_hash = $1", [hashToken(m.token)]);
    expect((await me(m.headers)).json()).toMatchObject(needLogin);
    expect((await me({ "ba-user-token": "x".repeat(201) })).json()).toMatchObject(needLogin);
  });

  it("finds an admin with one query, and refuses a disabled or expired one the same way", async () => {
    const a = await createAdmin(t.database.db);
    const spy = vi.spyOn(t.app.db, "query");
    try {
      expect((await adminMe(a.headers)).json()).toMatchObject({ code: 1, data: { admin: { id: a.id, username: a.username, status: "enable" } } });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    await t.database.db.query("update admin set status = 'disable' where id = $1", [a.id]);
    expect((await adminMe(a.headers)).json()).toMatchObject(needLogin);
    await t.database.db.query("update token set expire_time = 0 where token_hash = $1", [hashToken(a.token)]);
    expect((await adminMe(a.headers)).json()).toMatchObject(expired);
  });
});
