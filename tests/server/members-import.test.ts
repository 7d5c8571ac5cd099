import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "../../src/server/auth/password.ts";
import { EXPORT_LIMITS } from "../../src/server/crud/export.ts";
import { memberSheetHeaders } from "../../src/server/crud/resources/memberSheet.ts";
import { INVITATION_TTL_SECONDS } from "../../src/server/modules/user/invitation.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { call, download, type Caller } from "../helpers/call.ts";
import { createAdmin, createClassroom, createCompany, createDuty, createMember, type TestAdmin } from "../helpers/factories.ts";

/**
 * Members as spreadsheets and invitations: the template, a dry run listing what would be added,
 * updated or left as it is and every bad row by its line, the all-or-nothing import, export ->
 * import changing nothing, a company admin kept inside their company, bad files refused, and
 * the invitation link (emailed through the outbox): single use, expiring, sent again from the
 * member list by whoever holds the rule; to a member with a mobile and no email, by text message
 * through the SMS provider (a local HTTP test double), and refused, saying why, when it could
 * reach neither.
 */

let t: TestApp;
let root: TestAdmin;
const q = <T>(text: string, params: unknown[] = []) => t.database.db.query<T & Record<string, unknown>>(text, params).then((r) => r.rows);

const HEADER = memberSheetHeaders("en");
type Row = Partial<Record<"username" | "nickname" | "email" | "mobile" | "company" | "duty" | "classrooms" | "group" | "password" | "invite", string>>;
const FIELDS = ["username", "nickname", "email", "mobile", "company", "duty", "classrooms", "group", "password", "invite"] as const;
const cells = (r: Row) => FIELDS.map((f) => r[f] ?? "");

async function xlsx(rows: (string | { formula: string })[][], header: string[] = HEADER): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("m");
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const sheet = (rows: Row[]) => xlsx(rows.map(cells));
const csv = (rows: Row[]) => Buffer.from(`\ufeff${[HEADER, ...rows.map(cells)].map((r) => r.join(",")).join("\n")}\n`);

interface Report {
  add: number;
  update: number;
  unchanged: number;
  errorCount: number;
  errors: { line: number; message: string }[];
  preview: { line: number; username: string; action: string; password: string }[];
  imported: number;
  invited?: number;
}
async function importFile(who: Caller, name: string, data: Buffer, confirm = false) {
  const res = await t.app.inject({ method: "POST", url: "/admin/user/user/import", headers: { ...who.headers, "think-lang": "en" }, payload: { name, data: data.toString("base64"), confirm } });
  expect(res.statusCode).toBe(200);
  return res.json<{ code: number; msg: string; data: Report }>();
}
const memberCount = async () => (await q<{ n: number }>("select count(*)::int as n from member"))[0]!.n;
const outbox = (email: string) => q<{ subject: string; body: string }>("select subject, body from outbox_message where target = $1 order by id", [email]);
const tokenOf = (body: string) => /#token=([A-Za-z0-9_-]+)/.exec(body)?.[1] ?? "";

let company: number;
let duty: number;
let room1: number;
let room2: number;

beforeAll(async () => {
  // The SMS provider of the text-message invitations is a local test double.
  t = await createTestApp({ deps: { smsAllowLocal: true } });
  root = await createAdmin(t.database.db);
  const db = t.database.db;
  company = await createCompany(db, { name: "Acme" });
  duty = await createDuty(db, { name: "Driver" });
  room1 = await createClassroom(db, { name: "Room one", companyId: company });
  room2 = await createClassroom(db, { name: "Room two", companyId: company });
  await db.query("insert into user_group (name) values ('Staff')");
});
afterAll(() => t.close());

