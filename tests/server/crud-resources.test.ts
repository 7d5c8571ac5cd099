import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../src/server/auth/password.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers, type Caller, type Method } from "../helpers/call.ts";
import { createAdmin, createMember, type TestAdmin } from "../helpers/factories.ts";

/**
 * The back-office resources' own rules on the CRUD engine: passwords hashed and never returned,
 * an admin cannot delete or disable themself, super admins only by super admins, a group grants
 * only rules its creator holds, and every write leaves one admin log row without secrets.
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

/** A non-super admin whose one group grants these rules (by name). */
async function adminWith(rules: string[]): Promise<TestAdmin & { groupId: number }> {
  const a = await createAdmin(t.database.db, { isSuper: false });
  const ids = (await q<{ id: number }>("select id from admin_rule where name = any($1::text[])", [rules])).map((r) => r.id);
  expect(ids.length).toBe(rules.length);
  const [group] = await q<{ id: number }>("insert into admin_group (name, rules) values ($1, $2) returning id", [`g${serial++}`, ids.join(",")]);
  await q("insert into admin_group_access (uid, group_id) values ($1, $2)", [a.id, group!.id]);
  return { ...a, groupId: group!.id };
}

const { send } = callers(() => t.app, { headers: { "user-agent": "crud-test" } });
/** A call as `who`; the answers' data read field by field. */
const call = (who: Caller, method: Method, url: string, payload?: object) => send<Record<string, unknown>>(who, method, url, payload);

describe("admins", () => {
  it("hashes the password on add, never returns it, and resets it on edit only when given (ending the admin's sessions)", async () => {
    const added = await call(root, "POST", "/admin/auth/admin/add", { username: "crud_pw1", password: "first-pass1", nickname: "P" });
    expect(added.code).toBe(1);
    const id = added.data.id as number;
    const [row] = await q<{ password_hash: string }>("select password_hash from admin where id = $1", [id]);
    expect(row!.password_hash).not.toContain("first-pass1");
    expect(await verifyPassword("first-pass1", row!.password_hash)).toBe(true);
    const edit = await call(root, "GET", `/admin/auth/admin/edit?id=${id}`);
    expect(JSON.stringify(edit.data)).not.toMatch(/password/);
    const token = await issueToken(t.database.db, "admin", id, 3600);
    // Empty password: unchanged, sessions kept.
    expect((await call(root, "POST", "/admin/auth/admin/edit", { id, username: "crud_pw1", password: "", nickname: "P2" })).code).toBe(1);
    expect(await verifyPassword("first-pass1", (await q<{ password_hash: string }>("select password_hash from admin where id = $1", [id]))[0]!.password_hash)).toBe(true);
    expect((await call({ headers: { batoken: token } }, "GET", "/admin/index/index")).code).not.toBe(303);
    expect((await call(root, "POST", "/admin/auth/admin/edit", { id, username: "crud_pw1", password: "second-pass2" })).code).toBe(1);
    expect(await verifyPassword("second-pass2", (await q<{ password_hash: string }>("select password_hash from admin where id = $1", [id]))[0]!.password_hash)).toBe(true);
    expect((await call({ headers: { batoken: token, "think-lang": "en" } }, "GET", "/admin/index/index")).code).toBe(303);
  });

  it("refuses an admin deleting or disabling themself", async () => {
    const me = await adminWith(["auth/admin/index", "auth/admin/edit", "auth/admin/del"]);
    const del = await call(me, "DELETE", `/admin/auth/admin/del?ids[]=${me.id}`);
    expect(del).toMatchObject({ code: 0, msg: "You cannot delete yourself" });
    const off = await call(me, "POST", "/admin/auth/admin/edit", { id: me.id, username: me.username, password: "", status: "disable", group_ids: [me.groupId] });
    expect(off).toMatchObject({ code: 0, msg: "You cannot disable yourself" });
    const demote = await call(me, "POST", "/admin/auth/admin/edit", { id: me.id, username: me.username, password: "", group_ids: [] });
    expect(demote).toMatchObject({ code: 0, msg: "You cannot change your own groups" });
    expect((await q("select id from admin where id = $1 and status = 'enable'", [me.id])).length).toBe(1);
    expect((await q("select 1 from admin_group_access where uid = $1", [me.id])).length).toBe(1);
  });

  it("lets only a super admin change or delete a super admin, and refuses groups granting rules the actor lacks", async () => {
    const manager = await adminWith(["auth/admin/index", "auth/admin/add", "auth/admin/edit", "auth/admin/del"]);
    const boss = await createAdmin(t.database.db, { isSuper: true });
    expect(await call(manager, "DELETE", `/admin/auth/admin/del?ids[]=${boss.id}`)).toMatchObject({ code: 0, msg: "Only a super admin can change a super admin" });
    expect(await call(manager, "POST", "/admin/auth/admin/edit", { id: boss.id, username: boss.username, password: "taken-over1" })).toMatchObject({ code: 0 });
    const [all] = await q<{ id: number }>("insert into admin_group (name, rules) values ('everything', '*') returning id");
    const escalate = await call(manager, "POST", "/admin/auth/admin/add", { username: "crud_esc", password: "secret-123", group_ids: [all!.id] });
    expect(escalate).toMatchObject({ code: 0, msg: "You can only grant rules you hold yourself" });
    expect((await q("select 1 from admin where username = 'crud_esc'")).length).toBe(0);
    // Its own group is fine; a super admin may delete the super admin.
    expect((await call(manager, "POST", "/admin/auth/admin/add", { username: "crud_peer", password: "secret-123", group_ids: [manager.groupId] })).code).toBe(1);
    expect((await call(root, "DELETE", `/admin/auth/admin/del?ids[]=${boss.id}`)).code).toBe(1);
  });
});

