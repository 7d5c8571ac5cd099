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
