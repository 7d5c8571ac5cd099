import { crc32, deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_LIMITS } from "../../src/server/crud/export.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { download } from "../helpers/call.ts";
import { createAdmin, createBank, type TestAdmin } from "../helpers/factories.ts";
import { makeZip } from "../helpers/zip.ts";

/**
 * Questions as spreadsheets: a 2,000-question .xlsx of every kind imported, a file with
 * bad rows importing nothing and reporting every bad row by its line, CSV with Chinese text (BOM
 * or not), export -> import giving the same questions, and refusals of what is not a spreadsheet,
 * a spreadsheet bomb and formula cells.
 */

let t: TestApp;
let root: TestAdmin;

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

type Cell = string | number | { formula: string; result?: unknown };
const HEADER = ["Type", "Question", "Option A", "Option B", "Option C", "Option D", "Option E", "Option F", "Option G", "Option H", "Answer", "Reference", "Analysis", "Difficulty", "Score", "Status"];
const pad = (cells: Cell[]) => [...cells, ...Array.from({ length: Math.max(0, 16 - cells.length) }, () => "")];
/** A row: type, stem, options (up to 8), then answer, reference, analysis, difficulty, score, status. */
const row = (type: string, stem: string, options: string[], answer: Cell, rest: Cell[] = []) => [type, stem, ...pad(options).slice(0, 8), answer, ...rest];

/** Question n of every kind in turn. */
function kindRow(n: number): Cell[] {
  switch (n % 5) {
    case 0:
      return row("single", `Q${n}: pick B`, ["one", "two", "three"], "B", ["", `why ${n}`, 2, 3, "enable"]);
    case 1:
      return row("multiple", `Q${n}: pick A and C`, ["a", "b", "c", "d"], "A,C", ["", "", 3, 4]);
    case 2:
      return row("judge", `Q${n}: true?`, [], n % 2 ? "F" : "T", ["", "", 1, 1]);
    case 3:
      return row("fill", `Q${n}: ____ and ____`, [], "1949|一九四九\nBeijing", ["", "", 2, 2, "disable"]);
    default:
      return row("short", `Q${n}: explain`, [], "tilt;orbit", [`Reference ${n}`, "", 5, 10]);
  }
}

