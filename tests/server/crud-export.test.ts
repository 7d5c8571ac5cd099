import { parseString } from "@fast-csv/parse";
import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_LIMITS, exportColumnsOf, writeSheet } from "../../src/server/crud/export.ts";
import { translator } from "../../src/server/i18n/index.ts";
import { resources } from "../../src/server/crud/resources/index.ts";
import { MAX_EXPORT_ROWS } from "../../src/shared/admin/crud.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, createCompany, createMember, type TestAdmin } from "../helpers/factories.ts";

/**
 * The export of a list (`GET /admin/<rule>/exportList`): what the list's search shows, every
 * page, as CSV and .xlsx; company scope, permission, secrets, formulas and the row cap.
 */

let t: TestApp;
let root: TestAdmin;
let boss: TestAdmin;
const companies = { a: 0, b: 0 };
/** Members named `exq<company><n>`, by name. */
const members = new Map<string, number>();
let passwordHash = "";

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  root = await createAdmin(db);
  companies.a = await createCompany(db, { name: "Export A" });
  companies.b = await createCompany(db, { name: "Export B" });
  // A company admin of A holding every rule (a group granting "*"; not a super admin).
  boss = await createAdmin(db, { companyId: companies.a });
  const all = (await db.query<{ id: number }>("insert into admin_group (name, rules) values ('all', '*') returning id")).rows[0]!.id;
  await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [boss.id, all]);
  for (const [company, n] of [
    ["a", 1],
    ["a", 2],
    ["a", 3],
    ["b", 1],
    ["b", 2],
  ] as const) {
    const m = await createMember(db, { username: `exq${company}${n}`, password: "secret-123", companyId: companies[company], money: n * 100 });
    members.set(m.username, m.id);
  }
  // One member's nickname is a formula; one has a comma, a quote and a line break; one is disabled.
  await db.query("update member set nickname = $1 where username = 'exqa1'", ['=HYPERLINK("http://evil.example","x")']);
  await db.query("update member set nickname = $1 where username = 'exqa2'", ['Li, "Lei"\nsecond line']);
  await db.query("update member set status = 'disable' where username = 'exqb2'");
  // 2026-11-27 09:45:46 UTC: 17:45:46 in Shanghai.
  await db.query("update member set create_time = 1795772746 where username like 'exq%'");
  passwordHash = (await db.query<{ password_hash: string }>("select password_hash from member where username = 'exqa1'")).rows[0]!.password_hash;
});
afterAll(() => t.close());
afterEach(() => {
  EXPORT_LIMITS.rows = MAX_EXPORT_ROWS;
  EXPORT_LIMITS.batch = 1000;
});

/** Flat query keys as the client sends them (`search[0][field]=...`). */
function queryOf(params: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
}

async function exportOf(who: TestAdmin, rule: string, params: Record<string, string | number>) {
  return t.app.inject({ method: "GET", url: `/admin/${rule}/exportList?${queryOf(params)}`, headers: who.headers });
}

function parseCsv(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString(text.replace(/^\ufeff/, ""), { headers: false })
      .on("data", (row: string[]) => rows.push(row))
      .on("error", reject)
      .on("end", () => resolve(rows));
  });
}

/** The .xlsx's first sheet as rows of cells (exceljs's values: strings, numbers, dates). */
async function readXlsx(body: Buffer): Promise<{ rows: unknown[][]; formulas: number }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  let formulas = 0;
  sheet.eachRow((row) => {
    const cells: unknown[] = [];
    for (let c = 1; c <= sheet.columnCount; c++) {
      const cell = row.getCell(c);
      if (cell.type === ExcelJS.ValueType.Formula) formulas++;
      cells.push(cell.value ?? null);
    }
    rows.push(cells);
  });
  return { rows, formulas };
}

