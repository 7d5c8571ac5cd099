import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers, type Caller, type Method } from "../helpers/call.ts";
import { createAdmin, createMember, type TestAdmin, type TestMember } from "../helpers/factories.ts";
import { makeZip, type ZipEntrySpec } from "../helpers/zip.ts";

/** The answers' data, read field by field. */
type Data = Record<string, unknown> & { list?: Record<string, unknown>[]; total?: number };

let t: TestApp;
let root: TestAdmin;
let viewer: TestAdmin;
let member: TestMember;
let modulesDir: string;

const BASE = "/admin/moduleStore/moduleStore";

const { send } = callers(() => t.app, { refuse5xx: true });
const call = (who: Caller, method: Method, url: string, payload?: object) => send<Data>(who, method, url, payload);
const query = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => (await t.database.db.query<T>(text, params)).rows;
const tableExists = async (table: string) => (await query<{ ok: boolean }>("select to_regclass($1) is not null as ok", [table]))[0]!.ok;
const modTables = async () => (await query<{ name: string }>("select table_name as name from information_schema.tables where table_name like 'mod\\_%' order by 1")).map((r) => r.name);
const modRules = async () => (await query<{ name: string; status: string }>("select name, status from admin_rule where name = 'mod' or name like 'mod/%' order by name"));
const logCount = async () => (await query<{ n: number }>("select count(*)::int as n from admin_log"))[0]!.n;
const installs = async () => (await query<{ name: string; status: string }>("select name, status from module_install order by name"));
const moduleOf = async (name: string) => ((await call(root, "GET", `${BASE}/index`)).data.list ?? []).find((m) => m.name === name);
const home = async (who: TestMember = member) => (await call(who, "GET", "/api/module/home")).data.blocks as { kind: string; module: string; name: string; items?: { title: string; body: string }[]; checkedIn?: boolean; points?: number }[];
const catalogue = () => readdirSync(modulesDir).sort();

beforeAll(async () => {
  modulesDir = mkdtempSync(path.join(tmpdir(), "modules-"));
  t = await createTestApp({ config: { modulesDir } });
  root = await createAdmin(t.database.db);
  viewer = await createAdmin(t.database.db, { isSuper: false });
  member = await createMember(t.database.db, { score: 10 });
});
afterAll(async () => {
  await t?.close();
  rmSync(modulesDir, { recursive: true, force: true });
});

describe("the market's list", () => {
  it("lists the bundled modules, not installed, with what they need; super admins only", async () => {
    const res = await call(root, "GET", `${BASE}/index`);
    expect(res.code, res.msg).toBe(1);
    const names = res.data.list!.map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(["notice", "checkin"]));
    expect(await moduleOf("notice")).toMatchObject({ source: "bundled", status: "available", version: "1.0.0", requires: { app: "0.1.0", modules: [] } });
    expect((await call(viewer, "GET", `${BASE}/index`)).code).toBe(401);
    expect((await call(viewer, "POST", `${BASE}/install`, { name: "notice" })).code).toBe(401);
    expect(await installs()).toEqual([]);
  });
});