describe("admins: super admins by group, and one's own groups", () => {
  it("treats an admin in a \"*\" group as a super admin: only a super admin creates, edits or deletes one", async () => {
    const manager = await adminWith(["auth/admin/index", "auth/admin/add", "auth/admin/edit", "auth/admin/del"]);
    const [all] = await q<{ id: number }>("insert into admin_group (name, rules) values ($1, '*') returning id", [`all${serial++}`]);
    // A super admin by group, made by the root (is_super column) admin.
    const made = await call(root, "POST", "/admin/auth/admin/add", { username: "crud_star1", password: "secret-123", group_ids: [all!.id] });
    expect(made.code).toBe(1);
    const star = made.data.id as number;
    expect(await call(manager, "POST", "/admin/auth/admin/edit", { id: star, username: "crud_star1", nickname: "hijacked", group_ids: [all!.id] })).toMatchObject({ code: 0, msg: "Only a super admin can change a super admin" });
    expect(await call(manager, "DELETE", `/admin/auth/admin/del?ids[]=${star}`)).toMatchObject({ code: 0, msg: "Only a super admin can change a super admin" });
    expect(await call(manager, "POST", "/admin/auth/admin/add", { username: "crud_star2", password: "secret-123", group_ids: [all!.id] })).toMatchObject({ code: 0 });
    expect((await q("select nickname from admin where id = $1", [star]))[0]).toMatchObject({ nickname: "" });
    expect((await q("select 1 from admin where username = 'crud_star2'")).length).toBe(0);
    // The "*" admin is super: it may edit another super admin and delete it.
    const starAdmin = { headers: { batoken: await issueToken(t.database.db, "admin", star, 3600), "think-lang": "en" } };
    const boss = await createAdmin(t.database.db, { isSuper: true });
    expect((await call(starAdmin, "POST", "/admin/auth/admin/edit", { id: boss.id, username: boss.username, nickname: "renamed" })).code).toBe(1);
    expect((await call(starAdmin, "DELETE", `/admin/auth/admin/del?ids[]=${boss.id}`)).code).toBe(1);
    expect((await q("select 1 from admin where id = $1", [boss.id])).length).toBe(0);
  });

  it("refuses an admin, even a super one, taking themself out of a group, but lets them edit their profile", async () => {
    const [all] = await q<{ id: number }>("insert into admin_group (name, rules) values ($1, '*') returning id", [`all${serial++}`]);
    const star = (await call(root, "POST", "/admin/auth/admin/add", { username: "crud_star3", password: "secret-123", group_ids: [all!.id] })).data.id as number;
    const me = { headers: { batoken: await issueToken(t.database.db, "admin", star, 3600), "think-lang": "en" } };
    expect(await call(me, "POST", "/admin/auth/admin/edit", { id: star, username: "crud_star3", group_ids: [] })).toMatchObject({ code: 0, msg: "You cannot change your own groups" });
    expect(await call(me, "POST", "/admin/auth/admin/edit", { id: star, username: "crud_star3", status: "disable", group_ids: [all!.id] })).toMatchObject({ code: 0, msg: "You cannot disable yourself" });
    expect(await call(me, "DELETE", `/admin/auth/admin/del?ids[]=${star}`)).toMatchObject({ code: 0, msg: "You cannot delete yourself" });
    expect((await q("select group_id from admin_group_access where uid = $1", [star])).map((r) => r.group_id)).toEqual([all!.id]);
    expect((await call(me, "POST", "/admin/auth/admin/edit", { id: star, username: "crud_star3", nickname: "Star", group_ids: [all!.id] })).code).toBe(1);
    expect((await q("select nickname, status from admin where id = $1", [star]))[0]).toMatchObject({ nickname: "Star", status: "enable" });
    // A super admin by the is_super column likewise keeps its groups.
    const boss = await createAdmin(t.database.db, { isSuper: true });
    await q("insert into admin_group_access (uid, group_id) values ($1, $2)", [boss.id, all!.id]);
    expect(await call(boss, "POST", "/admin/auth/admin/edit", { id: boss.id, username: boss.username, group_ids: [] })).toMatchObject({ code: 0, msg: "You cannot change your own groups" });
  });
});

