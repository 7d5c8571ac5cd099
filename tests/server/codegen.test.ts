import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenDesign, GenField } from "../../src/shared/admin/codegen.ts";
import { buildApp } from "../../src/server/app.ts";
import { createTestApp, LogCapture, testConfig, type TestApp } from "../helpers/app.ts";
import { call as send, type Caller, type Method } from "../helpers/call.ts";
import { createAdmin, createCompany, createMember, type TestAdmin } from "../helpers/factories.ts";

/** The answers' data, read field by field. */
type Data = Record<string, unknown> & { list?: Record<string, unknown>[]; total?: number };

let t: TestApp;
let root: TestAdmin;

const field = (name: string, over: Partial<GenField> = {}): GenField => ({
  name,
  type: "string",
  length: 0,
  default: "",
  comment: name,
  index: "none",
  required: false,
  options: [],
  optionLabels: {},
  form: "text",
  list: true,
  search: "none",
  ...over,
});

const bookDesign = (over: Partial<GenDesign> = {}): GenDesign => ({
  name: "book",
  title: "Books",
  titleEn: "Books",
  fields: [
    field("title", { required: true, search: "LIKE", index: "unique", length: 100 }),
    field("pages", { type: "int", form: "number", search: "RANGE", default: "10" }),
    field("kind", { type: "enum", options: ["novel", "poem"], form: "select", default: "novel", search: "eq" }),
    field("isbn", { comment: "ISBN's code" }),
  ],
  quickSearch: ["title"],
  sortable: true,
  recycle: true,
  sensitive: ["title"],
  ...over,
});

/** A call to `app` (the test's, or a restarted one), failing the test on a 5xx. */
const call = (app: TestApp["app"], who: Caller, method: Method, url: string, payload?: object) => send<Data>(app, who, method, url, payload, { refuse5xx: true });
const as = (who: Caller, method: Method, url: string, payload?: object) => call(t.app, who, method, url, payload);

const query = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => (await t.database.db.query<T>(text, params)).rows;
const tableExists = async (table: string) => (await query<{ ok: boolean }>("select to_regclass($1) is not null as ok", [table]))[0]!.ok;
const columnsOf = async (table: string) =>
  (await query<{ name: string }>("select column_name as name from information_schema.columns where table_name = $1 order by ordinal_position", [table])).map((r) => r.name);
