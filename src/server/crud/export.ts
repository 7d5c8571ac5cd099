import { PassThrough, Readable, type Writable } from "node:stream";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { FastifyBaseLogger, FastifyReply } from "fastify";
import type { CategoryTree } from "../../shared/admin/categoryTree.ts";
import { courseCategoryTree } from "../../shared/admin/courses.ts";
import { MAX_EXPORT_ROWS, type ExportQuery } from "../../shared/admin/crud.ts";
import { STATUS_OPTIONS, type FieldOption, type ResourceDecl, type SharedFieldType } from "../../shared/admin/fields.ts";
import { questionBankTree } from "../../shared/admin/questions.ts";
import { declarations } from "../../shared/admin/resources/index.ts";
import { wallClockIn } from "../../shared/time.ts";
import { ApiError } from "../errors.ts";
import type { Translate } from "../i18n/index.ts";
import { listSource } from "./query.ts";
import { loadExcel } from "./resources/excel.ts";
import type { CrudContext, ResourceDef, Row } from "./resource.ts";

/**
 * A list as a file (`GET /admin/<rule>/exportList?format=csv|xlsx`, the list's rule): every row
 * the list's search, quick search and order match (not only the page shown), through the list's
 * own query (query.ts), so the company scope and the resource's default conditions hold as they
 * do on screen. Columns and headers are the declaration's (shared/admin/resources/), in the
 * admin's language, choices as their labels, times on the reader's clock. Rows are read in
 * batches, each its own short query, written as they come: a long export never holds the
 * embedded database, so other requests are answered between its batches.
 */

/** How many rows one query of an export reads; and the most rows one export may write. Tests lower them. */
export const EXPORT_LIMITS = { batch: 1000, rows: MAX_EXPORT_ROWS };

/** Column names that hold secrets (a password's hash, a salt, a token): never written, whatever a declaration lists. */
const SECRET = /password|salt|token|secret/i;

/** Times as the back office writes them (2026-11-27 17:45:46). */
const DATE_TIME_FORMAT = "yyyy-mm-dd hh:mm:ss";

export interface ExportColumn {
  /** The row's value to write. */
  key: string;
  header: MessageDescriptor | string;
  type?: SharedFieldType;
  /** Values shown as their labels (an enum, a status, a tag). */
  options?: readonly FieldOption[];
  /** Cents written as yuan (12.34). */
  cents?: true;
}

/** A declared list's columns, in the screen's order (hidden ones too: they are part of the list). */
function declaredColumns(decl: ResourceDecl): ExportColumn[] {
  return decl.columns.flatMap((column): ExportColumn[] => {
    if ("hook" in column) return [{ key: column.hook, header: column.label, ...(column.options ? { options: column.options } : {}) }];
    const field = decl.fields[column.field]!;
    const header = column.label ?? field.label;
    if (!header) return [];
    // A choice of another resource's row (a group, a company) is written as that row's name, which the list joins in beside it.
    const name = column.remote && column.field.endsWith("_id") ? `${column.field.slice(0, -"_id".length)}_name` : null;
    if (name && decl.fields[name]) return [{ key: name, header }];
    return [{ key: column.field, header, type: field.type, ...(field.options ? { options: field.options } : {}), ...(field.cents ? { cents: true } : {}) }];
  });
}

/** A category tree's columns, as its screen lists them (admin/crud/categoryTree.ts). */
function treeColumns(tree: CategoryTree): ExportColumn[] {
  return [
    { key: "id", header: msg`ID`, type: "int" },
    { key: "title", header: tree.labels.title },
    { key: "title_en", header: tree.labels.title_en },
    ...(tree.choice ? [{ key: tree.choice.field, header: tree.choice.label }] : []),
    { key: "weigh", header: msg`Weight`, type: "int" },
    { key: "status", header: msg`Status`, options: STATUS_OPTIONS },
    { key: "create_time", header: msg`Created`, type: "time" },
    { key: "update_time", header: msg`Updated`, type: "time" },
  ];
}

const COLUMNS = new Map<string, ExportColumn[]>([
  ...declarations.map((decl): [string, ExportColumn[]] => [decl.rule, declaredColumns(decl)]),
  ...[courseCategoryTree, questionBankTree].map((tree): [string, ExportColumn[]] => [tree.rule, treeColumns(tree)]),
]);

/** The columns of a resource's export: its declaration's, else (a generated resource) its list fields by name; never a secret. */
export function exportColumnsOf(def: ResourceDef): ExportColumn[] {
  const declared = COLUMNS.get(def.rule);
  const columns = declared ?? Object.entries(def.fields).map(([key, field]): ExportColumn => ({ key, header: key, type: field.type }));
  return columns.filter((c) => !SECRET.test(c.key));
}

type Cell = string | number | Date | null;

