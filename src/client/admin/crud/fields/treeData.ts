import { useQuery } from "@tanstack/react-query";
import { request } from "../../../api/index.ts";
import { crudUrl } from "../api.ts";
import type { CrudRow, ListData } from "../types.ts";

/** The server's largest page (MAX_LIST_LIMIT); a tree field reads the pages one after another. */
const PAGE = 100;
/** A tree field gives up past this many rows (a picker of thousands is not a picker). */
const MAX_PAGES = 20;

/**
 * Every row of a (tree) resource as a remote select sees it (`select=1`, its select fields),
 * read page by page, for the tree select and the checkbox tree. Shares the "crud <path>" key,
 * so a write to that resource reloads it.
 */
export function useAllRows(path: string) {
  return useQuery({
    queryKey: ["crud", path, "select-all"] as const,
    queryFn: async ({ signal }) => {
      const rows: CrudRow[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const data = (await request<ListData>({ url: crudUrl(path, "index"), method: "get", params: { select: 1, page, limit: PAGE }, signal }, { cancelDuplicateRequest: false })).data;
        rows.push(...data.list);
        if (data.list.length < PAGE || rows.length >= data.total) break;
      }
      return rows;
    },
    staleTime: 30_000,
  });
}

/** A tree field's label of a row: a field, or a function of the row and the UI language. */
export type RowLabel = string | ((row: CrudRow, locale: string) => string);

export function labelOf(row: CrudRow, label: RowLabel, locale: string): string {
  return typeof label === "function" ? label(row, locale) : String(row[label] ?? row.id);
}