const logCount = async () => (await query<{ n: number }>("select count(*)::int as n from admin_log"))[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(async () => t?.close());

describe("the code generator", () => {
  let designId = 0;

  it("previews a design without creating anything", async () => {
    const res = await as(root, "POST", "/admin/crud/crud/preview", { design: bookDesign() });
    expect(res.code, res.msg).toBe(1);
    const plan = res.data.plan as { statements: string[]; drops: string[]; exists: boolean; table: string };
    expect(plan).toMatchObject({ table: "gen_book", exists: false, drops: [] });
    expect(plan.statements[0]).toMatch(/^create table "gen_book"/);
    expect(plan.statements.join("\n")).toContain(`'ISBN''s code'`);
    expect(await tableExists("gen_book")).toBe(false);
  });

  it("generates the table, the menu rules and the resource, logged, and the screen answers at once", async () => {
    const logs = await logCount();
    const res = await as(root, "POST", "/admin/crud/crud/generate", { design: bookDesign() });
    expect(res.code, res.msg).toBe(1);
    designId = res.data.id as number;
    expect(res.data).toMatchObject({ rule: "gen/book", table: "gen_book" });
    expect(await columnsOf("gen_book")).toEqual(["id", "title", "pages", "kind", "isbn", "weigh", "create_time", "update_time"]);
    expect(await logCount()).toBe(logs + 1);
    const rules = await query<{ name: string; component: string }>("select name, component from admin_rule where name like 'gen/book%' order by name");
    expect(rules.map((r) => r.name)).toEqual(["gen/book", "gen/book/add", "gen/book/del", "gen/book/edit", "gen/book/index", "gen/book/sortable"]);
    expect(rules[0]!.component).toBe("crud/generated");
    // The side menu of a super admin lists it.
    const menus = JSON.stringify((await as(root, "GET", "/admin/index/index")).data.menus);
    expect(menus).toContain('"path":"gen/book"');
    expect((await query("select 1 from security_data_recycle where controller = 'gen/book'")).length).toBe(1);
    const definition = await as(root, "GET", "/admin/gen/book/definition");
    expect(definition.code).toBe(1);
    expect((definition.data.design as GenDesign).fields.map((f) => f.name)).toEqual(["title", "pages", "kind", "isbn"]);
    const list = await as(root, "GET", "/admin/gen/book/index");
    expect(list).toMatchObject({ code: 1, data: { list: [], total: 0 } });
    const designs = await as(root, "GET", "/admin/crud/crud/index");
    expect(designs.data.list).toEqual([expect.objectContaining({ id: designId, name: "book", status: "generated", fields: 4 })]);
  });

  it("adds, edits, lists, sorts and deletes rows through the generic protocol", async () => {
    const a = await as(root, "POST", "/admin/gen/book/add", { title: "Dune", pages: 412, kind: "novel", isbn: "x" });
    expect(a.code, a.msg).toBe(1);
    const b = await as(root, "POST", "/admin/gen/book/add", { title: "Odes", kind: "poem" });
    expect(b.code, b.msg).toBe(1);
    const [ida, idb] = [a.data.id as number, b.data.id as number];
    // Defaults of the design fill what the body leaves out.
    expect((await query("select pages, isbn from gen_book where id = $1", [idb]))[0]).toEqual({ pages: 10, isbn: "" });
    // Validation from the design: required, choices, unique.
    const missing = await as(root, "POST", "/admin/gen/book/add", { pages: 1 });
    expect(missing.code).toBe(0);
    expect(Object.keys((missing.data as { fields: Record<string, string> }).fields)).toEqual(["title"]);
    expect((await as(root, "POST", "/admin/gen/book/add", { title: "X", kind: "drama" })).code).toBe(0);
    const clash = await as(root, "POST", "/admin/gen/book/add", { title: "Dune" });
    expect(clash.code).toBe(0);
    expect(clash.data).toMatchObject({ fields: { title: expect.any(String) } });

    expect((await as(root, "POST", "/admin/gen/book/edit", { id: ida, title: "Dune II", pages: 500, kind: "novel", isbn: "y" })).code).toBe(1);
    expect((await as(root, "GET", `/admin/gen/book/edit?id=${ida}`)).data.row).toMatchObject({ title: "Dune II", pages: 500, isbn: "y" });
    const found = await as(root, "GET", "/admin/gen/book/index?search[0][field]=title&search[0][val]=une&search[0][operator]=LIKE");
    expect(found.data.list!.map((r) => r.id)).toEqual([ida]);
    expect((await as(root, "GET", "/admin/gen/book/index?quickSearch=odes")).data.list!.map((r) => r.id)).toEqual([idb]);
    expect((await as(root, "GET", "/admin/gen/book/index?search[0][field]=pages&search[0][val]=400,600&search[0][operator]=RANGE")).data.total).toBe(1);
    // Newest first by weigh; a swap reverses them.
    expect((await as(root, "GET", "/admin/gen/book/index")).data.list!.map((r) => r.id)).toEqual([idb, ida]);
    expect((await as(root, "POST", "/admin/gen/book/sortable", { id: ida, targetId: idb })).code).toBe(1);
    expect((await as(root, "GET", "/admin/gen/book/index")).data.list!.map((r) => r.id)).toEqual([ida, idb]);
    // The sensitive-data rule logged the title's change; the recycle rule keeps deleted rows.
    expect((await query("select data_field from security_sensitive_data_log where data_table = 'gen_book'")).map((r) => r.data_field)).toEqual(["title"]);
    const c = await as(root, "POST", "/admin/gen/book/add", { title: "Gone" });
    expect((await as(root, "DELETE", `/admin/gen/book/del?ids[]=${c.data.id as number}`)).code).toBe(1);
    expect((await query("select 1 from gen_book where id = $1", [c.data.id])).length).toBe(0);
    expect((await query("select 1 from security_data_recycle_log where data_table = 'gen_book'")).length).toBe(1);
  });

  it("regenerates with a new column keeping the rows", async () => {
    const design = bookDesign({ fields: [...bookDesign().fields, field("price", { type: "decimal", form: "number", default: "9.5" })] });
    const res = await as(root, "POST", "/admin/crud/crud/generate", { id: designId, design });
    expect(res.code, res.msg).toBe(1);
    expect(await columnsOf("gen_book")).toContain("price");
    const rows = await query<{ title: string; price: string }>("select title, price::text as price from gen_book order by id");
    expect(rows).toEqual([
      { title: "Dune II", price: "9.50" },
      { title: "Odes", price: "9.50" },
    ]);
    // The running resource knows the new field at once.
    const added = await as(root, "POST", "/admin/gen/book/add", { title: "Priced", price: "12.25" });
    expect(added.code, added.msg).toBe(1);
    expect((await query("select price::text as price from gen_book where id = $1", [added.data.id]))[0]).toEqual({ price: "12.25" });
  });

  it("refuses to drop a column without the confirmation, and drops it with it", async () => {
    const design = bookDesign({ fields: bookDesign().fields.filter((f) => f.name !== "isbn") });
    const preview = await as(root, "POST", "/admin/crud/crud/preview", { id: designId, design });
    expect((preview.data.plan as { drops: string[] }).drops).toEqual(["isbn", "price"]);
    const refused = await as(root, "POST", "/admin/crud/crud/generate", { id: designId, design });
    expect(refused.code).toBe(0);
    expect(refused.msg).toContain("isbn");
    expect(refused.data).toEqual({ drops: ["isbn", "price"] });
    expect(await columnsOf("gen_book")).toContain("isbn");
    const done = await as(root, "POST", "/admin/crud/crud/generate", { id: designId, design, confirmDrop: true });
    expect(done.code, done.msg).toBe(1);
    expect(await columnsOf("gen_book")).not.toContain("isbn");
    expect((await query("select count(*)::int as n from gen_book"))[0]).toEqual({ n: 3 });
    // A field the resource no longer has is refused as any unknown search field.
    expect((await as(root, "GET", "/admin/gen/book/index?search[0][field]=isbn&search[0][val]=x")).code).toBe(0);
  });

  it("refuses a change the rows do not allow (a unique index over duplicates, a type they do not convert to), changing nothing", async () => {
    const design = bookDesign({ fields: bookDesign().fields.filter((f) => f.name !== "isbn") });
    expect((await as(root, "POST", "/admin/gen/book/add", { title: "Same", pages: 7, kind: "poem" })).code).toBe(1);
    expect((await as(root, "POST", "/admin/gen/book/add", { title: "Same too", pages: 7, kind: "poem" })).code).toBe(1);
    const columns = await columnsOf("gen_book");
    const unique = await as(root, "POST", "/admin/crud/crud/generate", {
      id: designId,
      design: { ...design, fields: design.fields.map((f) => (f.name === "pages" ? { ...f, index: "unique" } : f)) },
    });
    expect(unique.code).toBe(0);
    expect(unique.msg).toContain("unique index");
    const retyped = await as(root, "POST", "/admin/crud/crud/generate", {
      id: designId,
      design: { ...design, quickSearch: [], fields: design.fields.map((f) => (f.name === "title" ? { ...f, type: "int", form: "number", search: "none", index: "none" } : f)) },
      confirmDrop: true,
    });
    expect(retyped.code).toBe(0);
    expect(retyped.msg).toContain("converted");
    expect(await columnsOf("gen_book")).toEqual(columns);
    const ids = (await query<{ id: number }>("select id from gen_book where title like 'Same%'")).map((r) => r.id);
    expect((await as(root, "DELETE", `/admin/gen/book/del?${ids.map((id) => `ids[]=${id}`).join("&")}`)).code).toBe(1);
  });

  it("exports a design and imports it as a draft, validated", async () => {
    const exported = await as(root, "GET", `/admin/crud/crud/export?id=${designId}`);
    expect(exported.code).toBe(1);
    const design = { ...(exported.data.design as GenDesign), name: "book_copy" };
    const imported = await as(root, "POST", "/admin/crud/crud/import", { version: 1, design });
    expect(imported.code, imported.msg).toBe(1);
    expect((await query("select status from crud_design where id = $1", [imported.data.id]))[0]).toEqual({ status: "draft" });
    expect(await tableExists("gen_book_copy")).toBe(false);
    expect((await as(root, "POST", "/admin/crud/crud/import", { design: { ...design, name: "Bad Name" } })).code).toBe(0);
    expect((await as(root, "POST", "/admin/crud/crud/import", { design: { ...design, name: "book_copy" } })).code).toBe(0);
    expect((await as(root, "POST", "/admin/crud/crud/import", { design: { ...design, name: "x2", quickSearch: ["nope"] } })).code).toBe(0);
    expect((await as(root, "POST", "/admin/crud/crud/del", { id: imported.data.id })).code).toBe(1);
  });

  it("still serves the generated resource after a restart on the same database", async () => {
    const logs = new LogCapture();
    const again = await buildApp(testConfig(), { db: t.database.db, logStream: logs });
    await again.ready();
    try {
      const list = await call(again, root, "GET", "/admin/gen/book/index");
      expect(list.code, list.msg).toBe(1);
      expect(list.data.total).toBe(3);
      const added = await call(again, root, "POST", "/admin/gen/book/add", { title: "After restart", kind: "poem" });
      expect(added.code, added.msg).toBe(1);
    } finally {
      await again.close();
    }
  });

  it("keeps or drops the table when the design is deleted, and removes its menus", async () => {
    const other = await as(root, "POST", "/admin/crud/crud/generate", { design: bookDesign({ name: "note", title: "Notes", recycle: false, sensitive: [] }) });
    expect(other.code, other.msg).toBe(1);
    const kept = await as(root, "POST", "/admin/crud/crud/del", { id: designId });
    expect(kept.code, kept.msg).toBe(1);
    expect(await tableExists("gen_book")).toBe(true);
    expect((await query("select 1 from admin_rule where name like 'gen/book%'")).length).toBe(0);
    expect((await query("select 1 from security_data_recycle where controller = 'gen/book'")).length).toBe(0);
    expect((await as(root, "GET", "/admin/gen/book/index")).code).toBe(0);
    // A new design of that name takes the kept table with its rows.
    const adopted = await as(root, "POST", "/admin/crud/crud/generate", { design: bookDesign({ fields: bookDesign().fields.filter((f) => f.name !== "isbn") }) });
    expect(adopted.code, adopted.msg).toBe(1);
    expect((await as(root, "GET", "/admin/gen/book/index")).data.total).toBe(4);
    const dropped = await as(root, "POST", "/admin/crud/crud/del", { id: adopted.data.id, dropTable: true });
    expect(dropped.code).toBe(1);
    expect(await tableExists("gen_book")).toBe(false);
    expect(await tableExists("gen_note")).toBe(true);
  });
});

describe("hostile designs and callers", () => {
  const before = async () => ({
    tables: (await query<{ n: number }>("select count(*)::int as n from information_schema.tables where table_schema = current_schema()"))[0]!.n,
    designs: (await query<{ n: number }>("select count(*)::int as n from crud_design"))[0]!.n,
    rules: (await query<{ n: number }>("select count(*)::int as n from admin_rule"))[0]!.n,
  });

  const hostileNames = ["select", "user", "table", 'users"; drop table admin; --', "a'b", "Book", "admin", "member", "crud_design", "a".repeat(42), "a\u0000b", "", "1abc", "a-b", "gen_x y"];
  it.each(hostileNames.map((n) => [JSON.stringify(n).slice(0, 30), n] as const))("refuses the table name %s with nothing created", async (_label, name) => {
    const was = await before();
    for (const url of ["/admin/crud/crud/preview", "/admin/crud/crud/generate"]) {
      const res = await as(root, "POST", url, { design: bookDesign({ name }) });
      expect(res.code, `${url} ${name}`).toBe(0);
      expect(res.msg.length).toBeGreaterThan(5);
    }
    expect(await before()).toEqual(was);
    expect((await query("select count(*)::int as n from admin where username = 'admin' or true"))[0]).toBeDefined();
  });

  it("names what is wrong with a name", async () => {
    expect((await as(root, "POST", "/admin/crud/crud/generate", { design: bookDesign({ name: "select" }) })).msg).toContain("SQL key word");
    expect((await as(root, "POST", "/admin/crud/crud/generate", { design: bookDesign({ name: "admin" }) })).msg).toContain("system table");
  });

  const hostileFields: [string, Partial<GenField>][] = [
    ["a keyword", { name: "order" }],
    ["a reserved column", { name: "id" }],
    ["quotes", { name: 'x"; drop table admin; --' }],
    ["uppercase", { name: "Title" }],
    ["too long", { name: "f".repeat(42) }],
    ["a NUL", { name: "a\u0000" }],
    ["a NUL in the comment", { comment: "a\u0000b" }],
    ["a bad default", { type: "int", form: "number", default: "1; drop table admin" }],
    ["a control that does not fit", { type: "bool", form: "text" }],
    ["an unknown type", { type: "money" as never }],
  ];
  it.each(hostileFields)("refuses a field with %s, nothing created", async (_label, over) => {
    const was = await before();
    const res = await as(root, "POST", "/admin/crud/crud/generate", { design: bookDesign({ name: "hostile", fields: [field("title", over)] }) });
    expect(res.code).toBe(0);
    expect(await before()).toEqual(was);
    expect(await tableExists("gen_hostile")).toBe(false);
  });

  it("refuses a field listed twice", async () => {
    const res = await as(root, "POST", "/admin/crud/crud/generate", { design: bookDesign({ name: "twice", fields: [field("a"), field("a")] }) });
    expect(res.code).toBe(0);
    expect(res.msg).toContain("twice");
  });

  it("refuses a non-super admin (even with the generator's rule), a company admin and a member, with nothing created", async () => {
    const { rows } = await t.database.db.query<{ id: number }>(
      "insert into admin_group (name, rules) values ('gen', (select string_agg(id::text, ',') from admin_rule where name like 'crud/crud%' or name like 'gen/%')) returning id",
    );
    const staff = await createAdmin(t.database.db, { isSuper: false });
    await t.database.db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [staff.id, rows[0]!.id]);
    const company = await createCompany(t.database.db);
    const boss = await createAdmin(t.database.db, { companyId: company });
    const member = await createMember(t.database.db);
    const was = await before();
    for (const who of [staff, boss, member]) {
      for (const [method, url, body] of [
        ["GET", "/admin/crud/crud/index", undefined],
        ["POST", "/admin/crud/crud/generate", { design: bookDesign({ name: "intruder" }) }],
        ["POST", "/admin/crud/crud/preview", { design: bookDesign({ name: "intruder" }) }],
        ["POST", "/admin/crud/crud/import", { design: bookDesign({ name: "intruder" }) }],
        ["GET", "/admin/ajax/getTablePk?table=admin", undefined],
        ["GET", "/admin/ajax/getTableFieldList?table=admin", undefined],
      ] as const) {
        const res = await as(who, method, url, body);
        expect(res.code, `${url} as ${"username" in who ? who.username : "member"}`).not.toBe(1);
      }
    }
    expect(await before()).toEqual(was);
    // The generated screen: a group granted its rules reaches it; a company admin never does.
    expect((await as(staff, "GET", "/admin/gen/note/index")).code).toBe(1);
    expect((await as(boss, "GET", "/admin/gen/note/index")).code).toBe(401);
    expect((await as(boss, "POST", "/admin/gen/note/add", { title: "boss" })).code).toBe(401);
    expect((await as(member, "GET", "/admin/gen/note/index")).code).not.toBe(1);
  });
});