describe("admin groups", () => {
  it("grants only rules the creating admin holds, and refuses a cycle in the tree", async () => {
    const manager = await adminWith(["auth/group/index", "auth/group/add", "auth/group/edit"]);
    const held = (await q<{ id: number }>("select id from admin_rule where name = 'auth/group/index'"))[0]!.id;
    const other = (await q<{ id: number }>("select id from admin_rule where name = 'auth/admin/del'"))[0]!.id;
    expect(await call(manager, "POST", "/admin/auth/group/add", { name: "too much", rules: [held, other] })).toMatchObject({ code: 0, msg: "You can only grant rules you hold yourself" });
    expect(await call(manager, "POST", "/admin/auth/group/add", { name: "all", rules: "*" })).toMatchObject({ code: 0 });
    const ok = await call(manager, "POST", "/admin/auth/group/add", { name: "fine", rules: [held] });
    expect(ok.code).toBe(1);
    const parent = ok.data.id as number;
    const child = (await call(manager, "POST", "/admin/auth/group/add", { name: "child", pid: parent })).data.id as number;
    expect(await call(manager, "POST", "/admin/auth/group/edit", { id: parent, name: "fine", pid: child, rules: [held] })).toMatchObject({ code: 0, msg: "A row cannot be placed under itself or its descendants" });
    expect((await call(manager, "GET", `/admin/auth/group/edit?id=${parent}`)).data.row).toMatchObject({ pid: 0, rules: [held] });
  });

  it("refuses widening a group beyond the editor's rules on edit, and leaves the group as it was", async () => {
    const manager = await adminWith(["auth/group/index", "auth/group/add", "auth/group/edit", "user/user/index"]);
    const ids = Object.fromEntries((await q<{ id: number; name: string }>("select id, name from admin_rule where name = any($1::text[])", [["user/user/index", "user/user/del"]])).map((r) => [r.name, r.id]));
    const id = (await call(manager, "POST", "/admin/auth/group/add", { name: "members viewers", rules: [ids["user/user/index"]] })).data.id as number;
    expect(await call(manager, "POST", "/admin/auth/group/edit", { id, name: "members deleters", rules: [ids["user/user/index"], ids["user/user/del"]] })).toMatchObject({ code: 0, msg: "You can only grant rules you hold yourself" });
    expect((await q("select name, rules from admin_group where id = $1", [id]))[0]).toEqual({ name: "members viewers", rules: String(ids["user/user/index"]) });
  });

  it("drops a deleted menu rule from every group that granted it, so the group can still be saved", async () => {
    const [dashboard] = await q<{ id: number }>("select id from admin_rule where name = 'dashboard'");
    const added = await call(root, "POST", "/admin/auth/rule/add", { pid: 0, type: "menu", title: "报表", title_en: "Reports", name: "reports/x", path: "reports/x", menu_type: "tab", component: "reports/x" });
    expect(added.code).toBe(1);
    const ruleId = added.data.id as number;
    const group = await call(root, "POST", "/admin/auth/group/add", { name: `reports-${serial++}`, rules: [dashboard!.id, ruleId] });
    expect(group.code).toBe(1);
    const untouched = await call(root, "POST", "/admin/auth/group/add", { name: `dash-${serial++}`, rules: [dashboard!.id] });
    expect((await call(root, "DELETE", `/admin/auth/rule/del?ids[]=${ruleId}`)).code).toBe(1);
    const rows = await q<{ id: number; rules: string }>("select id, rules from admin_group where id = any($1::int[]) order by id", [[group.data.id, untouched.data.id]]);
    expect(rows.map((r) => r.rules)).toEqual([String(dashboard!.id), String(dashboard!.id)]);
    expect((await call(root, "GET", `/admin/auth/group/edit?id=${group.data.id}`)).data.row).toMatchObject({ rules: [dashboard!.id] });
    expect((await call(root, "POST", "/admin/auth/group/edit", { id: group.data.id, name: "reports gone", rules: [dashboard!.id] })).code).toBe(1);
  });
});

