import { Worker } from "node:worker_threads";
import type { FastifyReply } from "fastify";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { OPTION_KEYS, checkQuestion, questionAdd, type QuestionAdd } from "../../../shared/admin/questions.ts";
import { QUESTION_TYPES, type QuestionOption, type QuestionType, type ShortAnswerKey } from "../../../shared/exam/types.ts";
import { dbIdParam, fieldMessage, withMessage, dbId } from "../../../shared/schema.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import type { Translate } from "../../i18n/index.ts";
import { keysetBatches, sendRows, writeSheet } from "../export.ts";
import type { CrudContext, ExtraAction } from "../resource.ts";
import { bankExists, nextQuestionTime } from "./exam.repository.ts";
import { SHEET_IMPORT_BODY_LIMIT, sheetFormat, sheetErrors, sheetImportFields, sheetTemplateAction, uploadedSheet, type SheetError, type SheetFormat, type SheetImportInput } from "./sheetFile.ts";
import { insertQuestionRows, questionsOfBank, questionTypeRows, type QuestionRowOut } from "./questionSheet.repository.ts";
import { actAs } from "../../modules/exam/versions.ts";

/**
 * Questions as spreadsheets (`/admin/exam/question/template|export|import`): one question per
 * row after a header row, columns: type, stem, options A..H, answer, reference answer (short
 * answers), analysis, difficulty, score, status. The answer cell per type: single "B";
 * multiple "A,C"; judge "T" / "F"; fill one blank per line (or blanks separated by ";"), each
 * blank's accepted answers separated by "|"; short the keywords, one per line (or ";").
 * Import reads .xlsx with exceljs's streaming reader after a bounded pass over the zip (entry
 * count, real inflated sizes and their ratio to the file, XML elements, rows, cells per row, cell
 * addresses: a spreadsheet bomb is refused before parsing), and UTF-8 .csv (a BOM is fine), on a
 * thread of its own (sheet-worker.mjs), before the action's transaction opens: the server keeps
 * answering meanwhile. A dry run reports every bad row by its line; the real import is all or
 * nothing (the action's transaction, which only inserts).
 */

/** Most questions one file may hold. */
export const MAX_IMPORT_ROWS = 20_000;
/** Most bytes the .xlsx zip may inflate to, and most entries it may have. */
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 200;
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

export interface SheetRow {
  line: number;
  question: QuestionAdd;
}

type Refusal = MessageDescriptor;
const refuse = (message: Refusal): never => {
  throw new ApiError(message);
};

type Cells = (string | { formula: true })[];
type Reason = "notSheet" | "tooLarge" | "noSheet" | "notUtf8" | "csvQuotes" | "busy";
type WorkerMessage = { type: "rows"; rows: { line: number; cells: Cells }[] } | { type: "end"; sheets: number } | { type: "refuse"; reason: Reason };

const TOO_LARGE = msg`The spreadsheet is too large or too complex: at most 20,000 rows, 26 columns (A to Z) and 64 MB unpacked`;
const REFUSALS: Record<Reason, MessageDescriptor> = {
  notSheet: msg`The file is not a spreadsheet (.xlsx or .csv)`,
  tooLarge: TOO_LARGE,
  noSheet: msg`The spreadsheet has no sheet`,
  notUtf8: msg`The CSV file is not UTF-8 text`,
  csvQuotes: msg`The CSV file cannot be read: check its quotes`,
  busy: msg`The server is busy reading other spreadsheets: try again in a minute`,
};

/** The bounds sheet-worker.mjs checks before any XML is parsed (docs/architecture.md, "Security limits"): each keeps exceljs from building millions of objects. */
export const SHEET_LIMITS = {
  rows: MAX_IMPORT_ROWS,
  /** Columns A..Z (the template has 16). */
  columns: 26,
  unzipped: MAX_UNZIPPED_BYTES,
  entries: MAX_ZIP_ENTRIES,
  /** XML elements of all the parts together (a 20,000-question sheet of the template has about 0.7 million; its sheet can have at most 1.1 million). */
  elements: 2_000_000,
  /** Inflated bytes per byte of the file (a 20,000-question sheet: about 12), beyond `ratioAllowance`. */
  ratio: 100,
  ratioAllowance: 4 * 1024 * 1024,
};
/** Longest a spreadsheet may take to read, most files waiting for their turn, how long an idle reader thread stays. */
const READ_TIMEOUT_MS = 120_000;
const MAX_WAITING = 4;
const IDLE_MS = 60_000;
/** The reader thread's heap (a 20,000-question sheet needs about 150 MB): a file that needs more is too large. */
const READER_HEAP_MB = 512;