describe("member import", () => {
  it("gives the template in the admin's language: the header row and example rows", async () => {
    const res = await call<{ name: string; data: string }>(t.app, root, "GET", "/admin/user/user/template?format=csv", undefined, { headers: { "think-lang": "en" } });
    expect(res.code).toBe(1);
    const text = Buffer.from(res.data.data, "base64").toString("utf8").replace(/^\ufeff/, "");
    expect(text.split("\r\n")[0]).toBe(HEADER.map((h) => (h.includes(",") ? `"${h}"` : h)).join(","));
    // The template's own rows check out (a new member with a password, one with an invitation).
    const dry = await importFile(root, "template.csv", Buffer.from(res.data.data, "base64"));
    expect(dry.data).toMatchObject({ add: 2, update: 0, errorCount: 0 });
  });

  it("lists every bad row with its reason and imports nothing", async () => {
    await createMember(t.database.db, { username: "taken1", email: "taken@example.com" });
    const before = await memberCount();
    const file = await sheet([
      { username: "good1", password: "secret1" },
      { username: "baddy", duty: "Pilot", password: "secret1" },
      { username: "good1", password: "secret1" },
      { username: "mail1", email: "TAKEN@example.com", password: "secret1" },
      { username: "mail2", email: "not-an-email", password: "secret1" },
      { username: "tel1", mobile: "12345", password: "secret1" },
      { username: "9bad", password: "secret1" },
      { username: "pw1", password: "a<b" },
      { username: "nopass" },
      { username: "both1", email: "both@example.com", password: "secret1", invite: "yes" },
      { username: "noemail", invite: "yes" },
      { username: "nocomp", company: "Nowhere", password: "secret1" },
      { username: "noroom", classrooms: "Room one; Room nine", password: "secret1" },
      { username: "nogroup", group: "Ghosts", password: "secret1" },
    ]);
    const dry = await importFile(root, "bad.xlsx", file);
    expect(dry.code).toBe(1);
    const messages = dry.data.errors.map((e) => e.message);
    expect(messages).toEqual([
      "Row 3: duty Pilot does not exist",
      "Row 4: the username good1 is also in row 2",
      "Row 5: the email TAKEN@example.com is used by another member",
      "Row 6: Please enter the correct email address",
      "Row 7: Please enter the correct mobile number",
      "Row 8: A username is 3 to 15 letters, digits or underscores, starting with a letter",
      `Row 9: A password is 6 to 32 characters, without & < > " or '`,
      "Row 10: a new member needs a first password or an invitation",
      "Row 11: give a first password or send an invitation, not both",
      "Row 12: The invitation cannot be delivered: there is neither an email nor a mobile",
      "Row 13: company Nowhere does not exist",
      "Row 14: classroom Room nine does not exist",
      "Row 15: member group Ghosts does not exist",
    ]);
    expect(dry.data.errorCount).toBe(13);
    expect(dry.data.add).toBe(1);
    const real = await importFile(root, "bad.xlsx", file, true);
    expect(real.code).toBe(0);
    expect(real.msg).toBe("Nothing was imported: correct the rows listed and try again");
    expect(real.data.errors).toHaveLength(13);
    expect(await memberCount()).toBe(before);
  });

  it("adds and updates in one go (a password only when given), names looked up, the admin log written without the file", async () => {
    const old = await createMember(t.database.db, { username: "upd1", password: "keepme1", email: "upd1@example.com" });
    const file = await sheet([
      { username: "new1", nickname: "New One", email: "new1@example.com", mobile: "13800001111", company: "Acme", duty: "Driver", classrooms: "Room one;Room two", group: "Staff", password: "first-pass1" },
      { username: "upd1", nickname: "Updated", email: "upd1@example.com", company: "Acme", classrooms: "Room two" },
    ]);
    const dry = await importFile(root, "ok.xlsx", file);
    expect(dry.data).toMatchObject({ add: 1, update: 1, unchanged: 0, errorCount: 0, imported: 0 });
    expect(dry.data.preview.map((p) => [p.username, p.action, p.password])).toEqual([
      ["new1", "add", "set"],
      ["upd1", "update", "kept"],
    ]);
    expect(await q("select 1 from member where username = 'new1'")).toHaveLength(0);
    const done = await importFile(root, "ok.xlsx", file, true);
    expect(done.code, done.msg).toBe(1);
    expect(done.data.imported).toBe(2);
    const [added] = await q<{ id: number; nickname: string; mobile: string; company_id: number; duty_id: number; group_name: string; password_hash: string }>(
      "select m.id, m.nickname, m.mobile, m.company_id, m.duty_id, g.name as group_name, m.password_hash from member m left join user_group g on g.id = m.group_id where username = 'new1'",
    );
    expect(added).toMatchObject({ nickname: "New One", mobile: "13800001111", company_id: company, duty_id: duty, group_name: "Staff" });
    expect(await verifyPassword("first-pass1", added!.password_hash)).toBe(true);
    const rooms = async (id: number) => (await q<{ classroom_id: number }>("select classroom_id from classroom_member where user_id = $1 order by classroom_id", [id])).map((r) => r.classroom_id);
    expect(await rooms(added!.id)).toEqual([room1, room2]);
    const [updated] = await q<{ nickname: string; company_id: number; password_hash: string }>("select nickname, company_id, password_hash from member where id = $1", [old.id]);
    expect(updated).toMatchObject({ nickname: "Updated", company_id: company });
    expect(await verifyPassword("keepme1", updated!.password_hash)).toBe(true);
    expect(await rooms(old.id)).toEqual([room2]);
    const logs = await q<{ title: string; data: string }>("select title, data from admin_log where url = '/admin/user/user/import' order by id desc limit 1");
    expect(logs[0]!.title).toBe("Members / import");
    expect(logs[0]!.data).not.toContain(file.toString("base64").slice(0, 40));
    expect(logs[0]!.data).not.toContain("first-pass1");
  });

  it("exports members in the import's layout, streamed batch after batch: importing the export changes nothing (xlsx and csv)", async () => {
    const [member] = await q<{ id: number }>(
      "insert into member (username, nickname, email, mobile, company_id, duty_id, group_id, password_hash) select 'exportline1', $3, 'el1@example.com', '13800002222', $1, $2, id, 'x' from user_group where name = 'Staff' returning id",
      [company, duty, "'quoted"],
    );
    await q("insert into classroom_member (classroom_id, user_id) values ($1, $3), ($2, $3)", [room1, room2, member!.id]);
    await q("insert into member (username, nickname, password_hash) select 'exportbatch' || i, 'Batch ' || i, 'x' from generate_series(1, 4) as i");
    // Two members a query: the file is written from several batches.
    EXPORT_LIMITS.batch = 2;
    try {
      for (const format of ["xlsx", "csv"] as const) {
        const res = await download(t.app, root, `/admin/user/user/export?format=${format}`, { headers: { "think-lang": "en" } });
        expect(res.name).toMatch(new RegExp(`^members-\\d{4}-\\d{2}-\\d{2}\\.${format}$`));
        expect(res.headers["cache-control"]).toBe("no-store");
        const total = await memberCount();
        expect(total).toBeGreaterThan(EXPORT_LIMITS.batch);
        if (format === "csv") {
          const lines = res.data.toString("utf8").split("\r\n");
          expect(lines[0]).toBe(`\ufeff${HEADER.map((h) => (h.includes(",") ? `"${h}"` : h)).join(",")}`);
          // Every member once, by id; the passwords' and invitations' columns empty; a leading ' guarded (the import takes it off).
          const usernames = (await q<{ username: string }>("select username from member order by id")).map((m) => m.username);
          expect(lines.slice(1, -1).map((l) => l.split(",")[0])).toEqual(usernames);
          expect(lines).toContain("exportline1,''quoted,el1@example.com,13800002222,Acme,Driver,Room one;Room two,Staff,,");
        }
        const dry = await importFile(root, res.name, res.data);
        expect(dry.data, JSON.stringify(dry.data.errors)).toMatchObject({ add: 0, update: 0, unchanged: total, errorCount: 0 });
      }
    } finally {
      EXPORT_LIMITS.batch = 1000;
    }
    // A refusal comes before the file, in the envelope.
    expect(await call(t.app, root, "GET", "/admin/user/user/export?format=pdf", undefined, { headers: { "think-lang": "en" } })).toMatchObject({ code: 0, msg: "Choose .xlsx or .csv" });
  });

  it("reads back Chinese names whose characters fall across the .xlsx's inflated chunks (export -> import of 1,000 members)", async () => {
    // ~140 kB of text, nearly all 3-byte characters: the reader gets them in 16 kB chunks,
    // and a character cut by a chunk's end used to come back as two U+FFFD (a nickname "changed").
    await q("insert into member (username, nickname, password_hash) select 'cn_split_' || i, repeat('张三李四王五', 7) || i, 'x' from generate_series(1, 1000) as i");
    try {
      const res = await download(t.app, root, "/admin/user/user/export?format=xlsx", { headers: { "think-lang": "en" } });
      const dry = await importFile(root, res.name, res.data);
      expect(dry.data, JSON.stringify(dry.data.errors)).toMatchObject({ add: 0, update: 0, unchanged: await memberCount(), errorCount: 0 });
    } finally {
      await q("delete from member where username like 'cn\\_split\\_%'");
    }
  });

  it("refuses bad files with a clear message, changing nothing", async () => {
    const before = await memberCount();
    const cases: [string, Buffer, string][] = [
      ["a.xlsx", Buffer.from("PK\u0003\u0004 not really a zip"), "The file is not a spreadsheet (.xlsx or .csv)"],
      ["a.txt", Buffer.from("username\nabc"), "Choose an .xlsx or .csv file"],
      ["a.xlsx", Buffer.from("hello"), "The file is not a spreadsheet (.xlsx or .csv)"],
      ["a.csv", await xlsx([["", ""], ["", ""]]).then(() => Buffer.from(`${HEADER.join(",")}\n,,,\n,,\n`)), "The file has no members"],
      ["a.xlsx", await xlsx([["bob", "Bob"]], ["bob", "Bob"]), 'The first row must be the template\'s header row: the column "bob" is not one of the template\'s'],
      ["a.xlsx", await xlsx([["Bob"]], ["Nickname"]), "The first row must be the template's header row, with a username column at least"],
    ];
    for (const [name, data, message] of cases) {
      const res = await importFile(root, name, data, true);
      expect(res, name).toMatchObject({ code: 0, msg: message });
    }
    const empty = await t.app.inject({ method: "POST", url: "/admin/user/user/import", headers: { ...root.headers, "think-lang": "en" }, payload: { name: "a.csv", data: "", confirm: true } });
    expect(empty.json()).toMatchObject({ code: 0, msg: "The file is empty" });
    expect(await memberCount()).toBe(before);
  });

  it("reads a UTF-8 CSV with Chinese names and refuses formula cells", async () => {
    await t.database.db.query("insert into duty (name) values ('司机')");
    const ok = await importFile(root, "cn.csv", csv([{ username: "cnuser1", nickname: "张三", duty: "司机", password: "secret1" }]));
    expect(ok.data).toMatchObject({ add: 1, errorCount: 0 });
    const formula = await importFile(root, "f.xlsx", await xlsx([["fx1", { formula: "1+1" }, "", "", "", "", "", "", "secret1"]]));
    expect(formula.data.errors.map((e) => e.message)).toEqual(["Row 2: formulas are not accepted: type the value itself"]);
  });
});

