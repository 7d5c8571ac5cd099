import { PassThrough, Readable } from "node:stream";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type ExcelJS from "exceljs";
import yauzl from "yauzl";
import { z } from "zod";
import { OPTION_KEYS, checkQuestion, questionAdd, type QuestionAdd } from "../../../shared/admin/questions.ts";
import { QUESTION_TYPES, type QuestionOption, type QuestionType, type ShortAnswerKey } from "../../../shared/exam/types.ts";
import { dbIdParam, fieldMessage, withMessage, dbId } from "../../../shared/schema.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import type { Translate } from "../../i18n/index.ts";
import type { CrudContext, ExtraAction } from "../resource.ts";
import { loadExcel } from "./excel.ts";

/**
 * Questions as spreadsheets (`/admin/exam/question/template|export|import`): one question per
 * row after a header row, columns: type, stem, options A..H, answer, reference answer (short
 * answers), analysis, difficulty, score, status. The answer cell per type: single "B";
 * multiple "A,C"; judge "T" / "F"; fill one blank per line (or blanks separated by ";"), each
 * blank's accepted answers separated by "|"; short the keywords, one per line (or ";").
 * Import reads .xlsx with exceljs's streaming reader after a bounded pass over the zip (entry
 * count, real inflated sizes, cell addresses: a spreadsheet bomb is refused before parsing),
 * and UTF-8 .csv (a BOM is fine). A dry run reports every bad row by its line; the real import is
 * all or nothing (the action's transaction).
 */

/** Most questions one file may hold. */
export const MAX_IMPORT_ROWS = 20_000;
/** Most bytes of an uploaded file (after base64 decoding). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** Most bytes the .xlsx zip may inflate to, and most entries it may have. */
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 200;
/** Most bad rows listed in an answer (the count is always exact). */
const MAX_LISTED_ERRORS = 500;
/** Rows of the dry run's preview. */
const PREVIEW_ROWS = 20;

const COLUMN_COUNT = 2 + OPTION_KEYS.length + 6;
const COL = { type: 0, stem: 1, options: 2, answer: 10, reference: 11, analysis: 12, difficulty: 13, score: 14, status: 15 } as const;

function headers(t: Translate): string[] {
  return [
    t(msg`Type (single / multiple / judge / fill / short)`),
    t(msg`Question`),
    ...OPTION_KEYS.map((key) => t(msg`Option ${key}`)),
    t(msg`Answer`),
    t(msg`Reference answer (short answer)`),
    t(msg`Analysis`),
    t(msg`Difficulty (1-5)`),
    t(msg({ message: "Score", context: "the points a question is worth" })),
    t(msg`Status (enable / disable)`),
  ];
}

/** Splits an answer cell into blanks or keywords: one per line, else separated by ";". */
function splitList(cell: string): string[] {
  const parts = cell.includes("\n") ? cell.split(/\r?\n/) : cell.split(/[;；]/);
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** The answer cell of a stored question (what `splitList` reads back). */
function answerCell(type: QuestionType, answer: unknown): string {
  if (type === "multiple" && Array.isArray(answer)) return answer.join(",");
  if ((type === "fill" && Array.isArray(answer)) || (type === "short" && answer && typeof answer === "object")) {
    const list = type === "fill" ? (answer as string[]) : (answer as ShortAnswerKey).keywords;
    const text = list.join("\n");
    return list.length === 1 && /[;；]/.test(text) ? `${text}\n` : text;
  }
  return typeof answer === "string" ? answer : "";
}

const JUDGE: Record<string, "T" | "F"> = { t: "T", true: "T", yes: "T", "对": "T", "正确": "T", "是": "T", "√": "T", "✓": "T", f: "F", false: "F", no: "F", "错": "F", "错误": "F", "否": "F", "×": "F", "✗": "F" };

export interface SheetError {
  line: number;
  message: string;
}
export interface SheetRow {
  line: number;
  question: QuestionAdd;
}

type Refusal = MessageDescriptor;
const refuse = (message: Refusal): never => {
  throw new ApiError(message);
};

/** One cell as text; a formula is refused (its row is reported). */
function cellText(value: unknown): string | { formula: true } {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    const v = value as Record<string, unknown>;
    if ("formula" in v || "sharedFormula" in v) return { formula: true };
    if (Array.isArray(v.richText)) return v.richText.map((r: { text?: unknown }) => String(r.text ?? "")).join("");
    if (typeof v.text === "string") return v.text;
    if ("error" in v) return String(v.error);
  }
  return "";
}