describe("the table endpoints of SPEC §7", () => {
  it("answers an existing table's primary key and fields", async () => {
    expect(await as(root, "GET", "/admin/ajax/getTablePk?table=gen_note")).toMatchObject({ code: 1, data: { pk: "id" } });
    const all = await as(root, "GET", "/admin/ajax/getTableFieldList?table=gen_note");
    expect((all.data.fieldList as { name: string }[]).map((f) => f.name)).toEqual(["id", "title", "pages", "kind", "isbn", "weigh", "create_time", "update_time"]);
    const clean = await as(root, "GET", "/admin/ajax/getTableFieldList?table=gen_note&clean=1");
    expect(clean.data.fieldList).toEqual([
      expect.objectContaining({ name: "title", type: "string", length: 100 }),
      expect.objectContaining({ name: "pages", type: "int", default: "10" }),
      expect.objectContaining({ name: "kind", type: "string", default: "novel" }),
      expect.objectContaining({ name: "isbn", type: "string", comment: "ISBN's code" }),
    ]);
  });

  it("refuses a table name that is not valid or a table that does not exist, clearly", async () => {
    for (const table of ["nope_table", "admin; drop table admin", "Admin", "", "a".repeat(70), "a%00b"]) {
      for (const path of ["getTablePk", "getTableFieldList"]) {
        const res = await as(root, "GET", `/admin/ajax/${path}?table=${encodeURIComponent(table)}`);
        expect(res.code, `${path} ${table}`).toBe(0);
      }
    }
  });
});