describe("the notice board", () => {
  it("installs in one go: its table, menus, demo rows, an admin log row; the screen answers at once", async () => {
    const before = await logCount();
    const res = await call(root, "POST", `${BASE}/install`, { name: "notice", demo: true });
    expect(res.code, res.msg).toBe(1);
    expect(await tableExists("mod_notice_notice")).toBe(true);
    expect(await modRules()).toEqual(
      expect.arrayContaining([
        { name: "mod/notice", status: "enable" },
        { name: "mod/notice/notice", status: "enable" },
        { name: "mod/notice/notice/add", status: "enable" },
        { name: "mod/notice/notice/sortable", status: "enable" },
      ]),
    );
    expect(await logCount()).toBe(before + 1);
    expect(await moduleOf("notice")).toMatchObject({ status: "enabled", installedVersion: "1.0.0" });
    const list = await call(root, "GET", "/admin/mod/notice/notice/index");
    expect(list.code, list.msg).toBe(1);
    expect(list.data.total).toBe(2);
    const def = await call(root, "GET", "/admin/mod/notice/notice/definition");
    expect(def.data.design).toMatchObject({ name: "notice", sortable: true, fields: expect.arrayContaining([expect.objectContaining({ name: "title", comment: "Title" })]) });
    const zh = await t.app.inject({ method: "GET", url: "/admin/mod/notice/notice/definition", headers: { ...root.headers, "think-lang": "zh-cn" } });
    expect(zh.json().data.design.fields[0]).toMatchObject({ name: "title", comment: "标题" });
    // The status choices are labelled in the reader's language (their values stay the same).
    const status = (design: { fields: { name: string; optionLabels: Record<string, string> }[] }) => design.fields.find((f) => f.name === "status")!.optionLabels;
    expect(status(def.data.design as never)).toEqual({ published: "Published", draft: "Draft" });
    expect(status(zh.json().data.design)).toEqual({ published: "已发布", draft: "草稿" });
    // In the menus of the super admin, under the module's folder.
    const menus = JSON.stringify((await call(root, "GET", "/admin/index/index")).data.menus);
    expect(menus).toContain('"name":"mod/notice/notice"');
    expect(menus).toContain('"component":"mod/screen"');
    // Installed once only.
    expect((await call(root, "POST", `${BASE}/install`, { name: "notice" })).msg).toBe('The module "notice" is already installed');
  });

  it("shows members the published notices only, never the staff columns", async () => {
    const added = await call(root, "POST", "/admin/mod/notice/notice/add", { title: "Exam on Friday", content: "Room 3", status: "published", staff_note: "secret staff note" });
    expect(added.code, added.msg).toBe(1);
    await call(root, "POST", "/admin/mod/notice/notice/add", { title: "Hidden draft", content: "x", status: "draft", staff_note: "y" });
    const blocks = await home();
    const notices = blocks.find((b) => b.module === "notice")!;
    expect(notices.kind).toBe("list");
    const titles = notices.items!.map((i) => i.title);
    expect(titles[0]).toBe("Exam on Friday");
    expect(titles).not.toContain("Hidden draft");
    expect(titles.some((x) => x.startsWith("草稿"))).toBe(false);
    expect(JSON.stringify(blocks)).not.toContain("secret staff note");
    expect(Object.keys(notices.items![0]!).sort()).toEqual(["body", "id", "time", "title"]);
    // Members only.
    const anonymous = await t.app.inject({ method: "GET", url: "/api/module/home" });
    expect(anonymous.json().code).not.toBe(1);
  });

  it("disables: menus hidden, admin screens and the member block refused; enables again", async () => {
    const res = await call(root, "POST", `${BASE}/disable`, { name: "notice" });
    expect(res.code, res.msg).toBe(1);
    expect((await modRules()).filter((r) => r.name.startsWith("mod/notice")).every((r) => r.status === "disable")).toBe(true);
    expect(JSON.stringify((await call(root, "GET", "/admin/index/index")).data.menus)).not.toContain("mod/notice");
    for (const url of ["/admin/mod/notice/notice/index", "/admin/mod/notice/notice/definition"]) {
      expect((await call(root, "GET", url)).msg, url).toBe("This module is not installed or is disabled");
    }
    expect((await call(root, "POST", "/admin/mod/notice/notice/add", { title: "x", status: "published" })).code).toBe(0);
    expect((await home()).some((b) => b.module === "notice")).toBe(false);
    expect((await call(root, "POST", `${BASE}/enable`, { name: "notice" })).code).toBe(1);
    expect((await call(root, "GET", "/admin/mod/notice/notice/index")).data.total).toBe(4);
    expect((await home()).find((b) => b.module === "notice")!.items![0]!.title).toBe("Exam on Friday");
  });

  it("opens a module's screen to an admin granted its rules (not the market itself), and to no one else", async () => {
    const staff = await createAdmin(t.database.db, { isSuper: false });
    const { rows } = await t.database.db.query<{ id: number }>(
      "insert into admin_group (name, rules) values ('notices', (select string_agg(id::text, ',') from admin_rule where name like 'mod/notice%')) returning id",
    );
    await t.database.db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [staff.id, rows[0]!.id]);
    expect((await call(staff, "GET", "/admin/mod/notice/notice/index")).code).toBe(1);
    expect((await call(staff, "POST", "/admin/mod/notice/notice/add", { title: "From staff", status: "draft" })).code).toBe(1);
    expect((await call(staff, "GET", `${BASE}/index`)).code).toBe(401);
    expect((await call(viewer, "GET", "/admin/mod/notice/notice/index")).code).toBe(401);
    await query("delete from mod_notice_notice where title = 'From staff'");
  });

  it("uninstalls keeping its data unless dropping it is confirmed; a reinstall finds the rows again", async () => {
    const res = await call(root, "POST", `${BASE}/uninstall`, { name: "notice" });
    expect(res.code, res.msg).toBe(1);
    expect(await tableExists("mod_notice_notice")).toBe(true);
    expect((await modRules()).filter((r) => r.name.startsWith("mod/notice"))).toEqual([]);
    expect((await call(root, "GET", "/admin/mod/notice/notice/index")).code).toBe(0);
    expect((await home()).some((b) => b.module === "notice")).toBe(false);
    expect(await moduleOf("notice")).toMatchObject({ status: "available" });
    // Back with its rows.
    expect((await call(root, "POST", `${BASE}/install`, { name: "notice" })).code).toBe(1);
    expect((await call(root, "GET", "/admin/mod/notice/notice/index")).data.total).toBe(4);
    // Uninstalled with its data.
    expect((await call(root, "POST", `${BASE}/uninstall`, { name: "notice", dropData: true })).code).toBe(1);
    expect(await tableExists("mod_notice_notice")).toBe(false);
    expect(await installs()).toEqual([]);
  });
});

