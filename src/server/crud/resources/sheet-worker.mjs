// Reads uploaded spreadsheets (questionSheet.ts, readSheetCells) on a thread of its own, one at
// a time, so that the server's event loop keeps answering while a large or hostile file is taken
// apart. The thread stays while files keep coming (exceljs takes 0.4 s or more to load) and is
// ended by the parent when idle, when a file takes too long, or when it runs out of its heap.
//
// Plain JavaScript: it runs as it is from src/ (tests) and from dist/server (every server build
// emits it next to main.js: vite.config.ts, serverWorkers).
//
// A job: { id, kind: "xlsx" | "csv", data: Uint8Array, limits: { rows, columns, unzipped,
// entries, elements, ratio, ratioAllowance } }. Messages to the parent, each with the job's id:
//   { id, type: "rows", rows: [{ line, cells }] }   in batches; a cell is text or { formula: true }
//   { id, type: "end", sheets }                     the file was read
//   { id, type: "refuse", reason }                  notSheet | tooLarge | noSheet | notUtf8 | csvQuotes
//
// An .xlsx is first checked over its zip without parsing any XML: entry count, real inflated
// sizes (and their ratio to the file's size), and, in every XML part, the number of elements
// and, in the sheets, the number of rows, of cells per row and every row and cell address. Only
// what passes goes to exceljs's streaming reader, which would otherwise build an object for
// every element (63 MB of `<row/>` kept it busy for 21 s).
import { createRequire } from "node:module";
import { Readable } from "node:stream";
import { parentPort } from "node:worker_threads";
import yauzl from "yauzl";

const BATCH = 1000;

/**
 * exceljs (4.4) turns each inflated chunk of an .xlsx part into text on its own
 * (node_modules/exceljs/lib/utils/browser-buffer-decode.js: one TextDecoder, without `stream`), so a character whose UTF-8
 * bytes a chunk's end cut in two came back as two U+FFFD: about one Chinese name in 3,000 read
 * wrong, and importing an export "changed" those members. Its bufferToString is replaced, before
 * the rest of exceljs takes it (parse-sax.js), by one that keeps a cut character's first bytes for
 * the next chunk; each file starts a fresh decoder (every part of a good file ends on a whole
 * character).
 */
let decoder = new TextDecoder("utf-8");
const newDecoder = () => {
  decoder = new TextDecoder("utf-8");
};
function decodeChunksWhole() {
  const decode = createRequire(import.meta.url)("exceljs/lib/utils/browser-buffer-decode.js");
  if (typeof decode.bufferToString !== "function") throw new Error("exceljs: utils/browser-buffer-decode.js has no bufferToString");
  decode.bufferToString = (chunk) => (typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
}

/** exceljs, loaded by the first file that gets past the checks. */
let excel;
const loadExcel = async () => {
  excel ??= Promise.resolve()
    .then(decodeChunksWhole)
    .then(() => import("exceljs"))
    .then((module) => module.default ?? module);
  return excel;
};

class Refusal extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

/** One cell as text; a formula is marked (its row is reported). */
function cellText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    if ("formula" in value || "sharedFormula" in value) return { formula: true };
    if (Array.isArray(value.richText)) return value.richText.map((r) => String(r?.text ?? "")).join("");
    if (typeof value.text === "string") return value.text;
    if ("error" in value) return String(value.error);
  }
  return "";
}