describe("a body with every field omitted", () => {
  it("adds a row of the columns' defaults to a generated resource, names a required field, never an HTTP 500", async () => {
    const blank = bookDesign({
      name: "blank",
      fields: [field("label", { default: "none" }), field("count", { type: "int", form: "number", default: "7" }), field("flag", { type: "bool", form: "switch" })],
      quickSearch: [],
      sensitive: [],
      recycle: false,
    });
    expect((await as(root, "POST", "/admin/crud/crud/generate", { design: blank })).code).toBe(1);
    const added = await as(root, "POST", "/admin/gen/blank/add", {});
    expect(added.code, added.msg).toBe(1);
    expect(await query("select label, count, flag, weigh from gen_blank where id = $1", [added.data.id])).toEqual([{ label: "none", count: 7, flag: false, weigh: added.data.id }]);
    expect((await as(root, "POST", "/admin/gen/blank/edit", { id: added.data.id })).code).toBe(1);
    // A design with a required field names it.
    expect((await as(root, "POST", "/admin/crud/crud/generate", { design: bookDesign({ name: "needy", recycle: false, sensitive: [] }) })).code).toBe(1);
    const required = await as(root, "POST", "/admin/gen/needy/add", {});
    expect(required).toMatchObject({ code: 0, data: { fields: { title: expect.any(String) } } });
    expect(await query("select id from gen_needy")).toEqual([]);
  });
});
