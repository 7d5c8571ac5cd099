import { PassThrough } from "node:stream";
import type ExcelJS from "exceljs";

let loading: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded by the first spreadsheet import or export rather than at start-up: requiring it
 * (and its zip, CSV and XML dependencies) took about 0.4 s of every server start, for screens only
 * staff open now and then. A failed load is not kept, so the next request tries again.
 */
export function loadExcel(): Promise<typeof ExcelJS> {
  loading ??= import("exceljs").then(
    (module) => ((module as { default?: typeof ExcelJS }).default ?? (module as unknown as typeof ExcelJS)),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Marks a CSV text cell that a spreadsheet program would run as a formula (export); sheet-worker.mjs reads it back. */
const CSV_GUARDED = /^[=+\-@\t\r']/;
const guardCsv = (text: string) => (CSV_GUARDED.test(text) ? `'${text}` : text);

/**
 * A sheet of text rows under a header row, as .xlsx (streamed, shared strings) or as UTF-8 CSV
 * with a BOM (spreadsheet programs then read it as UTF-8) whose formula-like cells are guarded.
 */
export async function writeSheet(sheetName: string, head: readonly string[], lines: readonly (readonly string[])[], format: "xlsx" | "csv"): Promise<Buffer> {
  const Excel = await loadExcel();
  if (format === "csv") {
    const workbook = new Excel.Workbook();
    const sheet = workbook.addWorksheet(sheetName);
    sheet.addRow([...head]);
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
  const sheet = workbook.addWorksheet(sheetName);
  sheet.addRow([...head]).commit();
  for (const line of lines) sheet.addRow([...line]).commit();
  sheet.commit();
  await workbook.commit();
  await done;
  return Buffer.concat(chunks);
}