/** A hook's value (a list of groups, a count with details) as one cell's text. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(textOf).filter((v) => v !== "").join(", ");
  if (typeof value === "object") {
    const named = value as { name?: unknown; title?: unknown };
    if (typeof named.name === "string") return named.name;
    if (typeof named.title === "string") return named.title;
    return JSON.stringify(value);
  }
  return String(value);
}

/** One value as its cell: a label for a choice, a date for a time, a number for a number, else text. */
function cellOf(column: ExportColumn, value: unknown, t: Translate, wallClock: (seconds: number) => Date): Cell {
  if (value === null || value === undefined || value === "") return null;
  if (column.options) {
    const option = column.options.find((o) => String(o.value) === String(value));
    if (option) return t(option.label);
  }
  if (typeof value === "boolean") return t(value ? msg`Yes` : msg`No`);
  switch (column.type) {
    case "time": {
      const seconds = Number(value);
      return Number.isFinite(seconds) && seconds > 0 ? wallClock(seconds) : null;
    }
    case "date":
      return value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
    case "int":
    case "bigint": {
      const n = Number(value);
      if (!Number.isSafeInteger(n)) return String(value);
      return column.cents ? n / 100 : n;
    }
  }
  if (typeof value === "number") return value;
  return textOf(value);
}

/** A CSV text cell a spreadsheet program would run as a formula gets a leading '. */
const FORMULA = /^[=+\-@\t\r]/;
/**
 * In a file an import reads back (the sheets), a cell that starts with ' is guarded too:
 * crud/resources/sheet-worker.mjs takes one leading ' off a guarded cell, so every cell reads back as written.
 */