describe("member import by a company admin", () => {
  let boss: TestAdmin;
  let other: number;
  let sub: number;
  beforeAll(async () => {
    const db = t.database.db;
    sub = await createCompany(db, { name: "Acme Sub", pid: company });
    other = await createCompany(db, { name: "Other Co" });
    await createClassroom(db, { name: "Their room", companyId: other });
    await createMember(db, { username: "theirs1", companyId: other });
    await createMember(db, { username: "mine1", companyId: sub });
    boss = await createAdmin(db, { companyId: company });
    const group = (await db.query<{ id: number }>("insert into admin_group (name, rules) values ('all rules', '*') returning id")).rows[0]!.id;
    await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [boss.id, group]);
  });

  it("imports only into their companies and updates only their members", async () => {
    const before = await memberCount();
    const bad = await importFile(
      boss,
      "scope.xlsx",
      await sheet([
        { username: "scoped1", company: "Other Co", password: "secret1" },
        { username: "theirs1", nickname: "Mine now", password: "secret1" },
        { username: "scoped2", classrooms: "Their room", password: "secret1" },
      ]),
      true,
    );
    expect(bad.code).toBe(0);
    expect(bad.data.errors.map((e) => e.message)).toEqual([
      "Row 2: you may import members only into your own company (Other Co is not under it)",
      "Row 3: the username theirs1 is used by a member outside your company",
      "Row 4: classroom Their room does not exist",
    ]);
    expect(await memberCount()).toBe(before);

    const good = await importFile(boss, "scope.xlsx", await sheet([{ username: "scoped3", password: "secret1" }, { username: "mine1", nickname: "Still mine", company: "Acme Sub" }]), true);
    expect(good.code, good.msg).toBe(1);
    expect(good.data).toMatchObject({ add: 1, update: 1 });
    // No company named: theirs.
    expect((await q<{ company_id: number }>("select company_id from member where username = 'scoped3'"))[0]!.company_id).toBe(company);
  });

  it("exports only their companies' members", async () => {
    const res = await download(t.app, boss, "/admin/user/user/export?format=csv");
    const text = res.data.toString("utf8");
    expect(text).toContain("mine1");
    expect(text).not.toContain("theirs1");
    const theirs = (await q<{ id: number }>("select id from member where username = 'theirs1'"))[0]!.id;
    expect(await call(t.app, boss, "GET", `/admin/user/user/export?ids[]=${theirs}`)).toMatchObject({ code: 0 });
    const mine = (await q<{ id: number }>("select id from member where username = 'mine1'"))[0]!.id;
    const only = (await download(t.app, boss, `/admin/user/user/export?format=csv&ids[]=${mine}`)).data.toString("utf8").split("\r\n");
    expect(only.slice(1).map((l) => l.split(",")[0])).toEqual(["mine1", ""]);
  });
});