/** Looks at every entry of the .xlsx zip, inflating it for real, and at the cell addresses of its sheets. */
async function inspectXlsx(data: Buffer): Promise<void> {
  const notSheet = msg`The file is not a spreadsheet (.xlsx or .csv)`;
  const bomb = msg`The spreadsheet is too large: at most 20,000 rows, 16 columns and 64 MB unpacked`;
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(data, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch {
    return refuse(notSheet);
  }
  let entries = 0;
  let total = 0;
  let hasWorkbook = false;
  let problem: Refusal | null = null;
  await new Promise<void>((resolve, reject) => {
    zip.on("error", () => {
      problem ??= notSheet;
      resolve();
    });
    zip.on("end", () => resolve());
    zip.on("entry", (entry: yauzl.Entry) => {
      if (++entries > MAX_ZIP_ENTRIES || entry.uncompressedSize > MAX_UNZIPPED_BYTES) {
        problem = bomb;
        zip.close();
        return resolve();
      }
      if (entry.fileName === "xl/workbook.xml") hasWorkbook = true;
      const isSheet = /^xl\/worksheets\/[^/]+\.xml$/.test(entry.fileName);
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) {
          problem ??= notSheet;
          zip.close();
          return resolve();
        }
        let tail = "";
        stream.on("data", (chunk: Buffer) => {
          total += chunk.length;
          if (total > MAX_UNZIPPED_BYTES) {
            problem = bomb;
            stream.destroy();
            return;
          }
          if (isSheet) {
            const text = tail + chunk.toString("latin1");
            // Cell and row addresses beyond the template's size would make the parser build huge rows.
            for (const m of text.matchAll(/<(?:\w+:)?c\b[^>]*?\br="([A-Z]+)(\d+)"/g)) {
              if (m[1]!.length > 1 || m[1]! > "Z" || Number(m[2]) > MAX_IMPORT_ROWS + 1) problem = bomb;
            }
            for (const m of text.matchAll(/<(?:\w+:)?row\b[^>]*?\br="(\d+)"/g)) if (Number(m[1]) > MAX_IMPORT_ROWS + 1) problem = bomb;
            tail = text.slice(-200);
            if (problem) stream.destroy();
          }
        });
        stream.on("error", () => {
          problem ??= notSheet;
          zip.close();
          resolve();
        });
        stream.on("close", () => {
          if (problem) {
            zip.close();
            return resolve();
          }
          zip.readEntry();
        });
      });
    });
    try {
      zip.readEntry();
    } catch (error) {
      reject(error);
    }
  });
  if (problem) refuse(problem);
  if (!hasWorkbook) refuse(notSheet);
}

/** The rows of the first worksheet of an .xlsx, as text cells (streamed). */
async function* xlsxRows(data: Buffer): AsyncGenerator<{ line: number; cells: (string | { formula: true })[] }> {
  await inspectXlsx(data);
  const Excel = await loadExcel();
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from([data]), { sharedStrings: "cache", hyperlinks: "ignore", styles: "ignore", worksheets: "emit", entries: "ignore" });
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      if (++sheets > 1) {
        // Only the first sheet holds questions; drain the rest.
        for await (const _row of sheet) void _row;
        continue;
      }
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        yield { line: row.number, cells: values.map(cellText) };
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    refuse(msg`The file is not a spreadsheet (.xlsx or .csv)`);
  }
  if (sheets === 0) refuse(msg`The spreadsheet has no sheet`);
}