const FORMULA_OR_GUARD = /^[=+\-@\t\r']/;

function csvField(cell: Cell, column: ExportColumn | undefined, guarded: RegExp): string {
  if (cell === null) return "";
  if (cell instanceof Date) return cell.toISOString().slice(0, 19).replace("T", " ");
  if (typeof cell === "number") return column?.cents ? cell.toFixed(2) : String(cell);
  const text = guarded.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (cells: readonly Cell[], columns: readonly ExportColumn[], guarded: RegExp) => `${cells.map((cell, i) => csvField(cell, columns[i], guarded)).join(",")}\r\n`;

const MIME = { csv: "text/csv; charset=utf-8", xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" } as const;

/**
 * Answers the export: refuses (code 0, nothing sent) a search the list would refuse or one that
 * matches more than EXPORT_LIMITS.rows rows, else streams the file.
 */
export async function sendExport(ctx: CrudContext, def: ResourceDef, query: ExportQuery, reply: FastifyReply): Promise<unknown> {
  const source = listSource(ctx, def, { quickSearch: query.quickSearch, order: query.order, search: query.search });
  const total = await source.count();
  const cap = EXPORT_LIMITS.rows;
  if (total > cap) throw new ApiError(msg`The search matches ${total} rows; one export writes at most ${cap}. Narrow the search and export again.`);
  // The matching rows' ids in the list's order, once (one sort); then their rows by id, batch
  // after batch (paging by offset would sort the whole list again for every batch).
  const ids = await source.ids(cap);
  async function* rows(): AsyncGenerator<Row[]> {
    for (let from = 0; from < ids.length; from += EXPORT_LIMITS.batch) yield await source.rowsOf(ids.slice(from, from + EXPORT_LIMITS.batch));
  }
  return sendRows(reply, { t: ctx.req.t, log: ctx.req.log, format: query.format, tz: query.tz, title: def.title, name: def.rule, columns: exportColumnsOf(def), rows: rows() });
}

/**
 * A table's rows for a file, EXPORT_LIMITS.batch a query, each batch read after the last row of
 * the one before (keyset: `read(after, limit)`, `after` null for the first), as `toRow` writes
 * them: however many rows there are, one batch is held at a time and each query is short.
 */
export async function* keysetBatches<T, K>(read: (after: K | null, limit: number) => Promise<T[]>, keyOf: (row: T) => K, toRow: (row: T) => Row): AsyncGenerator<Row[]> {
  for (let after: K | null = null; ; ) {
    const limit = EXPORT_LIMITS.batch;
    const batch = await read(after, limit);
    if (batch.length === 0) return;
    after = keyOf(batch.at(-1)!);
    yield batch.map(toRow);
    if (batch.length < limit) return;
  }
}

export interface RowsFile {
  t: Translate;
  log: FastifyBaseLogger;
  format: "csv" | "xlsx";
  /** The reader's time zone (times are written on its clock). */
  tz?: string | undefined;
  /** The sheet's name. */
  title: MessageDescriptor | string;
  /** The file's name before its day, e.g. `user/user` (`user-user-2026-11-28.csv`). */
  name: string;
  columns: readonly ExportColumn[];
  /** The rows, batch after batch. */
  rows: AsyncIterable<Row[]>;
  /** An import reads the file back (the member and question sheets): see FORMULA_OR_GUARD. */
  importable?: true;
}

/**
 * Streams rows as a CSV (UTF-8 with a BOM, formula-like text guarded) or XLSX file (text cells
 * never formulas): the writer of every list export, of the reports (modules/report) and of the
 * member and question sheets (their exports and templates).
 */
export function sendRows(reply: FastifyReply, file: RowsFile): FastifyReply {
  const day = wallClockIn(file.tz)(Math.floor(Date.now() / 1000)).toISOString().slice(0, 10);
  reply
    .header("content-type", MIME[file.format])
    .header("content-disposition", `attachment; filename="${file.name.replace(/[^A-Za-z0-9_]+/g, "-")}-${day}.${file.format}"`)
    .header("cache-control", "no-store");
  const stream = rowsStream(file);
  stream.on("error", (error: unknown) => file.log.error({ err: error, export: file.name }, "export failed"));
  return reply.send(stream);
}

/** The file's bytes as they come, batch after batch: what sendRows sends, and writeSheet keeps. */
function rowsStream(file: Omit<RowsFile, "log" | "name">): Readable {
  const { t, columns, format } = file;
  const wallClock = wallClockIn(file.tz);
  const headers = columns.map((c) => t(c.header));
  const guarded = file.importable ? FORMULA_OR_GUARD : FORMULA;
  async function* batches(): AsyncGenerator<Cell[][]> {
    let first = true;
    for await (const rows of file.rows) {
      // A turn of the event loop between batches: the database's answers and the writes of the file
      // resolve as promises only, which would otherwise keep timers and other requests waiting until the end.
      if (!first) await new Promise((resolve) => setImmediate(resolve));
      first = false;
      yield rows.map((row) => columns.map((c) => cellOf(c, row[c.key], t, wallClock)));
    }
  }

  if (format === "csv") {
    // The BOM tells spreadsheet programs the text is UTF-8 (Chinese names read right in Excel).
    async function* text(): AsyncGenerator<string> {
      yield `\ufeff${csvLine(headers, [], guarded)}`;
      for await (const cells of batches()) yield cells.map((row) => csvLine(row, columns, guarded)).join("");
    }
    // One batch's text read ahead, not Readable.from's 16: what waits for the reader stays one batch.
    return Readable.from(text(), { highWaterMark: 1 });
  }

  const out = new PassThrough();
  const gone = new Promise((resolve) => out.once("close", resolve));
  const write = async () => {
    const ExcelJS = await loadExcel();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet(t(file.title).slice(0, 31).replace(/[*?:\\/[\]]/g, " ") || "export");
    sheet.columns = columns.map((c, i) => ({
      header: headers[i]!,
      key: c.key,
      width: c.type === "time" ? 20 : Math.min(40, Math.max(10, headers[i]!.length + 2)),
      ...(c.type === "time" ? { style: { numFmt: DATE_TIME_FORMAT } } : c.cents ? { style: { numFmt: "0.00" } } : {}),
    }));
    // Text is written as text cells: a leading "=" never becomes a formula.
    for await (const cells of batches()) {
      for (const row of cells) sheet.addRow(row).commit();
      // Lets the zip take in, and the response drain, what was written so far before the next batch.
      await zipped(sheet, gone);
      if (out.writableNeedDrain) await drained(out, gone);
      // The reader went away (a closed tab): nothing more to read or write.
      if (out.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  };
  void write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

/** Until `stream` has written out what it holds, or it or the response (`gone`) is gone. */
function drained(stream: Writable, gone: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done).off("close", done).off("error", done);
      resolve();
    };
    stream.on("drain", done).on("close", done).on("error", done);
    void gone.then(done);
  });
}

/** The most of a sheet's XML left waiting for the zip before the next batch of rows is written. */
const ZIP_BACKLOG = 256 * 1024;

/**
 * Until the zip has taken in the sheet's XML written so far (but ZIP_BACKLOG). exceljs's streaming
 * writer (4.4) hands each sheet's XML to the zip's entry stream without waiting for it
 * (node_modules/exceljs/lib/utils/stream-buf.js ignores `write()`'s answer), so rows written faster than they are deflated
 * queued there: 68 MB of XML for an export of 100,000 rows, the peak growing with the rows. That
 * entry stream is the sheet stream's pipe (`pipes`), a Node stream (readable-stream) whose
 * `_writableState.length` is what it holds.
 */
async function zipped(sheet: object, gone: Promise<unknown>): Promise<void> {
  const pipes = (sheet as { stream?: { pipes?: Writable[] } }).stream?.pipes ?? [];
  for (const entry of pipes) {
    const held = (entry as { _writableState?: { length?: number } })._writableState?.length ?? 0;
    if (held > ZIP_BACKLOG && !entry.destroyed) await drained(entry, gone);
  }
}

/**
 * A small sheet of text rows under a header row, whole in memory (a template): the same file
 * the streamed exports write (cells as text, the CSV guarded for the import).
 */
export async function writeSheet(t: Translate, title: string, head: readonly string[], lines: readonly (readonly string[])[], format: "xlsx" | "csv"): Promise<Buffer> {
  const columns = head.map((header, i): ExportColumn => ({ key: String(i), header }));
  const rows = lines.map((line) => Object.fromEntries(line.map((cell, i) => [String(i), cell])) as Row);
  async function* once(): AsyncGenerator<Row[]> {
    yield rows;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of rowsStream({ t, format, title, columns, rows: once(), importable: true })) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