describe("invitations", () => {
  const open = (token: string) => call<{ username: string }>(t.app, { headers: { "think-lang": "en" } }, "POST", "/api/user/invitation/check", { token });
  const setPassword = (token: string, password: string) => call<{ username: string }>(t.app, { headers: { "think-lang": "en" } }, "POST", "/api/user/invitation", { token, password });
  const hashOf = async (username: string) => (await q<{ password_hash: string }>("select password_hash from member where username = $1", [username]))[0]!.password_hash;

  it("an imported member with an invitation gets a single-use link by email and sets their password with it", async () => {
    const res = await importFile(root, "inv.xlsx", await sheet([{ username: "invited1", nickname: "Ivy", email: "ivy@example.com", invite: "yes" }]), true);
    expect(res.code, res.msg).toBe(1);
    // No mail server is set: handed on, but only kept in the outbox table (the dialog says so).
    expect(res.data).toMatchObject({ add: 1, invited: 1, kept: 1 });
    expect(JSON.stringify(res.data)).not.toMatch(/token/i);
    // No password works before the link is used.
    expect(await verifyPassword("", await hashOf("invited1"))).toBe(false);
    const [mail] = await outbox("ivy@example.com");
    const token = tokenOf(mail!.body);
    expect(token).not.toBe("");
    // The token is in the link's fragment: browsers send it to no server (no log line, no Referer).
    expect(mail!.body).toContain(`/invitation#token=${token}`);
    expect(mail!.body).not.toContain("?token=");
    // Only the token's hash is kept, and neither the admin log nor the answer holds it.
    expect(await q("select 1 from member_invitation where token_hash = $1", [token])).toHaveLength(0);
    expect(await q("select 1 from admin_log where data::text like $1", [`%${token}%`])).toHaveLength(0);

    expect(await open(token)).toMatchObject({ code: 1, data: { username: "invited1" } });
    expect((await setPassword(token, "a<b")).code).toBe(0);
    const set = await setPassword(token, "my-own-pass1");
    expect(set).toMatchObject({ code: 1, data: { username: "invited1" } });
    expect(await verifyPassword("my-own-pass1", await hashOf("invited1"))).toBe(true);
    // Single use.
    const again = await setPassword(token, "another-pass1");
    expect(again.code).toBe(0);
    expect(again.msg).toMatch(/expired or has already been used/);
    expect((await open(token)).code).toBe(0);
    expect(await verifyPassword("my-own-pass1", await hashOf("invited1"))).toBe(true);
    // Checked with POST only: no route takes the token in a query string, and no log line holds it.
    expect((await call(t.app, { headers: { "think-lang": "en" } }, "GET", `/api/user/invitation?token=${token}`)).code).not.toBe(1);
    expect(t.logs.text).not.toContain(token);
  });

  it("a link expires; staff send a new one from the member list (the old one stops working)", async () => {
    const added = await call<{ id: number }>(t.app, root, "POST", "/admin/user/user/add", { username: "invited2", email: "inv2@example.com", invite: true }, { headers: { "think-lang": "en" } });
    expect(added.code, added.msg).toBe(1);
    const first = tokenOf((await outbox("inv2@example.com"))[0]!.body);
    expect((await open(first)).code).toBe(1);
    // Past its time: refused.
    await q("update member_invitation set expire_time = extract(epoch from now())::bigint - 1 where user_id = $1", [added.data.id]);
    expect((await setPassword(first, "late-pass1")).code).toBe(0);
    expect((await open(first)).code).toBe(0);

    const resent = await call(t.app, root, "POST", "/admin/user/user/invite", { id: added.data.id }, { headers: { "think-lang": "en" } });
    expect(resent).toMatchObject({ code: 1, msg: "The invitation was sent", data: { sent: 0, kept: 1 } });
    const mails = await outbox("inv2@example.com");
    expect(mails).toHaveLength(2);
    const second = tokenOf(mails[1]!.body);
    const [fresh] = await q<{ create_time: number; expire_time: number }>("select create_time, expire_time from member_invitation where user_id = $1 and used_time is null", [added.data.id]);
    expect(Number(fresh!.expire_time) - Number(fresh!.create_time)).toBe(INVITATION_TTL_SECONDS);
    expect((await setPassword(second, "fresh-pass1")).code).toBe(1);
    expect(await verifyPassword("fresh-pass1", await hashOf("invited2"))).toBe(true);
  });

  it("an add needs a password or an invitation (which needs an email); resending needs its rule", async () => {
    const none = await call<{ fields?: Record<string, string> }>(t.app, root, "POST", "/admin/user/user/add", { username: "nopw1" }, { headers: { "think-lang": "en" } });
    expect(none.code).toBe(0);
    expect(none.data.fields?.password).toBeTruthy();
    const noMail = await call<{ fields?: Record<string, string> }>(t.app, root, "POST", "/admin/user/user/add", { username: "nopw2", invite: true }, { headers: { "think-lang": "en" } });
    expect(noMail.data.fields?.email).toBe("The invitation cannot be delivered: there is neither an email nor a mobile");
    expect(await q("select 1 from member where username in ('nopw1', 'nopw2')")).toHaveLength(0);

    const member = await createMember(t.database.db, { email: "viewer@example.com" });
    const viewer = await createAdmin(t.database.db, { isSuper: false });
    const rules = await q<{ id: number }>("select id from admin_rule where name in ('user/user', 'user/user/index')");
    const group = (await q<{ id: number }>("insert into admin_group (name, rules) values ('viewers', $1) returning id", [rules.map((r) => r.id).join(",")]))[0]!.id;
    await q("insert into admin_group_access (uid, group_id) values ($1, $2)", [viewer.id, group]);
    expect((await call(t.app, viewer, "POST", "/admin/user/user/invite", { id: member.id })).code).toBe(401);
    expect(await outbox("viewer@example.com")).toHaveLength(0);
  });
});