/** Marks a CSV text cell that a spreadsheet program would run as a formula (export) / reads it back (import). */
const CSV_GUARDED = /^[=+\-@\t\r']/;
const guardCsv = (text: string) => (CSV_GUARDED.test(text) ? `'${text}` : text);

/** The rows of a UTF-8 CSV (a BOM is fine); a cell starting with "=" is a formula. */
async function* csvRows(data: Buffer): AsyncGenerator<{ line: number; cells: (string | { formula: true })[] }> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return refuse(msg`The CSV file is not UTF-8 text`);
  }
  if (text.includes("\u0000")) refuse(msg`The file is not a spreadsheet (.xlsx or .csv)`);
  const Excel = await loadExcel();
  const workbook = new Excel.Workbook();
  let sheet: ExcelJS.Worksheet;
  try {
    sheet = await workbook.csv.read(Readable.from([text]), { map: (value: unknown) => value, parserOptions: { maxRows: MAX_IMPORT_ROWS + 2, ignoreEmpty: false, discardUnmappedColumns: false } } as never);
  } catch {
    return refuse(msg`The CSV file cannot be read: check its quotes`);
  }
  if (sheet.rowCount > MAX_IMPORT_ROWS + 1) refuse(msg`The spreadsheet is too large: at most 20,000 rows, 16 columns and 64 MB unpacked`);
  for (let n = 1; n <= sheet.rowCount; n++) {
    const values = sheet.getRow(n).values;
    const cells = (Array.isArray(values) ? values.slice(1) : []).map((v) => {
      const s = typeof v === "string" ? v : v === null || v === undefined ? "" : String(v);
      if (s.startsWith("=")) return { formula: true as const };
      return s.startsWith("'") && CSV_GUARDED.test(s.slice(1)) ? s.slice(1) : s;
    });
    yield { line: n, cells };
  }
}

/** The type a cell names: its code, or a type's title in either language. */
async function typeNames(db: Queryable): Promise<{ names: Map<string, QuestionType>; defaults: Map<QuestionType, number> }> {
  const { rows } = await db.query<{ type: QuestionType; title: string; title_en: string; default_score: string }>("select type, title, title_en, default_score from exam_question_type");
  const names = new Map<string, QuestionType>();
  const defaults = new Map<QuestionType, number>();
  for (const t of QUESTION_TYPES) names.set(t, t);
  for (const r of rows) {
    names.set(r.title.trim().toLowerCase(), r.type);
    if (r.title_en) names.set(r.title_en.trim().toLowerCase(), r.type);
    defaults.set(r.type, Number(r.default_score));
  }
  return { names, defaults };
}