const column = (rows: string[][], header: string) => {
  const i = rows[0]!.indexOf(header);
  expect(i, `column ${header} in ${rows[0]!.join(" | ")}`).toBeGreaterThanOrEqual(0);
  return rows.slice(1).map((r) => r[i]!);
};

describe("list export", () => {
  it("writes every matching row (not one page) in the list's order, with the declaration's headers in the admin's language", async () => {
    const res = await exportOf(root, "user/user", { format: "csv", quickSearch: "exq", order: "username,asc", tz: "Asia/Shanghai" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toMatch(/attachment; filename="user-user-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = await parseCsv(res.body);
    expect(rows[0]).toEqual(expect.arrayContaining(["ID", "Username", "Nickname", "Group", "Company", "Balance", "Status", "Created"]));
    expect(column(rows, "Username")).toEqual(["exqa1", "exqa2", "exqa3", "exqb1", "exqb2"]);
    // Joined names for chosen rows, labels for choices, times on the reader's clock.
    expect(column(rows, "Company")).toEqual(["Export A", "Export A", "Export A", "Export B", "Export B"]);
    expect(column(rows, "Status")).toEqual(["Enabled", "Enabled", "Enabled", "Enabled", "Disabled"]);
    expect(column(rows, "Created")).toEqual(Array(5).fill("2026-11-27 17:45:46"));
    // Balances are stored in cents and read in yuan.
    expect(column(rows, "Balance")).toEqual(["1.00", "2.00", "3.00", "1.00", "2.00"]);
    expect(column(rows, "ID")).toEqual(["exqa1", "exqa2", "exqa3", "exqb1", "exqb2"].map((u) => String(members.get(u))));

    const desc = await parseCsv((await exportOf(root, "user/user", { format: "csv", quickSearch: "exq", order: "username,desc" })).body);
    expect(column(desc, "Username")).toEqual(["exqb2", "exqb1", "exqa3", "exqa2", "exqa1"]);
  });

  it("honours the search form's conditions and the headers follow the language", async () => {
    const res = await exportOf(root, "user/user", {
      format: "csv",
      order: "id,asc",
      "search[0][field]": "username",
      "search[0][operator]": "LIKE",
      "search[0][val]": "exq",
      "search[1][field]": "status",
      "search[1][operator]": "eq",
      "search[1][val]": "enable",
      "search[2][field]": "money",
      "search[2][operator]": "RANGE",
      "search[2][val]": "150,400",
    });
    // Balances 100 to 300 by n: exqb2 (200) is disabled, exqa1 and exqb1 (100) are below the range.
    expect(column(await parseCsv(res.body), "Username")).toEqual(["exqa2", "exqa3"]);
    const zh = await t.app.inject({ method: "GET", url: `/admin/user/user/exportList?${queryOf({ format: "csv", quickSearch: "exqa3" })}`, headers: { ...root.headers, "think-lang": "zh-cn" } });
    const head = (await parseCsv(zh.body))[0]!;
    expect(head).not.toContain("Username");
    expect(head).toContain("用户名");
  });

  it("keeps a company admin to their company's rows, as the list does", async () => {
    const list = await t.app.inject({ method: "GET", url: `/admin/user/user/index?${queryOf({ quickSearch: "exq", limit: 100 })}`, headers: boss.headers });
    expect(list.json(), list.body).toMatchObject({ code: 1 });
    const listed = (list.json() as { data: { list: { username: string }[] } }).data.list.map((r) => r.username).sort();
    const rows = await parseCsv((await exportOf(boss, "user/user", { format: "csv", quickSearch: "exq", order: "username,asc" })).body);
    expect(column(rows, "Username")).toEqual(["exqa1", "exqa2", "exqa3"]);
    expect(column(rows, "Username")).toEqual(listed);
    // A resource closed to company admins stays closed.
    expect((await exportOf(boss, "auth/admin", { format: "csv" })).json()).toMatchObject({ code: 401 });
  });

  it("never writes a secret: no password, salt or token column in any resource's export, nor a password hash in the file", async () => {
    for (const def of resources) {
      for (const c of exportColumnsOf(def)) expect(c.key, `${def.rule}: ${c.key}`).not.toMatch(/password|salt|token|secret/i);
    }
    for (const format of ["csv", "xlsx"] as const) {
      const res = await exportOf(root, "user/user", { format, quickSearch: "exqa1" });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.includes(Buffer.from(passwordHash))).toBe(false);
    }
    const admins = await parseCsv((await exportOf(root, "auth/admin", { format: "csv" })).body);
    expect(admins[0]!.join(" ")).not.toMatch(/password|salt|token/i);
    expect(admins.slice(1).map((r) => r.join(" ")).join("\n")).toContain(boss.username);
  });

  it("writes text that looks like a formula as text: a leading ' in CSV, a text cell in .xlsx", async () => {
    const csv = await parseCsv((await exportOf(root, "user/user", { format: "csv", quickSearch: "exqa", order: "username,asc" })).body);
    expect(column(csv, "Nickname").slice(0, 2)).toEqual(['\'=HYPERLINK("http://evil.example","x")', 'Li, "Lei"\nsecond line']);
    const xlsx = await readXlsx((await exportOf(root, "user/user", { format: "xlsx", quickSearch: "exqa", order: "username,asc" })).rawPayload);
    expect(xlsx.formulas).toBe(0);
    const nick = (xlsx.rows[0] as string[]).indexOf("Nickname");
    expect(xlsx.rows[1]![nick]).toBe('=HYPERLINK("http://evil.example","x")');
  });

  it("writes the same rows as CSV and as .xlsx (read back with exceljs), times as date cells", async () => {
    const params = { quickSearch: "exq", order: "money,desc", tz: "Asia/Shanghai" };
    const csvRes = await exportOf(root, "user/user", { ...params, format: "csv" });
    const xlsxRes = await exportOf(root, "user/user", { ...params, format: "xlsx" });
    expect(xlsxRes.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(xlsxRes.headers["content-disposition"]).toMatch(/filename="user-user-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const csv = await parseCsv(csvRes.body);
    const xlsx = (await readXlsx(xlsxRes.rawPayload)).rows;
    expect(xlsx.length).toBe(csv.length);
    expect(xlsx[0]).toEqual(csv[0]);
    const created = csv[0]!.indexOf("Created");
    const asText = (v: unknown) => (v === null ? "" : v instanceof Date ? v.toISOString().slice(0, 19).replace("T", " ") : String(v));
    // A number as CSV writes it (yuan with two decimals) and as .xlsx holds it.
    const same = (v: string) => (/^-?\d+\.\d+$/.test(v) ? String(Number(v)) : v);
    for (let r = 1; r < csv.length; r++) {
      expect(xlsx[r]![created]).toBeInstanceOf(Date);
      expect(xlsx[r]!.map(asText)).toEqual(csv[r]!.map((v) => same(v.replace(/^'(?=[=+\-@])/, ""))));
    }
    // Equal balances in the list's tie order (id, the way the order runs).
    expect(csv.slice(1).map((r) => r[0])).toEqual(["exqa3", "exqb2", "exqa2", "exqb1", "exqa1"].map((u) => String(members.get(u))));
  });

  it("reads in batches and writes them all", async () => {
    EXPORT_LIMITS.batch = 2;
    for (const format of ["csv", "xlsx"] as const) {
      const res = await exportOf(root, "user/user", { format, quickSearch: "exq", order: "username,asc" });
      const rows = format === "csv" ? await parseCsv(res.body) : ((await readXlsx(res.rawPayload)).rows as string[][]);
      expect(column(rows, "Username")).toEqual(["exqa1", "exqa2", "exqa3", "exqb1", "exqb2"]);
    }
  });

  it("writes, batch after batch, exactly the rows of the list's pages in their order (ties, empty values, both directions)", async () => {
    // Two members logged in (the others' last login is empty), balances tie in pairs.
    await t.database.db.query("update member set last_login_time = case username when 'exqa2' then 1795772000 when 'exqb1' then 1795771000 end where username in ('exqa2', 'exqb1')");
    EXPORT_LIMITS.batch = 2;
    const idHeader = "ID";
    for (const order of ["id,desc", "username,asc", "money,desc", "money,asc", "last_login_time,asc", "last_login_time,desc", "company_id,desc", "status,asc"]) {
      const listed: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const res = await t.app.inject({ method: "GET", url: `/admin/user/user/index?${queryOf({ quickSearch: "exq", order, limit: 2, page })}`, headers: root.headers });
        listed.push(...res.json<{ data: { list: { id: number }[] } }>().data.list.map((row) => String(row.id)));
      }
      expect(listed, order).toHaveLength(5);
      for (const format of ["csv", "xlsx"] as const) {
        const res = await exportOf(root, "user/user", { format, quickSearch: "exq", order });
        const rows = format === "csv" ? await parseCsv(res.body) : (await readXlsx(res.rawPayload)).rows.map((r) => r.map(String));
        expect(column(rows, idHeader), `${order} ${format}`).toEqual(listed);
      }
    }
  });

  it("writes an .xlsx whole when its rows come faster than the zip deflates them (the writer waits for the zip)", async () => {
    // About 1 MB of sheet XML at once: over what the writer lets wait for the zip.
    const lines = Array.from({ length: 3_000 }, (_, i) => [`row ${i}`, `员工${i}`, `exq${i}@example.com`, "x".repeat(240), String(i % 7)]);
    const file = await writeSheet(translator("en"), "big", ["n", "name", "email", "filler", "group"], lines, "xlsx");
    const { rows } = await readXlsx(file);
    expect(rows).toHaveLength(3_001);
    expect(rows[1]).toEqual(lines[0]);
    expect(rows.at(-1)).toEqual(lines.at(-1));
  });

  it("refuses more rows than the cap with a clear error, and a search the list refuses", async () => {
    EXPORT_LIMITS.rows = 4;
    const over = await exportOf(root, "user/user", { format: "xlsx", quickSearch: "exq" });
    expect(over.headers["content-type"]).toContain("json");
    expect(over.json()).toMatchObject({ code: 0, msg: expect.stringMatching(/matches 5 rows.*at most 4.*Narrow the search/) });
    const under = await exportOf(root, "user/user", { format: "csv", quickSearch: "exqa" });
    expect((await parseCsv(under.body)).length).toBe(4);
    expect((await exportOf(root, "user/user", { format: "csv", order: "password_hash,asc" })).json()).toMatchObject({ code: 0 });
    expect((await exportOf(root, "user/user", { format: "pdf" })).json()).toMatchObject({ code: 0, msg: "Choose .xlsx or .csv" });
    expect((await exportOf(root, "user/user", { format: "csv", tz: "Mars/Olympus" })).json()).toMatchObject({ code: 0 });
  });

  it("needs the list's permission", async () => {
    const db = t.database.db;
    const ruleId = async (name: string) => (await db.query<{ id: number }>("select id from admin_rule where name = $1", [name])).rows[0]!.id;
    const limited = await createAdmin(db, { isSuper: false });
    const group = (await db.query<{ id: number }>("insert into admin_group (name, rules) values ('export viewers', $1) returning id", [String(await ruleId("user/group/index"))])).rows[0]!.id;
    await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [limited.id, group]);
    expect((await exportOf(limited, "user/user", { format: "csv" })).json()).toMatchObject({ code: 401 });
    const allowed = await exportOf(limited, "user/group", { format: "csv" });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers["content-type"]).toContain("text/csv");
    expect((await t.app.inject({ method: "GET", url: "/admin/user/user/exportList?format=csv" })).json()).toMatchObject({ code: 303 });
  });
});