type Job = { id: number; rows: { line: number; cells: Cells }[]; settle: (error: unknown) => void };
interface Reader {
  worker: Worker;
  job: Job | null;
  idle: NodeJS.Timeout | null;
}
let reader: Reader | null = null;
let reading = false;
let nextJob = 1;
const waiting: (() => void)[] = [];

/** The reader thread (sheet-worker.mjs), started on first use; it ends after IDLE_MS without work, and never keeps the process alive. */
function readerThread(): Reader {
  if (reader) return reader;
  const worker = new Worker(new URL("./sheet-worker.mjs", import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB }, stdout: true, stderr: true });
  worker.unref();
  const self: Reader = { worker, job: null, idle: null };
  const gone = (error: unknown) => {
    if (reader === self) reader = null;
    if (self.idle) clearTimeout(self.idle);
    self.job?.settle(error);
  };
  worker.on("message", (message: WorkerMessage & { id: number }) => {
    const job = self.job;
    if (!job || message.id !== job.id) return;
    if (message.type === "rows") for (const row of message.rows) job.rows.push(row);
    else job.settle(message.type === "end" ? null : new ApiError(REFUSALS[message.reason] ?? REFUSALS.notSheet));
  });
  // Out of its heap (ERR_WORKER_OUT_OF_MEMORY) the file is too large; any other failure: not a spreadsheet.
  worker.on("error", (error: NodeJS.ErrnoException) => gone(new ApiError(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? TOO_LARGE : REFUSALS.notSheet)));
  worker.on("exit", () => gone(new ApiError(REFUSALS.notSheet)));
  reader = self;
  return self;
}

/**
 * The rows of an .xlsx (its first sheet) or a CSV as text cells, read on a thread of its own
 * (sheet-worker.mjs): taking a 64 MB sheet apart never holds up the event loop, and a file
 * beyond SHEET_LIMITS is refused before its XML is parsed. One file is read at a time; a few
 * wait for their turn, more are refused.
 */