describe("the daily check-in", () => {
  it("installs with its setting, awards the points once a day (retried and twice at once), in the points log", async () => {
    expect((await call(root, "POST", `${BASE}/install`, { name: "checkin" })).code).toBe(1);
    expect(await tableExists("mod_checkin_log")).toBe(true);
    expect(await moduleOf("checkin")).toMatchObject({ values: { points: 5 } });
    expect((await call(root, "POST", `${BASE}/settings`, { name: "checkin", values: { points: 2000 } })).msg).toBe('The setting "points" must be between 1 and 1000');
    expect((await call(root, "POST", `${BASE}/settings`, { name: "checkin", values: { points: 7 } })).code).toBe(1);
    expect((await home()).find((b) => b.module === "checkin")).toMatchObject({ kind: "dailyPoints", points: 7, checkedIn: false });

    const body = { module: "checkin", block: "checkin" };
    const [a, b] = await Promise.all([call(member, "POST", "/api/module/checkIn", body), call(member, "POST", "/api/module/checkIn", body)]);
    expect([a.data.awarded, b.data.awarded].sort()).toEqual([0, 7]);
    const again = await call(member, "POST", "/api/module/checkIn", body);
    expect(again).toMatchObject({ code: 1, msg: "You have already checked in today", data: { awarded: 0 } });
    expect((await query<{ score: number }>("select score from member where id = $1", [member.id]))[0]!.score).toBe(17);
    const logs = await query<{ score: number; before: number; after: number; memo_key: string }>("select score, before, after, memo_key from user_score_log where user_id = $1", [member.id]);
    expect(logs).toEqual([{ score: 7, before: 10, after: 17, memo_key: "checkin" }]);
    expect((await call(member, "GET", "/api/account/integral")).data.list![0]).toMatchObject({ memo: "Daily check-in" });
    expect((await home()).find((b) => b.module === "checkin")).toMatchObject({ checkedIn: true });
    // The admin screen lists the check-in.
    expect((await call(root, "GET", "/admin/mod/checkin/log/index")).data.total).toBe(1);
  });

  it("refuses check-ins while disabled, and after uninstalling; enable and uninstall work", async () => {
    const other = await createMember(t.database.db);
    const body = { module: "checkin", block: "checkin" };
    expect((await call(root, "POST", `${BASE}/disable`, { name: "checkin" })).code).toBe(1);
    expect(await call(other, "POST", "/api/module/checkIn", body)).toMatchObject({ code: 0, msg: "This module is not installed or is disabled" });
    expect((await call(root, "GET", "/admin/mod/checkin/log/index")).code).toBe(0);
    expect((await call(root, "POST", `${BASE}/enable`, { name: "checkin" })).code).toBe(1);
    expect((await call(other, "POST", "/api/module/checkIn", body)).data.awarded).toBe(7);
    expect((await call(root, "POST", `${BASE}/uninstall`, { name: "checkin" })).code).toBe(1);
    expect(await tableExists("mod_checkin_log")).toBe(true);
    expect((await call(other, "POST", "/api/module/checkIn", body)).code).toBe(0);
    expect((await call(root, "POST", `${BASE}/uninstall`, { name: "checkin" })).msg).toBe('The module "checkin" is not installed');
    await query("drop table mod_checkin_log");
  });
});