// An element's start: its (prefixed) name, then its attributes up to its end (XML attribute values cannot hold "<").
const ELEMENT = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)([^<>]*)/g;
const ADDRESS = /(?:^|\s)r\s*=\s*(["'])(.*?)\1/;
const CELL = /^([A-Z]+)(\d+)$/;
const ROW = /^\d+$/;

/** Counts the elements of one XML part as it is inflated, chunk by chunk; in a sheet, also its rows and cells. */
function xmlScanner(limits, isSheet, counts) {
  let carry = "";
  let cellsInRow = 0;
  const scan = (text) => {
    for (const m of text.matchAll(ELEMENT)) {
      if (++counts.elements > limits.elements) throw new Refusal("tooLarge");
      if (!isSheet) continue;
      const name = m[1];
      if (name === "row") {
        if (++counts.rows > limits.rows + 1) throw new Refusal("tooLarge");
        cellsInRow = 0;
        const r = ADDRESS.exec(m[2]);
        if (r && (!ROW.test(r[2]) || Number(r[2]) > limits.rows + 1)) throw new Refusal("tooLarge");
      } else if (name === "c") {
        if (++cellsInRow > limits.columns) throw new Refusal("tooLarge");
        const r = ADDRESS.exec(m[2]);
        if (r) {
          // Addresses beyond the template's size would make the parser build huge rows.
          const a = CELL.exec(r[2]);
          if (!a || a[1].length > 1 || a[1].charCodeAt(0) - 64 > limits.columns || Number(a[2]) > limits.rows + 1) throw new Refusal("tooLarge");
        }
      }
    }
  };
  return {
    push(chunk) {
      const text = carry + chunk.toString("latin1");
      // An element cut by the chunk's end is scanned with the next chunk.
      const last = text.lastIndexOf("<");
      const cut = last !== -1 && text.indexOf(">", last) === -1 ? last : text.length;
      carry = text.slice(cut);
      if (carry.length > 64 * 1024) throw new Refusal("tooLarge");
      scan(cut === text.length ? text : text.slice(0, cut));
    },
    end() {
      scan(carry);
      carry = "";
    },
  };
}

/** Looks at every entry of the .xlsx zip, inflating it for real, before any of it is parsed. */
async function inspectXlsx(data, limits) {
  let zip;
  try {
    zip = await yauzl.fromBufferPromise(data, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch {
    throw new Refusal("notSheet");
  }
  // Inflated bytes at most `ratio` times the file's size (plus a small allowance), and never over `unzipped`.
  const budget = Math.min(limits.unzipped, Math.max(limits.ratioAllowance, data.length * limits.ratio));
  const counts = { entries: 0, total: 0, elements: 0, rows: 0 };
  let hasWorkbook = false;
  await new Promise((resolve, reject) => {
    const fail = (error) => {
      zip.close();
      reject(error instanceof Refusal ? error : new Refusal("notSheet"));
    };
    zip.on("error", fail);
    zip.on("end", resolve);
    zip.on("entry", (entry) => {
      if (++counts.entries > limits.entries || entry.uncompressedSize > budget) return fail(new Refusal("tooLarge"));
      if (entry.fileName === "xl/workbook.xml") hasWorkbook = true;
      const isXml = /\.(xml|rels)$/i.test(entry.fileName);
      const scanner = isXml ? xmlScanner(limits, /^xl\/worksheets\/[^/]+\.xml$/.test(entry.fileName), counts) : null;
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return fail(err);
        let failed = false;
        stream.on("data", (chunk) => {
          if (failed) return;
          try {
            counts.total += chunk.length;
            if (counts.total > budget) throw new Refusal("tooLarge");
            scanner?.push(chunk);
          } catch (error) {
            failed = true;
            stream.destroy();
            fail(error);
          }
        });
        stream.on("error", (error) => {
          if (failed) return;
          failed = true;
          fail(error);
        });
        stream.on("end", () => {
          if (failed) return;
          try {
            scanner?.end();
          } catch (error) {
            failed = true;
            return fail(error);
          }
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  if (!hasWorkbook) throw new Refusal("notSheet");
}

/** Sends a job's rows in batches. */
function sender(id) {
  let batch = [];
  const flush = () => {
    if (batch.length) parentPort.postMessage({ id, type: "rows", rows: batch });
    batch = [];
  };
  return {
    flush,
    emit(line, cells) {
      batch.push({ line, cells });
      if (batch.length >= BATCH) flush();
    },
  };
}

/** The rows of the first worksheet, as text cells (streamed). */
async function readXlsx(data, limits, { emit }) {
  await inspectXlsx(data, limits);
  const ExcelJS = await loadExcel();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), { sharedStrings: "cache", hyperlinks: "ignore", styles: "ignore", worksheets: "emit", entries: "ignore" });
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      if (++sheets > 1) {
        // Only the first sheet holds questions; drain the rest.
        for await (const _row of sheet) void _row;
        continue;
      }
      for await (const row of sheet) {
        if (row.number > limits.rows + 1) throw new Refusal("tooLarge");
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        emit(row.number, Array.from(values, cellText));
      }
    }
  } catch (error) {
    throw error instanceof Refusal ? error : new Refusal("notSheet");
  }
  if (sheets === 0) throw new Refusal("noSheet");
  return sheets;
}

/** Marks a CSV text cell that a spreadsheet program would run as a formula (the sheets' exports guard them so: export.ts, FORMULA_OR_GUARD). */
const CSV_GUARDED = /^[=+\-@\t\r']/;

/** The rows of a UTF-8 CSV (a BOM is fine); a cell starting with "=" is a formula. */
async function readCsv(data, limits, { emit }) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    throw new Refusal("notUtf8");
  }
  if (text.includes("\u0000")) throw new Refusal("notSheet");
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  let sheet;
  try {
    sheet = await workbook.csv.read(Readable.from([text]), { map: (value) => value, parserOptions: { maxRows: limits.rows + 2, ignoreEmpty: false, discardUnmappedColumns: false } });
  } catch {
    throw new Refusal("csvQuotes");
  }
  if (sheet.rowCount > limits.rows + 1) throw new Refusal("tooLarge");
  for (let n = 1; n <= sheet.rowCount; n++) {
    const values = sheet.getRow(n).values;
    const cells = (Array.isArray(values) ? values.slice(1) : []).map((v) => {
      const s = typeof v === "string" ? v : v === null || v === undefined ? "" : String(v);
      if (s.startsWith("=")) return { formula: true };
      return s.startsWith("'") && CSV_GUARDED.test(s.slice(1)) ? s.slice(1) : s;
    });
    emit(n, cells);
  }
  return 1;
}

parentPort.on("message", async ({ id, kind, data: bytes, limits }) => {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = sender(id);
  newDecoder();
  try {
    const sheets = kind === "xlsx" ? await readXlsx(data, limits, out) : await readCsv(data, limits, out);
    out.flush();
    parentPort.postMessage({ id, type: "end", sheets });
  } catch (error) {
    parentPort.postMessage({ id, type: "refuse", reason: error instanceof Refusal ? error.reason : "notSheet" });
  }
});