export async function readSheetCells(kind: "xlsx" | "csv", data: Buffer): Promise<{ line: number; cells: Cells }[]> {
  if (reading) {
    if (waiting.length >= MAX_WAITING) refuse(REFUSALS.busy);
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  reading = true;
  try {
    return await readOnThread(kind, data);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else reading = false;
  }
}

function readOnThread(kind: "xlsx" | "csv", data: Buffer): Promise<{ line: number; cells: Cells }[]> {
  const thread = readerThread();
  if (thread.idle) clearTimeout(thread.idle);
  thread.idle = null;
  return new Promise((resolve, reject) => {
    const job: Job = {
      id: nextJob++,
      rows: [],
      settle: (error) => {
        if (thread.job !== job) return;
        thread.job = null;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(job.rows);
        if (reader === thread) {
          thread.idle = setTimeout(() => void thread.worker.terminate(), IDLE_MS);
          thread.idle.unref();
        }
      },
    };
    // A file that takes too long ends the thread (the next file gets a fresh one).
    const timer = setTimeout(() => {
      job.settle(new ApiError(msg`The spreadsheet took too long to read: split it into smaller files`));
      if (reader === thread) reader = null;
      void thread.worker.terminate();
    }, READ_TIMEOUT_MS);
    thread.job = job;
    thread.worker.postMessage({ id: job.id, kind, data: new Uint8Array(data), limits: SHEET_LIMITS });
  });
}

/** Lets the event loop answer other requests between slices of a long loop. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The type a cell names: its code, or a type's title in either language. */
async function typeNames(db: Queryable): Promise<{ names: Map<string, QuestionType>; defaults: Map<QuestionType, number> }> {
  const rows = await questionTypeRows(db);
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
  if (ext !== "xlsx" && ext !== "csv") return refuse(msg`Choose an .xlsx or .csv file`);
  if (ext === "xlsx" && !(file.data[0] === 0x50 && file.data[1] === 0x4b && file.data[2] === 0x03 && file.data[3] === 0x04)) refuse(msg`The file is not a spreadsheet (.xlsx or .csv)`);
  const { names, defaults } = await typeNames(db);
  const rows: SheetRow[] = [];
  const { found, bad } = sheetErrors(t);
  let sawHeader = false;
  const source = await readSheetCells(ext, file.data);
  let n = 0;
  for (const { line, cells } of source) {
    // Checking 20,000 rows takes a while: other requests are answered between slices.
    if (++n % 250 === 0) await breathe();
    if (line > MAX_IMPORT_ROWS + 1) refuse(TOO_LARGE);
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
  return { rows, ...found };
}

/** A question's row of the sheet, in the import's layout. */
function questionLine(q: QuestionRowOut): string[] {
  const ref = q.type === "short" && q.answer && typeof q.answer === "object" && !Array.isArray(q.answer) ? (q.answer as ShortAnswerKey).reference : "";
  return [q.type, q.stem, ...OPTION_KEYS.map((_, i) => q.options[i]?.text ?? ""), answerCell(q.type, q.answer), ref, q.analysis, String(q.difficulty), String(Number(q.score)), q.status];
}

/** The template: the header row in the request's language and an example question of each type. */
export function questionTemplate(t: Translate, format: SheetFormat): Promise<Buffer> {
  return writeSheet(t, "questions", headers(t), templateRows(t), format);
}

/**
 * A bank's questions as a sheet in the import's layout (the request's language for the header),
 * streamed: a batch of questions a query, in the order members practise them.
 */
function sendQuestionSheet(ctx: CrudContext, classifyId: number, format: SheetFormat, reply: FastifyReply): FastifyReply {
  const t = ctx.req.t;
  const head = headers(t);
  const columns = head.map((header, i) => ({ key: String(i), header }));
  const rows = keysetBatches(
    (after: { weigh: number; id: number } | null, limit) => questionsOfBank(ctx.tx, classifyId, after, limit),
    (q) => ({ weigh: q.weigh, id: q.id }),
    (q) => ({ ...questionLine(q) }),
  );
  return sendRows(reply, { t, log: ctx.req.log, format, title: "questions", name: `questions-bank-${classifyId}`, columns, rows, importable: true });
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

/** Inserts the rows (500 per statement), after the bank's newest update_time so its version changes. */
async function insertQuestions(tx: Queryable, classifyId: number, rows: SheetRow[]): Promise<void> {
  const time = await nextQuestionTime(tx, [classifyId]);
  for (let i = 0; i < rows.length; i += 500) {
    await insertQuestionRows(tx, classifyId, rows.slice(i, i + 500).map((r) => r.question), time);
  }
}

async function requireBankExists(ctx: CrudContext, id: number): Promise<void> {
  if (!(await bankExists(ctx.tx, id))) refuse(msg`The question bank does not exist`);
}

interface ImportInput extends SheetImportInput {
  classify_id: number;
}

export const questionSheetActions: Record<string, ExtraAction> = {
  /** `GET template?format=`: the header row and an example question of each type (small: base64 in the envelope). */
  template: sheetTemplateAction("exam/question/import", (fmt) => `questions-template.${fmt}`, (ctx, fmt) => questionTemplate(ctx.req.t, fmt)),
  /** `GET export?classify_id=&format=`: the bank's questions in the import's layout, as a download. */
  export: {
    method: "GET",
    input: z.object({ classify_id: withMessage(dbIdParam, msg`Please choose a question bank`), format: sheetFormat }),
    run: async () => null,
    async send(ctx, input, reply) {
      const { classify_id, format: fmt } = input as { classify_id: number; format: SheetFormat };
      await requireBankExists(ctx, classify_id);
      return sendQuestionSheet(ctx, classify_id, fmt, reply);
    },
  },
  import: {
    method: "POST",
    bodyLimit: SHEET_IMPORT_BODY_LIMIT,
    input: z.object({ classify_id: withMessage(dbId, msg`Please choose a question bank`), ...sheetImportFields }),
    // The file is read before the transaction opens (crud/resource.ts, ExtraAction.prepare).
    async prepare(ctx, input) {
      const { classify_id, name, data } = input as ImportInput;
      await requireBankExists(ctx, classify_id);
      return readQuestionSheet(ctx.tx, ctx.req.t, { name, data: uploadedSheet(Buffer.from(data, "base64")) }, classify_id);
    },
    async run(ctx, input, prepared) {
      const { classify_id, confirm } = input as ImportInput;
      const { rows, errors, errorCount } = prepared as Awaited<ReturnType<typeof readQuestionSheet>>;
      const preview = rows.slice(0, PREVIEW_ROWS).map((r) => ({ line: r.line, type: r.question.type, stem: r.question.stem, score: r.question.score }));
      const report = { count: rows.length, errorCount, errors, preview };
      if (!confirm) return { ...report, imported: 0 };
      if (errorCount > 0) throw new ApiError(msg`Nothing was imported: correct the rows listed and try again`, 0, report);
      if (rows.length === 0) refuse(msg`The file has no questions`);
      // The bank may have gone while the file was read.
      await requireBankExists(ctx, classify_id);
      await actAs(ctx.tx, ctx.admin.id);
      await insertQuestions(ctx.tx, classify_id, rows);
      return { ...report, imported: rows.length };
    },
  },
};