/** Reads a file's questions: the good rows, and every bad row with its line and reason. */
export async function readQuestionSheet(
  db: Queryable,
  t: Translate,
  file: { name: string; data: Buffer },
  classifyId: number,
): Promise<{ rows: SheetRow[]; errors: SheetError[]; errorCount: number }> {
  const ext = /\.([a-z]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  if (ext !== "xlsx" && ext !== "csv") refuse(msg`Choose an .xlsx or .csv file`);
  if (ext === "xlsx" && !(file.data[0] === 0x50 && file.data[1] === 0x4b && file.data[2] === 0x03 && file.data[3] === 0x04)) refuse(msg`The file is not a spreadsheet (.xlsx or .csv)`);
  const { names, defaults } = await typeNames(db);
  const rows: SheetRow[] = [];
  const errors: SheetError[] = [];
  let errorCount = 0;
  const bad = (line: number, reason: MessageDescriptor | string) => {
    errorCount++;
    const text = t(reason);
    if (errors.length < MAX_LISTED_ERRORS) errors.push({ line, message: t(msg`Row ${line}: ${text}`) });
  };
  let sawHeader = false;
  const source = ext === "xlsx" ? xlsxRows(file.data) : csvRows(file.data);
  for await (const { line, cells } of source) {
    if (line > MAX_IMPORT_ROWS + 1) refuse(msg`The spreadsheet is too large: at most 20,000 rows, 16 columns and 64 MB unpacked`);
    if (!sawHeader) {
      sawHeader = true;
      // The header row's words may be any language's; a question there means the header is missing.
      const first = cells[0];
      if (typeof first !== "string" || first.trim() === "" || names.has(first.trim().toLowerCase())) refuse(msg`The first row must be the template's header row`);
      continue;
    }
    if (cells.some((c) => typeof c === "object")) {
      bad(line, msg`formulas are not accepted: type the value itself`);
      continue;
    }
    const text = cells as string[];
    if (text.every((c) => c.trim() === "")) continue;
    if (text.slice(COLUMN_COUNT).some((c) => c.trim() !== "")) {
      bad(line, msg`there is something after the last column (Status)`);
      continue;
    }
    const cell = (i: number) => (text[i] ?? "").replace(/\r\n/g, "\n");
    const typeCell = cell(COL.type).trim();
    const type = names.get(typeCell.toLowerCase());
    if (!type) {
      bad(line, msg`the question type "${typeCell}" is unknown (single, multiple, judge, fill or short)`);
      continue;
    }
    const optionTexts = OPTION_KEYS.map((_, i) => cell(COL.options + i).trim());
    let last = optionTexts.length;
    while (last > 0 && optionTexts[last - 1] === "") last--;
    const options: QuestionOption[] = optionTexts.slice(0, last).map((text, i) => ({ key: OPTION_KEYS[i]!, text }));
    const answerText = cell(COL.answer).trim();
    let answer: unknown;
    if (type === "single") answer = answerText.toUpperCase();
    else if (type === "multiple") {
      const keys = (/^[A-Za-z]+$/.test(answerText) ? answerText.split("") : answerText.split(/[\s,，、;；]+/)).map((k) => k.trim().toUpperCase()).filter(Boolean);
      if (new Set(keys).size !== keys.length) {
        bad(line, msg`an option is given twice in the answer`);
        continue;
      }
      answer = keys.sort();
    } else if (type === "judge") answer = JUDGE[answerText.toLowerCase()] ?? answerText;
    else if (type === "fill") answer = splitList(cell(COL.answer)).map((b) => b.split("|").map((a) => a.trim()).join("|"));
    else answer = { keywords: splitList(cell(COL.answer)), reference: cell(COL.reference).trim() };
    const difficultyText = cell(COL.difficulty).trim();
    const scoreText = cell(COL.score).trim();
    const statusText = cell(COL.status).trim().toLowerCase();
    const status = statusText === "" || ["enable", "启用", "1", "on"].includes(statusText) ? "enable" : ["disable", "禁用", "0", "off"].includes(statusText) ? "disable" : statusText;
    const body = {
      classify_id: classifyId,
      type,
      stem: cell(COL.stem).trim(),
      options,
      answer,
      analysis: cell(COL.analysis).trim(),
      difficulty: difficultyText === "" ? 1 : Number(difficultyText),
      score: scoreText === "" ? (defaults.get(type) ?? 1) : Number(scoreText),
      status,
    };
    const parsed = questionAdd.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      bad(line, fieldMessage(questionAdd, issue.path as (string | number)[]) ?? msg`Incorrect parameter!`);
      continue;
    }
    const problem = checkQuestion({ type, stem: parsed.data.stem, options: parsed.data.options, answer: parsed.data.answer });
    if (problem) {
      bad(line, problem.message);
      continue;
    }
    rows.push({ line, question: parsed.data });
  }
  if (!sawHeader) refuse(msg`The file has no rows`);
  return { rows, errors, errorCount };
}

