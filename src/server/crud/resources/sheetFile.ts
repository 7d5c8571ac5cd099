import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { withMessage } from "../../../shared/schema.ts";
import { ApiError } from "../../errors.ts";
import type { Translate } from "../../i18n/index.ts";
import type { CrudContext, ExtraAction } from "../resource.ts";

/**
 * What every spreadsheet action (`template`, `export`, `import`) takes and answers: the format,
 * the template and the file to import as base64 in JSON (the exports are streamed downloads:
 * export.ts, sendRows), and the import's checks of the uploaded file's size.
 */

/** Most bytes of an uploaded file (after base64 decoding). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

export type SheetFormat = "xlsx" | "csv";

/** `?format=`: .xlsx unless .csv is asked for. */
export const sheetFormat = withMessage(z.enum(["xlsx", "csv"]).optional().default("xlsx"), msg`Choose .xlsx or .csv`);

/** A sheet as an action answers it: the client saves it under `name`. */
export const sheetFile = (name: string, format: SheetFormat, data: Buffer) => ({
  name,
  type: format === "csv" ? "text/csv" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  data: data.toString("base64"),
});

/** `GET template?format=` under the import's `rule`: the file `write` makes, saved as `name`. */
export const sheetTemplateAction = (rule: string, name: (format: SheetFormat) => string, write: (ctx: CrudContext, format: SheetFormat) => Promise<Buffer>): ExtraAction => ({
  method: "GET",
  rule,
  input: z.object({ format: sheetFormat }),
  async run(ctx, input) {
    const { format } = input as { format: SheetFormat };
    return sheetFile(name(format), format, await write(ctx, format));
  },
});

/** Base64 of at most MAX_IMPORT_BYTES bytes. */
const base64 = z
  .string()
  .max(Math.ceil(MAX_IMPORT_BYTES / 3) * 4 + 4)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/);

/** The import's body limit: the largest file's base64 and room for the rest. */
export const SHEET_IMPORT_BODY_LIMIT = Math.ceil(MAX_IMPORT_BYTES / 3) * 4 + 64 * 1024;

/** The import's body fields for the file: its name, its bytes in base64, and whether to import or only check. */
export const sheetImportFields = {
  name: withMessage(z.string().min(1).max(255), msg`Choose an .xlsx or .csv file`),
  data: withMessage(base64, msg`The file is too large (at most 10 MB)`),
  confirm: z.boolean().optional().default(false),
};

export interface SheetImportInput {
  name: string;
  data: string;
  confirm: boolean;
}

/** The uploaded file's bytes (decoded); an empty or too large file is refused. */
export function uploadedSheet(file: Buffer): Buffer {
  if (file.length === 0) throw new ApiError(msg`The file is empty`);
  if (file.length > MAX_IMPORT_BYTES) throw new ApiError(msg`The file is too large (at most 10 MB)`);
  return file;
}

/** Most bad rows listed in an answer (the count is always exact). */
const MAX_LISTED_ERRORS = 500;

export interface SheetError {
  line: number;
  message: string;
}

/**
 * A file's bad rows: `bad(line, reason)` counts every one in `found.errorCount` and lists the
 * first MAX_LISTED_ERRORS in `found.errors` as "Row n: reason", in the request's language.
 */
export function sheetErrors(t: Translate) {
  const found = { errors: [] as SheetError[], errorCount: 0 };
  const bad = (line: number, reason: MessageDescriptor | string) => {
    found.errorCount++;
    const text = t(reason);
    if (found.errors.length < MAX_LISTED_ERRORS) found.errors.push({ line, message: t(msg`Row ${line}: ${text}`) });
  };
  return { found, bad };
}