describe("members", () => {
  it("hashes the password, refuses a taken username or a missing group clearly, and never returns the hash", async () => {
    const existing = await createMember(t.database.db);
    const taken = await call(root, "POST", "/admin/user/user/add", { username: existing.username, password: "secret-123" });
    expect(taken).toMatchObject({ code: 0, msg: "This value is already used by another row" });
    expect(await call(root, "POST", "/admin/user/user/add", { username: "crud_m1", password: "secret-123", group_id: 2_000_000_000 })).toMatchObject({ code: 0 });
    const added = await call(root, "POST", "/admin/user/user/add", { username: "crud_m1", password: "secret-123", email: "m1@example.com" });
    expect(added.code).toBe(1);
    const [row] = await q<{ password_hash: string }>("select password_hash from member where username = 'crud_m1'");
    expect(await verifyPassword("secret-123", row!.password_hash)).toBe(true);
    const listed = await call(root, "GET", "/admin/user/user/index?quickSearch=crud_m1");
    expect(listed.data.total).toBe(1);
    expect(JSON.stringify(listed.data)).not.toMatch(/password/);
  });

  it("names each refused field with its message in both languages, and a taken unique value by its field", async () => {
    const before = (await q<{ n: number }>("select count(*)::int as n from member"))[0]!.n;
    const bad = await call({ headers: { ...root.headers, "think-lang": "en" } }, "POST", "/admin/user/user/add", { username: "x", password: "1", email: "not-an-email", gender: 7 });
    expect(bad.code).toBe(0);
    expect(bad.data.fields).toEqual({
      username: "A username is 3 to 15 letters, digits or underscores, starting with a letter",
      password: `A password is 6 to 32 characters, without & < > " or '`,
      email: "Please enter the correct email address",
      gender: "Please choose a gender",
    });
    const zh = await call({ headers: { ...root.headers, "think-lang": "zh-cn" } }, "POST", "/admin/user/user/add", { username: "x", password: "secret-123" });
    expect(Object.keys(zh.data.fields as object)).toEqual(["username"]);
    expect((zh.data.fields as Record<string, string>).username).not.toBe("A username is 3 to 15 letters, digits or underscores, starting with a letter");
    const email = `taken${serial++}@example.com`;
    await createMember(t.database.db, { email });
    const taken = await call({ headers: { ...root.headers, "think-lang": "en" } }, "POST", "/admin/user/user/add", { username: `crud_f${serial++}`, password: "secret-123", email });
    expect(taken).toMatchObject({ code: 0, data: { fields: { email: "This value is already used by another row" } } });
    expect((await q<{ n: number }>("select count(*)::int as n from member"))[0]!.n).toBe(before + 1);
  });
});