// ---- Uploaded modules ----

const table = (name: string, fields: Record<string, unknown>[]) => ({ name, title: name, fields });
const manifestOf = (over: Record<string, unknown> = {}) => ({
  name: "todo",
  title: "待办",
  titleEn: "To-do",
  version: "0.1.0",
  author: "Tests",
  tables: [table("item", [{ name: "label", type: "string", required: true, index: "unique" }]), table("tag", [{ name: "word", type: "string" }])],
  demo: { item: [{ label: "one" }, { label: "two" }] },
  ...over,
});
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const upload = (zip: Buffer, name = "module.zip") => call(root, "POST", `${BASE}/upload`, { name, data: zip.toString("base64") });

describe("uploading a module zip", () => {
  it("refuses each hostile or broken zip with its message, writing nothing (folder and database)", async () => {
    const good: ZipEntrySpec = { name: "manifest.json", data: json(manifestOf()) };
    const cases: [string, Buffer, string][] = [
      ["absolute path", makeZip([good, { name: "/etc/passwd.txt", data: Buffer.from("x") }]), "The zip holds a file with an absolute path"],
      ["dot-dot", makeZip([good, { name: "../../evil.json", data: Buffer.from("{}") }]), 'The zip holds a path with ".."'],
      ["dot-dot inside", makeZip([good, { name: "docs/../../evil.md", data: Buffer.from("x") }]), 'The zip holds a path with ".."'],
      ["backslash", makeZip([good, { name: "..\\evil.md", data: Buffer.from("x") }]), "The zip holds a file name with a backslash"],
      ["symlink", makeZip([good, { name: "link.txt", data: Buffer.from("/etc/passwd"), unixMode: 0o120777 }]), "The zip holds a symbolic link"],
      ["too many entries", makeZip([good, ...Array.from({ length: 40 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from("x") }))]), "The zip holds too many files (at most 32)"],
      [
        "too large",
        makeZip([good, { name: "big.txt", data: Buffer.from(Array.from({ length: 1_100_000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join("")), deflate: true }]),
        "A file in the zip is too large once unpacked (at most 1 MB each, 4 MB in all)",
      ],
      ["bomb", makeZip([good, { name: "bomb.txt", data: Buffer.alloc(900_000, 0x41), deflate: true }]), "A file in the zip is compressed too much to be a module file (a zip bomb?)"],
      [
        "lying header",
        makeZip([good, { name: "lie.txt", data: Buffer.alloc(900_000, 0x41), deflate: true, claimSize: 100 }]),
        "The zip is damaged: a file's size does not match its header",
      ],
      ["not a zip", Buffer.from("just text, not a zip"), "The file is not a zip"],
      ["other file type", makeZip([good, { name: "run.sh", data: Buffer.from("rm -rf /") }]), "A module zip holds only .json, .md and .txt files"],
      ["no manifest", makeZip([{ name: "README.md", data: Buffer.from("hi") }]), "The zip has no manifest.json"],
      ["manifest not JSON", makeZip([{ name: "manifest.json", data: Buffer.from("{nope") }]), "The manifest is not valid JSON"],
      ["manifest invalid", makeZip([{ name: "manifest.json", data: json(manifestOf({ version: "one" })) }]), "The manifest is not valid (version)"],
      ["bad name", makeZip([{ name: "manifest.json", data: json(manifestOf({ name: "Robert'); drop table admin;--" })) }]), "The manifest is not valid (name)"],
      ["hostile table name", makeZip([{ name: "manifest.json", data: json(manifestOf({ tables: [table('x"; drop table admin; --', [{ name: "a", type: "string" }])] })) }]), "The manifest is not valid (tables.0.name)"],
      ["SQL in a default", makeZip([{ name: "manifest.json", data: json(manifestOf({ tables: [table("t", [{ name: "n", type: "int", default: "1); drop table admin; --" }])] })) }]), 'The default value of "n" does not fit its type'],
      ["clash with a bundled module", makeZip([{ name: "manifest.json", data: json(manifestOf({ name: "notice" })) }]), 'A module named "notice" already exists'],
    ];
    const before = { log: await logCount(), tables: await modTables(), rules: await modRules() };
    for (const [label, zip, message] of cases) {
      const res = await upload(zip);
      expect({ label, code: res.code, msg: res.msg }).toEqual({ label, code: 0, msg: message });
      expect(catalogue(), label).toEqual([]);
    }
    expect(await logCount()).toBe(before.log);
    expect(await modTables()).toEqual(before.tables);
    expect(await modRules()).toEqual(before.rules);
    expect(await tableExists("admin")).toBe(true);
  });

  it("takes a good zip into the catalogue (one top folder allowed), refuses the same name again, installs it", async () => {
    const zip = makeZip([
      { name: "todo/manifest.json", data: json(manifestOf()), deflate: true },
      { name: "todo/README.md", data: Buffer.from("# To-do\n") },
    ]);
    const res = await upload(zip, "todo.zip");
    expect(res.code, res.msg).toBe(1);
    expect(catalogue()).toEqual(["todo"]);
    expect(readdirSync(path.join(modulesDir, "todo")).sort()).toEqual(["README.md", "manifest.json"]);
    expect(await moduleOf("todo")).toMatchObject({ source: "catalogue", status: "available", hasDemo: true });
    expect((await upload(zip)).msg).toBe('A module named "todo" already exists');
    expect(catalogue()).toEqual(["todo"]);
    const log = await query<{ data: string }>("select data::text as data from admin_log where title = 'Module market / upload'");
    expect(log).toHaveLength(1);
    expect(log[0]!.data.length).toBeLessThan(500);

    expect((await call(root, "POST", `${BASE}/install`, { name: "todo", demo: true })).code).toBe(1);
    expect((await call(root, "GET", "/admin/mod/todo/item/index")).data.total).toBe(2);
    expect((await call(root, "POST", `${BASE}/uninstall`, { name: "todo", dropData: true })).code).toBe(1);
    expect(await modTables()).not.toContain("mod_todo_item");
  });

  it("installs all or nothing: a failure after the first tables are made leaves no table, rule or install row", async () => {
    // Two tables are created, then the second demo row clashes with the first on a unique column.
    const broken = manifestOf({ name: "broken", demo: { item: [{ label: "same" }, { label: "same" }] } });
    expect((await upload(makeZip([{ name: "manifest.json", data: json(broken) }]))).code).toBe(1);
    const before = await logCount();
    const res = await call(root, "POST", `${BASE}/install`, { name: "broken", demo: true });
    expect(res.code).toBe(0);
    expect(res.msg).toBe('A demo row of the table "item" has the same value as another in a unique column');
    expect(await modTables()).not.toEqual(expect.arrayContaining(["mod_broken_item"]));
    expect(await tableExists("mod_broken_tag")).toBe(false);
    expect((await modRules()).filter((r) => r.name.startsWith("mod/broken"))).toEqual([]);
    expect(await installs()).toEqual([]);
    expect(await logCount()).toBe(before);
    expect((await call(root, "GET", "/admin/mod/broken/item/index")).code).toBe(0);
    // Without the demo rows it installs.
    expect((await call(root, "POST", `${BASE}/install`, { name: "broken" })).code).toBe(1);
    expect(await tableExists("mod_broken_tag")).toBe(true);
    expect((await call(root, "POST", `${BASE}/uninstall`, { name: "broken", dropData: true })).code).toBe(1);
  });

  it("rolls back the tables already made when a later table's change is refused by the database", async () => {
    // A table kept from an earlier install holds duplicates where this version wants a unique index:
    // `item` is created first, then `tag` fails; neither the new table nor anything else remains.
    await query("create table mod_kept_tag (id serial primary key, word varchar(255) not null default '')");
    await query("insert into mod_kept_tag (word) values ('dup'), ('dup')");
    const kept = manifestOf({ name: "kept", tables: [table("item", [{ name: "label", type: "string" }]), table("tag", [{ name: "word", type: "string", index: "unique" }])], demo: {} });
    expect((await upload(makeZip([{ name: "manifest.json", data: json(kept) }]))).code).toBe(1);
    const res = await call(root, "POST", `${BASE}/install`, { name: "kept" });
    expect(res).toMatchObject({ code: 0, msg: "A unique index cannot be made: some rows have the same value in that column" });
    expect(await tableExists("mod_kept_item")).toBe(false);
    expect((await query<{ n: number }>("select count(*)::int as n from mod_kept_tag"))[0]!.n).toBe(2);
    expect((await modRules()).filter((r) => r.name.startsWith("mod/kept"))).toEqual([]);
    expect(await installs()).toEqual([]);
    await query("drop table mod_kept_tag");
  });

  it("writes only the declared columns of demo rows, whatever keys they carry", async () => {
    const sly = manifestOf({ name: "sly", demo: { item: [{ label: "ok", 'label") values (1); drop table admin; --': "x", id: 999 }] } });
    expect((await upload(makeZip([{ name: "manifest.json", data: json(sly) }]))).code).toBe(1);
    expect((await call(root, "POST", `${BASE}/install`, { name: "sly", demo: true })).code).toBe(1);
    expect(await query("select id, label from mod_sly_item")).toEqual([{ id: 1, label: "ok" }]);
    expect(await tableExists("admin")).toBe(true);
    expect((await call(root, "POST", `${BASE}/uninstall`, { name: "sly", dropData: true })).code).toBe(1);
  });

  it("refuses a module whose needs are not met", async () => {
    const needy = manifestOf({ name: "needy", requires: { modules: ["checkin"] }, demo: {} });
    expect((await upload(makeZip([{ name: "manifest.json", data: json(needy) }]))).code).toBe(1);
    expect((await call(root, "POST", `${BASE}/install`, { name: "needy" })).msg).toBe("Install and enable these modules first: checkin");
    const future = manifestOf({ name: "future", requires: { app: "99.0.0" }, demo: {} });
    expect((await upload(makeZip([{ name: "manifest.json", data: json(future) }]))).code).toBe(1);
    expect((await call(root, "POST", `${BASE}/install`, { name: "future" })).msg).toMatch(/^The module needs ExamHub 99\.0\.0 or later/);
    expect(await installs()).toEqual([]);
  });
});

// ---- Names that clash in a zip, filters that do not fit, empty adds, one failing block ----

describe("a module zip whose names clash", () => {
  it("refuses a file that is also a folder, the same name twice and names differing only in capitals, from the central directory", async () => {
    const good: ZipEntrySpec = { name: "manifest.json", data: json(manifestOf({ name: "clash" })) };
    const x = Buffer.from("{}");
    const cases: [string, ZipEntrySpec[], string][] = [
      ["file then folder", [good, { name: "a.json", data: x }, { name: "a.json/b.json", data: x }], 'The zip holds "a.json" both as a file and as a folder'],
      ["folder then file", [good, { name: "a.json/b.json", data: x }, { name: "a.json", data: x }], 'The zip holds "a.json" both as a file and as a folder'],
      ["folder entry and file", [good, { name: "a.md/", data: Buffer.alloc(0) }, { name: "a.md", data: x }], 'The zip holds "a.md" both as a file and as a folder'],
      ["manifest as a folder too", [good, { name: "manifest.json/x.md", data: x }], 'The zip holds "manifest.json" both as a file and as a folder'],
      ["same name twice", [good, { name: "README.md", data: x }, { name: "README.md", data: x }], 'The zip holds the same file twice: "README.md"'],
      ["capitals only", [good, { name: "README.md", data: x }, { name: "readme.md", data: x }], 'The zip holds two names that differ only in capitals: "readme.md"'],
      ["folders in capitals", [good, { name: "docs/a.md", data: x }, { name: "Docs/b.md", data: x }], 'The zip holds two names that differ only in capitals: "Docs"'],
    ];
    const before = { folder: catalogue(), installs: await installs() };
    for (const [label, entries, message] of cases) {
      const res = await upload(makeZip(entries));
      expect({ label, code: res.code, msg: res.msg }).toEqual({ label, code: 0, msg: message });
      expect(catalogue(), label).toEqual(before.folder);
    }
    expect(await installs()).toEqual(before.installs);
  });
});

describe("a member block's filters against its columns", () => {
  const blocky = (where: Record<string, unknown>[], name = "blocky") =>
    manifestOf({
      name,
      tables: [table("item", [{ name: "label", type: "string" }, { name: "level", type: "int", form: "number" }, { name: "shown", type: "bool", form: "switch" }])],
      member: [{ kind: "list", name: "items", title: "条目", table: "item", fields: { title: "label" }, where }],
      demo: { item: [{ label: "one", level: 1, shown: true }] },
    });

  it("refuses at upload a value that does not fit its column's type", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ field: "level", eq: "not-a-number" }, 'The member block "items" compares the field "level" (int) with a value of another type'],
      [{ field: "level", eq: 2 ** 31 }, 'The member block "items" compares the field "level" (int) with a value of another type'],
      [{ field: "id", eq: "x" }, 'The member block "items" compares the field "id" (int) with a value of another type'],
      [{ field: "shown", eq: "yes" }, 'The member block "items" compares the field "shown" (bool) with a value of another type'],
      [{ field: "label", eq: 3 }, 'The member block "items" compares the field "label" (string) with a value of another type'],
    ];
    const folder = catalogue();
    for (const [where, message] of cases) {
      const res = await upload(makeZip([{ name: "manifest.json", data: json(blocky([where])) }]));
      expect({ where, code: res.code, msg: res.msg }).toEqual({ where, code: 0, msg: message });
    }
    expect(catalogue()).toEqual(folder);
    expect((await upload(makeZip([{ name: "manifest.json", data: json(blocky([{ field: "level", eq: 1 }, { field: "shown", eq: true }])) }]))).code).toBe(1);
    expect(catalogue()).toEqual([...folder, "blocky"].sort());
  });

  it("refuses at install a folder changed by hand since, with the manifest's problem", async () => {
    writeFileSync(path.join(modulesDir, "blocky", "manifest.json"), JSON.stringify(blocky([{ field: "level", eq: "not-a-number" }])));
    const was = await installs();
    const res = await call(root, "POST", `${BASE}/install`, { name: "blocky" });
    expect(res).toMatchObject({ code: 0, msg: 'The member block "items" compares the field "level" (int) with a value of another type' });
    expect(await installs()).toEqual(was);
    expect((await call(root, "POST", `${BASE}/install`, { name: "nosuchmodule" })).msg).toBe("The module is not in the catalogue");
    writeFileSync(path.join(modulesDir, "blocky", "manifest.json"), JSON.stringify(blocky([{ field: "level", eq: 1 }])));
    expect((await call(root, "POST", `${BASE}/install`, { name: "blocky", demo: true })).code).toBe(1);
  });

  it("shows the other blocks when one block fails", async () => {
    expect((await call(root, "POST", `${BASE}/install`, { name: "notice", demo: true })).code).toBe(1);
    const names = async () => (await home()).map((b) => `${b.module}/${b.name}`).sort();
    expect(await names()).toEqual(["blocky/items", "notice/notices"]);
    // The block's table dropped by hand: its query fails; the notice board's block stays.
    await query("alter table mod_blocky_item rename to mod_blocky_gone");
    const res = await t.app.inject({ method: "GET", url: "/api/module/home", headers: member.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 1 });
    expect(await names()).toEqual(["notice/notices"]);
    await query("alter table mod_blocky_gone rename to mod_blocky_item");
    expect(await names()).toEqual(["blocky/items", "notice/notices"]);
  });

  it("adds a row of the defaults when every field is omitted, never an HTTP 500", async () => {
    const res = await call(root, "POST", "/admin/mod/blocky/item/add", {});
    expect(res.code, res.msg).toBe(1);
    expect(await query("select label, level, shown from mod_blocky_item where id = $1", [res.data.id])).toEqual([{ label: "", level: 0, shown: false }]);
    expect((await call(root, "POST", "/admin/mod/blocky/item/edit", { id: res.data.id })).code).toBe(1);
    for (const name of ["blocky", "notice"]) expect((await call(root, "POST", `${BASE}/uninstall`, { name, dropData: true })).code).toBe(1);
  });
});
