import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers, type Method } from "../helpers/call.ts";
import { createAccountLogs, createAdmin, createBank, createMember, createQuestion, type TestAdmin } from "../helpers/factories.ts";

/**
 * Data recycle and sensitive data on the CRUD engine: a delete of a resource with a recycle
 * rule keeps the row and what the delete cascaded to; restore puts all of it back (a clash is
 * refused and changes nothing); an edit of a watched field logs before/after; rollback puts the
 * old value back unless the row changed since. No secret leaves the server in a record.
 */

let t: TestApp;
let root: TestAdmin;
let serial = 0;
const q = <T>(text: string, params: unknown[] = []) => t.database.db.query<T & Record<string, unknown>>(text, params).then((r) => r.rows);
const { send } = callers(() => t.app, { headers: { "user-agent": "security-test" } });
/** The super admin's call; the answers' data read field by field. */
const call = (method: Method, url: string, payload?: object) => send<Record<string, unknown>>(root, method, url, payload);
const recycled = async (table: string, rowId: number) => (await q<{ id: number }>("select id from security_data_recycle_log where data_table = $1 and row_id = $2", [table, rowId])).map((r) => r.id);
const count = async (text: string, params: unknown[]) => (await q<{ n: number }>(text, params))[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

describe("the recycle bin", () => {
  it("keeps a deleted member with the rows its delete cascaded to, and restores all of it", async () => {
    const member = await createMember(t.database.db, { username: `sec_r${serial++}`, password: "secret-123" });
    await createAccountLogs(t.database.db, member.id, { money: [[0, 500, { key: "recharge", params: {} }]], score: [[0, 7, { key: "checkin", params: {} }]] });
    const before = await q("select * from member where id = $1", [member.id]);
    expect((await call("DELETE", `/admin/user/user/del?ids[]=${member.id}`)).code).toBe(1);
    expect(await count("select count(*)::int as n from member where id = $1", [member.id])).toBe(0);
    expect(await count("select count(*)::int as n from user_money_log where user_id = $1", [member.id])).toBe(0);
    const [logId] = await recycled("member", member.id);
    expect(logId).toBeDefined();

    // The record's detail never shows the password hash (it is kept for the restore).
    const detail = await call("GET", `/admin/security/dataRecycleLog/edit?id=${logId}`);
    expect(detail.code).toBe(1);
    expect(detail.data.row).toMatchObject({ data_table: "member", row_id: member.id, title: member.username });
    expect(JSON.stringify(detail.data)).not.toMatch(/password|\$argon|\$2[aby]\$/);
    const listed = await call("GET", `/admin/security/dataRecycleLog/index?quickSearch=${member.username}`);
    expect(listed.data).toMatchObject({ total: 1, list: [{ id: logId, admin_username: root.username, rule_name: "会员" }] });

    const restored = await call("POST", "/admin/security/dataRecycleLog/restore", { ids: [logId] });
    expect(restored).toMatchObject({ code: 1, data: { count: 1 } });
    expect(await q("select * from member where id = $1", [member.id])).toEqual(before);
    expect(await count("select count(*)::int as n from user_money_log where user_id = $1", [member.id])).toBe(1);
    expect(await count("select count(*)::int as n from user_score_log where user_id = $1", [member.id])).toBe(1);
    expect(await recycled("member", member.id)).toEqual([]);
    // The restore is in the admin log.
    expect(await count("select count(*)::int as n from admin_log where admin_id = $1 and url = '/admin/security/dataRecycleLog/restore'", [root.id])).toBe(1);
  });

  it("refuses a restore whose username is taken now, changing nothing, and purges a record for good", async () => {
    const name = `sec_c${serial++}`;
    const member = await createMember(t.database.db, { username: name });
    const other = await createMember(t.database.db, { username: `sec_o${serial++}` });
    expect((await call("DELETE", `/admin/user/user/del?ids[]=${member.id}&ids[]=${other.id}`)).data.count).toBe(2);
    const [first] = await recycled("member", member.id);
    const [second] = await recycled("member", other.id);
    await createMember(t.database.db, { username: name });
    const refused = await call("POST", "/admin/security/dataRecycleLog/restore", { ids: [second, first] });
    expect(refused).toMatchObject({ code: 0, msg: `Record ${first} cannot be restored: a row with the same key or unique value exists now` });
    // All or nothing: the other member was not restored either.
    expect(await count("select count(*)::int as n from member where id = any($1::int[])", [[member.id, other.id]])).toBe(0);
    expect((await recycled("member", member.id)).length + (await recycled("member", other.id)).length).toBe(2);

    for (const body of [{ ids: [] }, { ids: ["x"] }, { ids: [2_147_483_648] }, {}]) expect((await call("POST", "/admin/security/dataRecycleLog/restore", body)).code, JSON.stringify(body)).toBe(0);
    expect((await call("POST", "/admin/security/dataRecycleLog/restore", { ids: [2_147_483_000] })).msg).toBe("The record does not exist");

    expect((await call("DELETE", `/admin/security/dataRecycleLog/del?ids[]=${first}`)).code).toBe(1);
    expect(await recycled("member", member.id)).toEqual([]);
    expect((await call("POST", "/admin/security/dataRecycleLog/restore", { ids: [second] })).code).toBe(1);
    expect(await count("select count(*)::int as n from member where id = $1", [other.id])).toBe(1);
  });

  it("keeps nothing for a resource whose rule is disabled, and refuses a rule on data that cannot be deleted", async () => {
    const rule = (await q<{ id: number }>("select id from security_data_recycle where controller = 'auth/admin'"))[0]!;
    expect((await call("POST", "/admin/security/dataRecycle/edit", { id: rule.id, name: "Admins", controller: "auth/admin", status: "disable" })).code).toBe(1);
    const admin = await createAdmin(t.database.db, { isSuper: false });
    expect((await call("DELETE", `/admin/auth/admin/del?ids[]=${admin.id}`)).code).toBe(1);
    expect(await recycled("admin", admin.id)).toEqual([]);
    await call("POST", "/admin/security/dataRecycle/edit", { id: rule.id, name: "Admins", controller: "auth/admin", status: "enable" });

    const refused = await call("POST", "/admin/security/dataRecycle/add", { name: "Logs", controller: "auth/adminLog" });
    expect(refused).toMatchObject({ code: 0, data: { fields: { controller: "Please choose data whose rows can be deleted" } } });
    expect((await call("POST", "/admin/security/dataRecycle/add", { name: "Own", controller: "security/dataRecycleLog" })).code).toBe(0);
    const choices = await call("GET", "/admin/security/dataRecycle/resources");
    const list = choices.data as unknown as { controller: string; fields: string[]; deletable: boolean }[];
    expect(list.find((r) => r.controller === "user/user")).toMatchObject({ deletable: true, fields: expect.arrayContaining(["username", "mobile"]) });
    expect(list.find((r) => r.controller === "user/user")!.fields).not.toContain("password_hash");
    expect(list.some((r) => r.controller.startsWith("security/"))).toBe(false);
  });
});

describe("what the recycle bin tells the screens", () => {
  it("names a deleted question by its text (questions have no name), kept before or after this", async () => {
    const added = await call("POST", "/admin/security/dataRecycle/add", { name: "Questions", controller: "exam/question" });
    expect(added.code).toBe(1);
    const bank = await createBank(t.database.db);
    const question = await createQuestion(t.database.db, bank, { stem: "<p>Which  <b>planet</b> is&nbsp;largest?</p>" });
    expect((await call("DELETE", `/admin/exam/question/del?ids[]=${question}`)).code).toBe(1);
    const [logId] = await recycled("exam_question", question);
    const listed = await call("GET", `/admin/security/dataRecycleLog/index?search[0][field]=id&search[0][operator]=eq&search[0][val]=${logId}`);
    expect(listed.data).toMatchObject({ total: 1, list: [{ id: logId, title: "Which planet is largest?", controller: "exam/question" }] });

    // A record kept before questions were named: named from its kept row in the list.
    await q("update security_data_recycle_log set title = '' where id = $1", [logId]);
    const again = await call("GET", `/admin/security/dataRecycleLog/index?search[0][field]=id&search[0][operator]=eq&search[0][val]=${logId}`);
    expect(again.data).toMatchObject({ list: [{ id: logId, title: "Which planet is largest?" }] });

    // The detail names the resource the rule watches (its form labels the kept row's fields).
    const detail = await call("GET", `/admin/security/dataRecycleLog/edit?id=${logId}`);
    expect(detail.data.row).toMatchObject({ controller: "exam/question", data: { row: { id: question, stem: "<p>Which  <b>planet</b> is&nbsp;largest?</p>" } } });
  });

  it("tells a list whether its deletes go to the recycle bin, following the rule's status", async () => {
    const recycle = async (path: string) => ((await call("GET", `/admin/${path}/index`)).data as { recycle?: boolean }).recycle;
    expect(await recycle("user/user")).toBe(true);
    expect(await recycle("exam/paper")).toBe(false);
    // Lists without deletes and selects' choices are not told.
    expect(await recycle("auth/adminLog")).toBeUndefined();
    expect(((await call("GET", "/admin/user/user/index?select=1")).data as { recycle?: boolean }).recycle).toBeUndefined();
    const rule = (await q<{ id: number }>("select id from security_data_recycle where controller = 'user/user'"))[0]!;
    await call("POST", "/admin/security/dataRecycle/edit", { id: rule.id, name: "会员", controller: "user/user", status: "disable" });
    expect(await recycle("user/user")).toBe(false);
    await call("POST", "/admin/security/dataRecycle/edit", { id: rule.id, name: "会员", controller: "user/user", status: "enable" });
    expect(await recycle("user/user")).toBe(true);
  });
});

describe("the sensitive data log", () => {
  it("logs each watched field an edit changes, and rolls it back", async () => {
    const member = await createMember(t.database.db, { username: `sec_s${serial++}` });
    const body = { id: member.id, username: `${member.username}x`, mobile: "13800001111", nickname: "not watched", password: "" };
    expect((await call("POST", "/admin/user/user/edit", body)).code).toBe(1);
    const logs = await q<{ id: number; data_field: string; before: unknown; after: unknown }>(
      "select id, data_field, before, after from security_sensitive_data_log where data_table = 'member' and id_value = $1 order by data_field",
      [member.id],
    );
    // The list names the resource the rule watches: the screen labels the field as its form does.
    const listed = await call("GET", `/admin/security/sensitiveDataLog/index?search[0][field]=id_value&search[0][operator]=eq&search[0][val]=${member.id}`);
    expect(listed.data).toMatchObject({ total: 2, list: [{ controller: "user/user" }, { controller: "user/user" }] });
    expect(logs.map(({ data_field, before, after }) => ({ data_field, before, after }))).toEqual([
      { data_field: "mobile", before: null, after: "13800001111" },
      { data_field: "username", before: member.username, after: `${member.username}x` },
    ]);
    // An edit that changes no watched field logs nothing.
    expect((await call("POST", "/admin/user/user/edit", { ...body, nickname: "again" })).code).toBe(1);
    expect(await count("select count(*)::int as n from security_sensitive_data_log where id_value = $1 and data_table = 'member'", [member.id])).toBe(2);

    const rolled = await call("POST", "/admin/security/sensitiveDataLog/rollback", { ids: logs.map((l) => l.id) });
    expect(rolled).toMatchObject({ code: 1, data: { count: 2 } });
    expect(await q("select username, mobile, nickname from member where id = $1", [member.id])).toEqual([{ username: member.username, mobile: null, nickname: "again" }]);
    expect((await call("POST", "/admin/security/sensitiveDataLog/rollback", { ids: [logs[0]!.id] })).msg).toBe(`Record ${logs[0]!.id} has already been rolled back`);
  });

  it("refuses a rollback when the value changed since the edit, changing nothing", async () => {
    const member = await createMember(t.database.db, { username: `sec_t${serial++}` });
    await call("POST", "/admin/user/user/edit", { id: member.id, username: `${member.username}a`, password: "" });
    const [first] = await q<{ id: number }>("select id from security_sensitive_data_log where data_table = 'member' and id_value = $1", [member.id]);
    await call("POST", "/admin/user/user/edit", { id: member.id, username: `${member.username}b`, password: "" });
    const refused = await call("POST", "/admin/security/sensitiveDataLog/rollback", { ids: [first!.id] });
    expect(refused).toMatchObject({ code: 0, msg: `Record ${first!.id} cannot be rolled back: the value has changed since this edit` });
    expect((await q<{ username: string }>("select username from member where id = $1", [member.id]))[0]!.username).toBe(`${member.username}b`);
    // Both records at once, newest first: back to the first name.
    const all = (await q<{ id: number }>("select id from security_sensitive_data_log where data_table = 'member' and id_value = $1", [member.id])).map((r) => r.id);
    expect((await call("POST", "/admin/security/sensitiveDataLog/rollback", { ids: all })).code).toBe(1);
    expect((await q<{ username: string }>("select username from member where id = $1", [member.id]))[0]!.username).toBe(member.username);
  });

  it("refuses a rule watching a secret or an unknown field", async () => {
    for (const data_fields of [["password_hash"], ["nope"], []]) {
      const res = await call("POST", "/admin/security/sensitiveData/add", { name: "x", controller: "auth/group", data_fields });
      expect(res.code, JSON.stringify(data_fields)).toBe(0);
      expect(res.data?.fields, JSON.stringify(data_fields)).toHaveProperty("data_fields");
    }
  });
});