/** A bank's questions as a spreadsheet (the import's layout, the request's language for the header). */
export async function writeQuestionSheet(db: Queryable, t: Translate, classifyId: number | null, format: "xlsx" | "csv"): Promise<Buffer> {
  const { rows } =
    classifyId === null
      ? { rows: [] as QuestionRowOut[] }
      : await db.query<QuestionRowOut>(
          "select type, stem, options, answer, analysis, difficulty, score, status from exam_question where classify_id = $1 order by weigh desc, id",
          [classifyId],
        );
  const lines: string[][] = rows.map((q) => {
    const ref = q.type === "short" && q.answer && typeof q.answer === "object" && !Array.isArray(q.answer) ? (q.answer as ShortAnswerKey).reference : "";
    return [q.type, q.stem, ...OPTION_KEYS.map((_, i) => q.options[i]?.text ?? ""), answerCell(q.type, q.answer), ref, q.analysis, String(q.difficulty), String(Number(q.score)), q.status];
  });
  if (classifyId === null) lines.push(...templateRows(t));
  const head = headers(t);
  const Excel = await loadExcel();
  if (format === "csv") {
    const workbook = new Excel.Workbook();
    const sheet = workbook.addWorksheet("questions");
    sheet.addRow(head);
    for (const line of lines) sheet.addRow(line.map(guardCsv));
    const out = new PassThrough();
    const chunks: Buffer[] = [Buffer.from([0xef, 0xbb, 0xbf])];
    out.on("data", (c: Buffer) => chunks.push(c));
    await workbook.csv.write(out, { map: (v: unknown) => v } as never);
    return Buffer.concat(chunks);
  }
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on("end", resolve);
    out.on("error", reject);
  });
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true, useStyles: false });
  const sheet = workbook.addWorksheet("questions");
  sheet.addRow(head).commit();
  for (const line of lines) sheet.addRow(line).commit();
  sheet.commit();
  await workbook.commit();
  await done;
  return Buffer.concat(chunks);
}

interface QuestionRowOut {
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  answer: unknown;
  analysis: string;
  difficulty: number;
  score: string;
  status: string;
}

function templateRows(t: Translate): string[][] {
  const blank = (n: number) => Array.from({ length: n }, () => "");
  return [
    ["single", t(msg`Which planet is the largest?`), t(msg`Mars`), t(msg`Jupiter`), t(msg`Venus`), ...blank(5), "B", "", "", "1", "2", "enable"],
    ["multiple", t(msg`Which of these are prime numbers?`), "2", "4", "5", "9", ...blank(4), "A,C", "", "", "2", "4", "enable"],
    ["judge", t(msg`Water boils at 100 °C at sea level.`), ...blank(8), "T", "", "", "1", "1", "enable"],
    ["fill", t(msg`The People's Republic of China was founded in ____.`), ...blank(8), "1949|一九四九", "", "", "2", "2", "enable"],
    ["short", t(msg`Why do seasons change?`), ...blank(8), t(msg`tilt\norbit`), t(msg`The Earth's axis is tilted as it orbits the Sun.`), "", "3", "10", "enable"],
  ];
}

const format = withMessage(z.enum(["xlsx", "csv"]).optional().default("xlsx"), msg`Choose .xlsx or .csv`);