describe("invitations by text message", () => {
  /** What the SMS test double received: the mobile and text of each message. */
  const texts: { mobile: string; text: string }[] = [];
  /** The status the double answers. */
  let status = 200;
  let double: Server;
  const en = { headers: { "think-lang": "en" } };
  const configure = (values: Record<string, unknown>) => call(t.app, root, "POST", "/admin/routine/config/edit", values);
  const providerOn = async () => expect((await configure({ sms_enabled: true, sms_url: `http://127.0.0.1:${(double.address() as AddressInfo).port}/send`, sms_method: "POST", sms_timeout: 2 })).code).toBe(1);
  const providerOff = async () => expect((await configure({ sms_enabled: false })).code).toBe(1);
  const idOf = async (username: string) => (await q<{ id: number }>("select id from member where username = $1", [username]))[0]!.id;
  const setPassword = (token: string, password: string) => call<{ username: string }>(t.app, en, "POST", "/api/user/invitation", { token, password });

  beforeAll(async () => {
    double = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        texts.push(JSON.parse(body) as { mobile: string; text: string });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => double.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await providerOff();
    double.closeAllConnections();
    await new Promise((resolve) => double.close(resolve));
  });
  beforeEach(async () => {
    texts.length = 0;
    status = 200;
    await providerOff();
  });

  it("without an SMS provider, a row with a mobile and no email cannot be invited, and the dry run says why", async () => {
    const file = await sheet([
      { username: "smsoff1", mobile: "13911110001", invite: "yes" },
      { username: "smsoff2", invite: "yes" },
      { username: "smsoff3", email: "smsoff3@example.com", mobile: "13911110003", invite: "yes" },
    ]);
    const dry = await importFile(root, "sms.xlsx", file);
    expect(dry.data.errors.map((e) => e.message)).toEqual([
      "Row 2: The invitation cannot be delivered: there is no email, and no SMS provider is set to text the mobile",
      "Row 3: The invitation cannot be delivered: there is neither an email nor a mobile",
    ]);
    // A member with an email is invited by email whatever the mobile.
    expect(dry.data.preview).toMatchObject([{ username: "smsoff3", password: "invite" }]);
    expect((await importFile(root, "sms.xlsx", file, true)).code).toBe(0);
    expect(await q("select 1 from member where username like 'smsoff%'")).toHaveLength(0);
    expect(texts).toEqual([]);
  });

  it("with an SMS provider, a member with a mobile and no email is texted a single-use link; one with an email is emailed", async () => {
    await providerOn();
    const file = await sheet([
      { username: "smson1", nickname: "Sam", mobile: "13911120001", invite: "yes" },
      { username: "smson2", email: "smson2@example.com", mobile: "13911120002", invite: "yes" },
    ]);
    const dry = await importFile(root, "sms.xlsx", file);
    expect(dry.data.errorCount).toBe(0);
    expect(dry.data.preview).toMatchObject([
      { username: "smson1", password: "inviteSms" },
      { username: "smson2", password: "invite" },
    ]);
    const res = await importFile(root, "sms.xlsx", file, true);
    expect(res.code, res.msg).toBe(1);
    // The text reached the provider; the email only the outbox table (no mail server is set).
    expect(res.data).toMatchObject({ add: 2, invited: 2, kept: 1 });
    expect(texts).toHaveLength(1);
    expect(texts[0]!.mobile).toBe("13911120001");
    expect(texts[0]!.text).toMatch(/^ExamHub: an account was made for you \(username: smson1\)\. Set your password with this link, once, within 7 days: http:\/\/\S+\/invitation#token=[A-Za-z0-9_-]+$/);
    // Reached the provider: not kept in the outbox (as codes); the email went there as before.
    expect(await outbox("13911120001")).toEqual([]);
    expect(await outbox("smson2@example.com")).toHaveLength(1);
    const token = tokenOf(texts[0]!.text);
    expect(t.logs.text).not.toContain(token);
    expect(await setPassword(token, "texted-pass1")).toMatchObject({ code: 1, data: { username: "smson1" } });
    expect((await setPassword(token, "again-pass1")).code).toBe(0);
  });

  it("a text the provider refuses is kept in the outbox as failed, with its link; the import stands", async () => {
    await providerOn();
    status = 503;
    const res = await importFile(root, "sms.xlsx", await sheet([{ username: "smsfail1", mobile: "13911130001", invite: "yes" }]), true);
    expect(res.code, res.msg).toBe(1);
    expect(res.data).toMatchObject({ add: 1, invited: 0, kept: 0 });
    expect(texts).toHaveLength(1);
    const [kept] = await q<{ body: string; status: string; error: string }>("select body, status, error from outbox_message where target = '13911130001'");
    expect(kept).toMatchObject({ status: "failed", error: "HTTP 503" });
    expect(tokenOf(kept!.body)).toBe(tokenOf(texts[0]!.text));
    expect(await idOf("smsfail1")).toBeGreaterThan(0);
  });

  it("resend and add follow the same rule: by text message with a provider, refused saying why without", async () => {
    const texted = await createMember(t.database.db, { username: "smsre1", mobile: "13911140001" });
    const neither = await createMember(t.database.db, { username: "smsre2" });
    const resend = (id: number) => call(t.app, root, "POST", "/admin/user/user/invite", { id }, en);

    expect(await resend(texted.id)).toMatchObject({ code: 0, msg: "The invitation cannot be delivered: there is no email, and no SMS provider is set to text the mobile" });
    expect(await resend(neither.id)).toMatchObject({ code: 0, msg: "The invitation cannot be delivered: there is neither an email nor a mobile" });
    const refused = await call<{ fields?: Record<string, string> }>(t.app, root, "POST", "/admin/user/user/add", { username: "smsadd1", mobile: "13911140002", invite: true }, en);
    expect(refused.code).toBe(0);
    expect(refused.data.fields?.mobile).toBe("The invitation cannot be delivered: there is no email, and no SMS provider is set to text the mobile");
    expect(await q("select 1 from member_invitation where user_id = $1", [texted.id])).toHaveLength(0);
    expect(texts).toEqual([]);

    await providerOn();
    expect(await resend(texted.id)).toMatchObject({ code: 1, msg: "The invitation was sent", data: { sent: 1, kept: 0 } });
    expect(await resend(neither.id)).toMatchObject({ code: 0, msg: "The invitation cannot be delivered: there is neither an email nor a mobile" });
    const added = await call<{ id: number }>(t.app, root, "POST", "/admin/user/user/add", { username: "smsadd1", mobile: "13911140002", invite: true }, en);
    expect(added.code, added.msg).toBe(1);
    expect(texts.map((m) => m.mobile)).toEqual(["13911140001", "13911140002"]);
    expect(await setPassword(tokenOf(texts[1]!.text), "added-pass1")).toMatchObject({ code: 1, data: { username: "smsadd1" } });

    // A provider that refuses: the resend says to check the SMS settings.
    status = 503;
    expect(await resend(texted.id)).toMatchObject({ code: 0, msg: "The invitation could not be sent: please check the SMS settings" });
  });
});