describe("the admin log", () => {
  it("writes one row per write, with who, what, where and no password or token anywhere", async () => {
    const before = (await q<{ n: number }>("select count(*)::int as n from admin_log"))[0]!.n;
    const res = await call(root, "POST", "/admin/user/user/add", { username: "crud_log1", password: "very-secret-9", nickname: "L" });
    expect(res.code).toBe(1);
    // A refused write writes nothing.
    expect((await call(root, "POST", "/admin/user/user/add", { username: "crud_log1", password: "very-secret-9" })).code).toBe(0);
    const rows = await q<{ admin_id: number; username: string; title: string; url: string; method: string; data: unknown; ip: string; useragent: string; create_time: number }>(
      "select * from admin_log order by id desc limit 2",
    );
    expect((await q<{ n: number }>("select count(*)::int as n from admin_log"))[0]!.n).toBe(before + 1);
    const log = rows[0]!;
    expect(log).toMatchObject({ admin_id: root.id, username: root.username, title: "Members / add", url: "/admin/user/user/add", method: "POST", ip: "127.0.0.1", useragent: "crud-test" });
    expect(log.data).toMatchObject({ body: { username: "crud_log1", nickname: "L" } });
    expect(JSON.stringify(log)).not.toContain("very-secret-9");
    expect(JSON.stringify(log.data)).not.toMatch(/password/i);
    expect(Math.abs(log.create_time - Date.now() / 1000)).toBeLessThan(60);
    // Read through its own resource, detail included; no write routes.
    const detail = await call(root, "GET", `/admin/auth/adminLog/edit?id=${(await q<{ id: number }>("select max(id) as id from admin_log"))[0]!.id}`);
    expect(detail.data.row).toMatchObject({ url: "/admin/user/user/add" });
    expect(t.app.adminRoutes.filter((r) => r.url.startsWith("/admin/auth/adminLog/")).map((r) => `${r.method} ${r.url} ${String(r.adminRule)}`).sort()).toEqual([
      "GET /admin/auth/adminLog/edit auth/adminLog/index",
      "GET /admin/auth/adminLog/exportList auth/adminLog/index",
      "GET /admin/auth/adminLog/index auth/adminLog/index",
    ]);
    // The log of notices sent to members (0054) is read-only the same way.
    expect(t.app.adminRoutes.filter((r) => r.url.startsWith("/admin/user/notice/")).map((r) => `${r.method} ${r.url} ${String(r.adminRule)}`).sort()).toEqual([
      "GET /admin/user/notice/edit user/notice/index",
      "GET /admin/user/notice/exportList user/notice/index",
      "GET /admin/user/notice/index user/notice/index",
    ]);
  });

  it("shows each row's title in the reader's language, though it is stored in English", async () => {
    expect((await call(root, "POST", "/admin/user/user/add", { username: "crud_log2", password: "very-secret-9", nickname: "L" })).code).toBe(1);
    const id = (await q<{ id: number }>("select max(id) as id from admin_log"))[0]!.id;
    expect((await q<{ title: string }>("select title from admin_log where id = $1", [id]))[0]!.title).toBe("Members / add");
    const en = await call(root, "GET", `/admin/auth/adminLog/index?search[0][field]=id&search[0][val]=${id}&search[0][operator]=eq`);
    expect((en.data.list as { title: string }[])[0]!.title).toBe("Members / Add");
    const zh = await send<{ list: { title: string }[] }>(root, "GET", `/admin/auth/adminLog/index?search[0][field]=id&search[0][val]=${id}&search[0][operator]=eq`, undefined, { headers: { "think-lang": "zh-cn" } });
    expect(zh.data.list[0]!.title).toBe("会员 / 添加");
    const detail = await send<{ row: { title: string } }>(root, "GET", `/admin/auth/adminLog/edit?id=${id}`, undefined, { headers: { "think-lang": "zh-cn" } });
    expect(detail.data.row.title).toBe("会员 / 添加");
  });

  it("logs back-office logins and refused ones, never the password", async () => {
    const name = `crud_login${serial++}`;
    const [admin] = await q<{ id: number }>("insert into admin (username, password_hash) values ($1, $2) returning id", [name, await hashPassword("login-pass-7")]);
    const login = (username: string, password: string) =>
      t.app.inject({ method: "POST", url: "/admin/index/login", headers: { "think-lang": "en" }, remoteAddress: "10.77.0.1", payload: { username, password } });
    expect((await login(name, "wrong-pass-7")).json().msg).toBe("Incorrect username or password");
    expect((await login(name, "login-pass-7")).json().code).toBe(1);
    expect((await login("crud_nobody", "wrong-pass-7")).json().code).toBe(0);
    const rows = await q<{ admin_id: number; username: string; title: string; ip: string; data: unknown }>(
      "select admin_id, username, title, ip, data from admin_log where url = '/admin/index/login' and ip = '10.77.0.1' order by id",
    );
    expect(rows.map((r) => [r.admin_id, r.username, r.title])).toEqual([
      [admin!.id, name, "Account / loginFailed"],
      [admin!.id, name, "Account / login"],
      [0, "crud_nobody", "Account / loginFailed"],
    ]);
    expect(JSON.stringify(rows)).not.toContain("pass-7");
    const shown = await call(root, "GET", "/admin/auth/adminLog/index?search[0][field]=url&search[0][val]=/admin/index/login&search[0][operator]=eq&limit=50");
    expect((shown.data.list as { title: string }[]).map((r) => r.title)).toEqual(expect.arrayContaining(["Account / Log in", "Account / Failed login"]));
  });
});