async function xlsx(rows: Cell[][], header: string[] = HEADER): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("q");
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function importFile(bank: number, name: string, data: Buffer, confirm = false, lang = "en") {
  const res = await t.app.inject({
    method: "POST",
    url: "/admin/exam/question/import",
    headers: { ...root.headers, "think-lang": lang },
    payload: { classify_id: bank, name, data: data.toString("base64"), confirm },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const count = async (bank: number) => (await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_question where classify_id = $1", [bank])).rows[0]!.n;
const questions = async (bank: number) =>
  (
    await t.database.db.query(
      "select type, stem, options, answer, analysis, difficulty, score::float as score, status from exam_question where classify_id = $1 order by weigh desc, id",
      [bank],
    )
  ).rows;

/** A zip made by hand (stored names, deflated data): for files a spreadsheet program would never write. */
function zip(entries: Record<string, Buffer | string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const raw = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const data = deflateRawSync(raw);
    const nameBuf = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(raw), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(raw), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

describe("import", () => {
  it("imports a 2,000-question .xlsx of every kind after a dry run that adds nothing", async () => {
    const bank = await createBank(t.database.db);
    const file = await xlsx(Array.from({ length: 2000 }, (_, i) => kindRow(i)));
    const dry = await importFile(bank, "questions.xlsx", file);
    expect(dry).toMatchObject({ code: 1, data: { count: 2000, errorCount: 0, errors: [], imported: 0 } });
    expect(dry.data.preview[0]).toMatchObject({ line: 2, type: "single", stem: "Q0: pick B" });
    expect(await count(bank)).toBe(0);
    const done = await importFile(bank, "questions.xlsx", file, true);
    expect(done).toMatchObject({ code: 1, data: { imported: 2000 } });
    const rows = await questions(bank);
    expect(rows).toHaveLength(2000);
    expect(rows.slice(0, 5)).toEqual([
      { type: "single", stem: "Q0: pick B", options: [{ key: "A", text: "one" }, { key: "B", text: "two" }, { key: "C", text: "three" }], answer: "B", analysis: "why 0", difficulty: 2, score: 3, status: "enable" },
      { type: "multiple", stem: "Q1: pick A and C", options: ["a", "b", "c", "d"].map((text, i) => ({ key: "ABCD"[i], text })), answer: ["A", "C"], analysis: "", difficulty: 3, score: 4, status: "enable" },
      { type: "judge", stem: "Q2: true?", options: [], answer: "T", analysis: "", difficulty: 1, score: 1, status: "enable" },
      { type: "fill", stem: "Q3: ____ and ____", options: [], answer: ["1949|一九四九", "Beijing"], analysis: "", difficulty: 2, score: 2, status: "disable" },
      { type: "short", stem: "Q4: explain", options: [], answer: { keywords: ["tilt", "orbit"], reference: "Reference 4" }, analysis: "", difficulty: 5, score: 10, status: "enable" },
    ]);
  });

  it("imports nothing from a file with bad rows and reports every bad row by its line, in the reader's language", async () => {
    const bank = await createBank(t.database.db);
    const rows: Cell[][] = [
      kindRow(0), // line 2: fine
      row("single", "Which?", ["a", "b", "c", "d"], "E"), // 3
      row("multiple", "Which ones?", ["only"], "A"), // 4
      row("fill", "No blank", [], ""), // 5
      row("essay", "Unknown type", [], "x"), // 6
      row("judge", "", [], "T"), // 7: no stem
      row("judge", "Maybe?", [], "perhaps"), // 8
      row("single", "Gap", ["a", "", "c"], "A"), // 9
      row("short", "No keywords", [], ""), // 10
      row("single", "Hard", ["a", "b"], "A", ["", "", 9]), // 11: difficulty 9
      kindRow(1), // 12: fine
    ];
    const file = await xlsx(rows);
    for (const confirm of [false, true]) {
      const res = await importFile(bank, "bad.xlsx", file, confirm);
      expect(res.code).toBe(confirm ? 0 : 1);
      expect(res.data).toMatchObject({ count: 2, errorCount: 9 });
      expect(res.data.errors.map((e: { line: number }) => e.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
      const messages = res.data.errors.map((e: { message: string }) => e.message);
      expect(messages[0]).toBe("Row 3: The answer E is not among the options");
      expect(messages[1]).toMatch(/^Row 4: .*at least 2 options/);
      expect(messages[2]).toMatch(/^Row 5: .*at least one blank/);
      expect(messages[3]).toMatch(/^Row 6: .*"essay" is unknown/);
      expect(messages[4]).toMatch(/^Row 7: .*enter the question/i);
      expect(messages[5]).toMatch(/^Row 8: .*true \(T\) or false \(F\)/);
      expect(messages[6]).toMatch(/^Row 9: Option B is empty/);
      expect(messages[7]).toMatch(/^Row 10: .*keyword/);
      expect(messages[8]).toMatch(/^Row 11: .*difficulty is 1 to 5/);
      if (confirm) expect(res.msg).toMatch(/Nothing was imported/);
    }
    expect(await count(bank)).toBe(0);
    const zh = await importFile(bank, "bad.xlsx", file, false, "zh-cn");
    expect(zh.data.errors[0].message).toBe("第 3 行：答案 E 不在选项中");
  });

  it("reads UTF-8 CSV with Chinese text, with or without a BOM; refuses text that is not UTF-8", async () => {
    const csv = [
      "题型,题目,选项A,选项B,选项C,选项D,选项E,选项F,选项G,选项H,答案,参考答案,解析,难度,分值,状态",
      '单选题,"中国的首都是哪里？",上海,北京,广州,,,,,,B,,"北京是首都，位于华北。",1,2,启用',
      'fill,"中华人民共和国成立于____年",,,,,,,,,"1949|一九四九",,,2,3,',
      'judge,"地球是圆的。",,,,,,,,,对,,,1,1,禁用',
      'short,"简述季节变化的原因",,,,,,,,,"地轴倾斜\n公转","地轴倾斜，地球绕太阳公转。",,3,10,',
    ].join("\r\n");
    for (const bom of [true, false]) {
      const bank = await createBank(t.database.db);
      const data = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(csv, "utf8")]);
      const res = await importFile(bank, "题目.csv", data, true);
      expect(res, JSON.stringify(res)).toMatchObject({ code: 1, data: { imported: 4, errorCount: 0 } });
      expect(await questions(bank)).toEqual([
        { type: "single", stem: "中国的首都是哪里？", options: [{ key: "A", text: "上海" }, { key: "B", text: "北京" }, { key: "C", text: "广州" }], answer: "B", analysis: "北京是首都，位于华北。", difficulty: 1, score: 2, status: "enable" },
        { type: "fill", stem: "中华人民共和国成立于____年", options: [], answer: ["1949|一九四九"], analysis: "", difficulty: 2, score: 3, status: "enable" },
        { type: "judge", stem: "地球是圆的。", options: [], answer: "T", analysis: "", difficulty: 1, score: 1, status: "disable" },
        { type: "short", stem: "简述季节变化的原因", options: [], answer: { keywords: ["地轴倾斜", "公转"], reference: "地轴倾斜，地球绕太阳公转。" }, analysis: "", difficulty: 3, score: 10, status: "enable" },
      ]);
    }
    const bank = await createBank(t.database.db);
    const gbk = Buffer.from([...Buffer.from("Type,Question\r\nsingle,"), 0xd6, 0xd0, 0xce, 0xc4]);
    expect(await importFile(bank, "gbk.csv", gbk, true)).toMatchObject({ code: 0, msg: expect.stringMatching(/not UTF-8/) });
    expect(await count(bank)).toBe(0);
  });
});

describe("export -> import", () => {
  it("gives the same questions back, as .xlsx and as .csv (formula-looking text included)", async () => {
    const source = await createBank(t.database.db);
    const rows = [
      ...Array.from({ length: 10 }, (_, i) => kindRow(i)),
      row("single", "=SUM(1,2) is not run", ["-5", "+3", "@x", "'quoted"], "A"),
      row("fill", "A ; in a blank: ____", [], "a;b\n"),
      row("short", "Images ![](/storage/default/20260101/abc.png) stay", [], "k1"),
    ];
    // The formula-looking stem is text in an .xlsx cell (not a formula).
    expect((await importFile(source, "s.xlsx", await xlsx(rows), true)).code).toBe(1);
    const original = await questions(source);
    expect(original).toHaveLength(13);
    expect(original[11]).toMatchObject({ answer: ["a;b"] });
    // Weighs that put the questions out of their id order, some sharing one (the members' order: weigh descending, then id).
    await t.database.db.query("update exam_question set weigh = (id * 7) % 3 where classify_id = $1", [source]);
    const ordered = await questions(source);
    expect(ordered).not.toEqual(original);
    // Four questions a query: the file is written from several batches, each after the last one's weigh and id.
    EXPORT_LIMITS.batch = 4;
    try {
      for (const format of ["xlsx", "csv"] as const) {
        const exported = await download(t.app, root, `/admin/exam/question/export?classify_id=${source}&format=${format}`);
        expect(exported.name).toMatch(new RegExp(`^questions-bank-${source}-\\d{4}-\\d{2}-\\d{2}\\.${format}$`));
        expect(exported.headers["cache-control"]).toBe("no-store");
        if (format === "csv") expect(exported.data.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
        const target = await createBank(t.database.db);
        const back = await importFile(target, exported.name, exported.data, true);
        expect(back, JSON.stringify(back.data?.errors)).toMatchObject({ code: 1, data: { imported: 13 } });
        // Imported in the file's order (weigh 0, by id): the source's order.
        expect(await questions(target)).toEqual(ordered);
      }
    } finally {
      EXPORT_LIMITS.batch = 1000;
    }
    // A refusal comes before the file, in the envelope.
    const missing = await t.app.inject({ method: "GET", url: "/admin/exam/question/export?classify_id=999999&format=csv", headers: { ...root.headers, "think-lang": "en" } });
    expect(missing.json()).toMatchObject({ code: 0, msg: "The question bank does not exist" });
  });

  it("downloads a template (in the reader's language) that imports as it is", async () => {
    for (const [lang, word] of [["en", "Question"], ["zh-cn", "题目"]]) {
      const res = await t.app.inject({ method: "GET", url: "/admin/exam/question/template?format=xlsx", headers: { ...root.headers, "think-lang": lang } });
      const data = Buffer.from(res.json().data.data, "base64");
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(data as unknown as ArrayBuffer);
      expect(String(wb.worksheets[0]!.getRow(1).getCell(2).value)).toBe(word);
      const bank = await createBank(t.database.db);
      expect(await importFile(bank, "template.xlsx", data, true, lang)).toMatchObject({ code: 1, data: { imported: 5 } });
      expect((await questions(bank)).map((q) => q.type)).toEqual(["single", "multiple", "judge", "fill", "short"]);
    }
  });
});

describe("refusals", () => {
  it("refuses what is not a spreadsheet, a bomb and formulas, importing nothing", async () => {
    const bank = await createBank(t.database.db);
    const good = await xlsx([kindRow(0)]);
    const sheet = (body: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:XFD1048576"/><sheetData>${body}</sheetData></worksheet>`;
    const cases: [string, Buffer, RegExp][] = [
      ["photo.xlsx", Buffer.from("\x89PNG\r\n\x1a\n not a zip"), /not a spreadsheet/],
      ["photo.csv", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0xff, 0xfe]), /not UTF-8|not a spreadsheet/],
      ["notes.txt", Buffer.from("hello"), /\.xlsx or \.csv/],
      ["archive.xlsx", zip({ "readme.txt": "no workbook here" }), /not a spreadsheet/],
      ["broken.xlsx", good.subarray(0, good.length - 100), /not a spreadsheet/],
      // Huge dimensions: one cell far out (the parser would build a row of 16,384 cells per such row).
      ["wide.xlsx", zip({ "xl/workbook.xml": "<workbook/>", "xl/worksheets/sheet1.xml": sheet('<row r="1"><c r="XFD1" t="inlineStr"><is><t>x</t></is></c></row>') }), /too large/],
      ["tall.xlsx", zip({ "xl/workbook.xml": "<workbook/>", "xl/worksheets/sheet1.xml": sheet('<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>x</t></is></c></row>') }), /too large/],
      // A zip bomb: 80 MB of blanks packed into a few kB.
      ["bomb.xlsx", zip({ "xl/workbook.xml": "<workbook/>", "xl/worksheets/sheet1.xml": Buffer.alloc(80 * 1024 * 1024, 0x20) }), /too large/],
      ["rows.csv", Buffer.from([HEADER.join(","), ...Array.from({ length: 20_001 }, () => "judge,x,,,,,,,,,T")].join("\n")), /too large/],
      ["headless.xlsx", await xlsx([kindRow(1)], kindRow(0) as string[]), /header row/],
    ];
    for (const [name, data, message] of cases) {
      const res = await importFile(bank, name, data, true);
      expect(res, name).toMatchObject({ code: 0, msg: expect.stringMatching(message) });
    }
    // Formula cells: every such row is reported, nothing imported.
    const formulas = await xlsx([kindRow(0), row("single", "Sum?", ["1", "2"], { formula: 'CHAR(65)', result: "A" }), row("judge", { formula: "A1" } as unknown as string, [], "T")]);
    const res = await importFile(bank, "f.xlsx", formulas, true);
    // (The whole answer in the message: a CI run once had code 0 and no report here, and the log did not say why.)
    expect(res, JSON.stringify(res)).toMatchObject({ code: 0, data: { errorCount: 2, errors: [{ line: 3, message: expect.stringMatching(/formulas are not accepted/) }, { line: 4 }] } });
    const csvFormula = Buffer.from([HEADER.join(","), "judge,=HYPERLINK(\"http://evil\"),,,,,,,,,T"].join("\n"));
    expect(await importFile(bank, "f.csv", csvFormula, true)).toMatchObject({ code: 0, data: { errors: [{ line: 2, message: expect.stringMatching(/formulas/) }] } });
    // Hostile bodies: not base64, too large, no bank.
    for (const payload of [
      { classify_id: bank, name: "a.xlsx", data: "%%%" },
      { classify_id: bank, name: "a.xlsx", data: "" },
      { classify_id: 2_000_000_000, name: "a.xlsx", data: good.toString("base64") },
      { classify_id: bank, name: "a.xlsx", data: ["x"] },
    ]) {
      const r = await t.app.inject({ method: "POST", url: "/admin/exam/question/import", headers: root.headers, payload });
      expect(r.statusCode).toBe(200);
      expect(r.json().code).toBe(0);
    }
    expect(await count(bank)).toBe(0);
  });

  it("needs the import and export rules", async () => {
    const { rows } = await t.database.db.query<{ id: number }>("select id from admin_rule where name in ('exam/question', 'exam/question/index')");
    const { rows: groups } = await t.database.db.query<{ id: number }>("insert into admin_group (name, rules) values ('readers', $1) returning id", [rows.map((r) => r.id).join(",")]);
    const reader = await createAdmin(t.database.db, { isSuper: false });
    await t.database.db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [reader.id, groups[0]!.id]);
    const bank = await createBank(t.database.db);
    const data = (await xlsx([kindRow(0)])).toString("base64");
    const imp = await t.app.inject({ method: "POST", url: "/admin/exam/question/import", headers: reader.headers, payload: { classify_id: bank, name: "a.xlsx", data, confirm: true } });
    expect(imp.json().code).not.toBe(1);
    const exp = await t.app.inject({ method: "GET", url: `/admin/exam/question/export?classify_id=${bank}`, headers: reader.headers });
    expect(exp.json().code).not.toBe(1);
    expect(await count(bank)).toBe(0);
  });
});

/**
 * A spreadsheet of empty rows once stalled the whole server (63 MB of `<row/>` in a 102 KB
 * file: /api/health took 21 s). Elements without addresses are counted too, the file may inflate
 * at most 100 times (a few MB allowed), and files are read on a thread of their own, before the
 * import's transaction: the server keeps answering while one is read.
 */
describe("hostile spreadsheets and a responsive server", () => {
  const sheet = (body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
  /** A workbook whose one sheet is `body`, stored (no ratio to speak of) or deflated. */
  const book = (body: string, deflate = false, extra: { name: string; data: Buffer; deflate?: boolean }[] = []) =>
    makeZip([{ name: "xl/workbook.xml", data: Buffer.from("<workbook/>") }, { name: "xl/worksheets/sheet1.xml", data: Buffer.from(sheet(body)), deflate }, ...extra]);
  const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>Type</t></is></c></row>';

  it("refuses sheets of empty rows and cells, with or without addresses, and zips that inflate too far, with a clear message", async () => {
    const bank = await createBank(t.database.db);
    const cases: [string, Buffer][] = [
      // The probe's file: 63 MB of <row/> in about 100 kB.
      ["rows-bomb.xlsx", book("<row/>".repeat(10_500_000), true)],
      // Stored, so the ratio is no help: the count of rows, with and without addresses.
      ["rows.xlsx", book(header + "<row/>".repeat(20_001))],
      ["same-row.xlsx", book(header + '<row r="2"/>'.repeat(20_001))],
      ["cells.xlsx", book(header + `<row r="2">${'<c r="B2"/>'.repeat(27)}</row>`)],
      ["bare-cells.xlsx", book(header + `<row>${"<c/>".repeat(27)}</row>`)],
      ["quoted-address.xlsx", book(`<row r='1'><c r='XFD1' t='inlineStr'><is><t>x</t></is></c></row>`)],
      ["spaced-address.xlsx", book(`<row r = "1048576"><c t="inlineStr"><is><t>x</t></is></c></row>`)],
      // Any element counts: 2,000,001 of them in 8 MB.
      ["elements.xlsx", book(header + "<x/>".repeat(2_000_001))],
      // Five entries of 1 MB each, none of them alarming alone: the whole archive inflates over 100 times.
      ["many.xlsx", book(header, false, Array.from({ length: 5 }, (_, i) => ({ name: `xl/media/pad${i}.bin`, data: Buffer.alloc(1024 * 1024, 0x20), deflate: true })))],
    ];
    for (const [name, data] of cases) {
      const started = performance.now();
      const res = await importFile(bank, name, data, true);
      expect(res, name).toMatchObject({ code: 0, msg: expect.stringMatching(/too large or too complex: at most 20,000 rows, 26 columns/) });
      expect(performance.now() - started, name).toBeLessThan(15_000);
    }
    expect(await count(bank)).toBe(0);
    // In the reader's language too.
    const zh = await importFile(bank, "rows.xlsx", cases[1]![1], true, "zh-cn");
    expect(zh).toMatchObject({ code: 0 });
    expect(zh.msg).not.toBe("");
  }, 120_000);

  it("answers /api/health promptly while a 20,000-question file and a hostile one are read and imported", async () => {
    const bank = await createBank(t.database.db);
    const big = await xlsx(Array.from({ length: 20_000 }, (_, i) => kindRow(i)));
    const hostile = book(header + '<row r="2"><c r="B2"/></row>'.repeat(20_001));
    let worst = 0;
    let polls = 0;
    let stop = false;
    const poller = (async () => {
      while (!stop) {
        const started = performance.now();
        const res = await t.app.inject({ method: "GET", url: "/api/health" });
        expect(res.json()).toMatchObject({ code: 1 });
        worst = Math.max(worst, performance.now() - started);
        polls++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const started = performance.now();
    const [done, refused] = await Promise.all([importFile(bank, "big.xlsx", big, true), importFile(bank, "hostile.xlsx", hostile, true)]);
    const took = performance.now() - started;
    stop = true;
    await poller;
    // Before, the event loop was held for the whole read (seconds); now only for slices of it.
    // The bound is generous for a loaded machine; the server's own goal is under 200 ms.
    console.info(`20,000-question import: ${Math.round(took)} ms; /api/health: ${polls} answers, the slowest ${Math.round(worst)} ms`);
    expect(polls).toBeGreaterThan(10);
    expect(worst).toBeLessThan(750);
    expect(done).toMatchObject({ code: 1, data: { count: 20_000, errorCount: 0, imported: 20_000 } });
    expect(refused).toMatchObject({ code: 0, msg: expect.stringMatching(/too large/) });
    expect(await count(bank)).toBe(20_000);
  }, 300_000);
});