/** Inserts the rows (500 per statement), after the bank's newest update_time so its version changes. */
async function insertQuestions(tx: Queryable, classifyId: number, rows: SheetRow[]): Promise<void> {
  const { rows: times } = await tx.query<{ t: string }>(
    "select greatest(extract(epoch from now())::bigint, coalesce((select max(update_time) + 1 from exam_question where classify_id = $1), 0))::text as t",
    [classifyId],
  );
  const time = Number(times[0]!.t);
  for (let i = 0; i < rows.length; i += 500) {
    const part = rows.slice(i, i + 500);
    const params: unknown[] = [];
    const values = part.map(({ question: q }) => {
      const base = params.length;
      params.push(classifyId, q.type, q.stem, JSON.stringify(q.options), JSON.stringify(q.answer), q.analysis, q.difficulty, q.score, q.status, time);
      return `(${Array.from({ length: 10 }, (_, k) => `$${base + k + 1}`).join(", ")})`;
    });
    await tx.query(`insert into exam_question (classify_id, type, stem, options, answer, analysis, difficulty, score, status, update_time) values ${values.join(", ")}`, params);
  }
}

async function bankExists(ctx: CrudContext, id: number): Promise<void> {
  const { rows } = await ctx.tx.query("select 1 from exam_classify where id = $1", [id]);
  if (rows.length === 0) refuse(msg`The question bank does not exist`);
}

const fileName = (id: number | null, fmt: string) => (id === null ? `questions-template.${fmt}` : `questions-bank-${id}.${fmt}`);
const mime = (fmt: string) => (fmt === "csv" ? "text/csv" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");

/** Base64 of at most MAX_IMPORT_BYTES bytes. */
const base64 = z
  .string()
  .max(Math.ceil(MAX_IMPORT_BYTES / 3) * 4 + 4)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/);

export const questionSheetActions: Record<string, ExtraAction> = {
  template: {
    method: "GET",
    rule: "exam/question/import",
    input: z.object({ format }),
    async run(ctx, input) {
      const { format: fmt } = input as { format: "xlsx" | "csv" };
      const data = await writeQuestionSheet(ctx.tx, ctx.req.t, null, fmt);
      return { name: fileName(null, fmt), type: mime(fmt), data: data.toString("base64") };
    },
  },
  export: {
    method: "GET",
    input: z.object({ classify_id: withMessage(dbIdParam, msg`Please choose a question bank`), format }),
    async run(ctx, input) {
      const { classify_id, format: fmt } = input as { classify_id: number; format: "xlsx" | "csv" };
      await bankExists(ctx, classify_id);
      const data = await writeQuestionSheet(ctx.tx, ctx.req.t, classify_id, fmt);
      return { name: fileName(classify_id, fmt), type: mime(fmt), data: data.toString("base64") };
    },
  },
  import: {
    method: "POST",
    bodyLimit: Math.ceil(MAX_IMPORT_BYTES / 3) * 4 + 64 * 1024,
    input: z.object({
      classify_id: withMessage(dbId, msg`Please choose a question bank`),
      name: withMessage(z.string().min(1).max(255), msg`Choose an .xlsx or .csv file`),
      data: withMessage(base64, msg`The file is too large (at most 10 MB)`),
      confirm: z.boolean().optional().default(false),
    }),
    async run(ctx, input) {
      const { classify_id, name, data, confirm } = input as { classify_id: number; name: string; data: string; confirm: boolean };
      await bankExists(ctx, classify_id);
      const file = Buffer.from(data, "base64");
      if (file.length === 0) refuse(msg`The file is empty`);
      if (file.length > MAX_IMPORT_BYTES) refuse(msg`The file is too large (at most 10 MB)`);
      const { rows, errors, errorCount } = await readQuestionSheet(ctx.tx, ctx.req.t, { name, data: file }, classify_id);
      const preview = rows.slice(0, PREVIEW_ROWS).map((r) => ({ line: r.line, type: r.question.type, stem: r.question.stem, score: r.question.score }));
      const report = { count: rows.length, errorCount, errors, preview };
      if (!confirm) return { ...report, imported: 0 };
      if (errorCount > 0) throw new ApiError(msg`Nothing was imported: correct the rows listed and try again`, 0, report);
      if (rows.length === 0) refuse(msg`The file has no questions`);
      await insertQuestions(ctx.tx, classify_id, rows);
      return { ...report, imported: rows.length };
    },
  },
};
