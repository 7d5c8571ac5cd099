import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { request } from "../../api/index.ts";
import { downloadFile } from "../../api/download.ts";
import type { CrudRow, ListData, Operator, SearchItem, SearchKind } from "./types.ts";

/** The controller URL of a resource's action: "auth/admin" + "index" -> "/admin/auth/admin/index". */
export function crudUrl(path: string, action: string): string {
  return `/admin/${path.replace(/^\/+|\/+$/g, "")}/${action}`;
}

/** The operator a search input of this kind sends (API.md): text LIKE, select eq, number and datetime RANGE. */
export function operatorOf(kind: SearchKind): Operator {
  return kind === "text" ? "LIKE" : kind === "select" ? "eq" : "RANGE";
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** The list's query: what the admin chose on the screen. */
export interface ListQuery {
  page: number;
  limit: number;
  /** "field,asc|desc", or "" for the server's default. */
  order: string;
  quickSearch: string;
  search: SearchItem[];
}

/**
 * The query string of `GET index`, as flat keys in the bracket form the server's query parser
 * reads (`search[0][field]=name&search[0][val]=x&search[0][operator]=LIKE`). Empty parts are
 * left out.
 */
export function listParams(query: ListQuery): Record<string, string | number> {
  const params: Record<string, string | number> = { page: query.page, limit: query.limit };
  if (query.order) params.order = query.order;
  if (query.quickSearch.trim()) params.quickSearch = query.quickSearch.trim();
  query.search.forEach((item, i) => {
    params[`search[${i}][field]`] = item.field;
    params[`search[${i}][val]`] = item.val;
    params[`search[${i}][operator]`] = item.operator;
  });
  return params;
}

export const crudKeys = {
  all: (path: string) => ["crud", path] as const,
  list: (path: string, query: ListQuery) => ["crud", path, "list", query] as const,
  row: (path: string, id: number) => ["crud", path, "row", id] as const,
};

/** Most pages a whole-tree list reads (100 rows each). */
const TREE_PAGES = 20;

/**
 * The list's page; with `whole` (tree screens) every matching row, read page after page, so a
 * branch is never cut by paging.
 */
export function useCrudList(path: string, query: ListQuery, whole = false) {
  return useQuery({
    queryKey: whole ? [...crudKeys.list(path, { ...query, page: 1, limit: 100 }), "whole"] : crudKeys.list(path, query),
    queryFn: async ({ signal }) => {
      if (!whole) return (await request<ListData>({ url: crudUrl(path, "index"), method: "get", params: listParams(query), signal })).data;
      const list: CrudRow[] = [];
      let first: ListData | null = null;
      for (let page = 1; page <= TREE_PAGES; page++) {
        const data = (await request<ListData>({ url: crudUrl(path, "index"), method: "get", params: listParams({ ...query, page, limit: 100 }), signal }, { cancelDuplicateRequest: false })).data;
        first ??= data;
        list.push(...data.list);
        if (data.list.length < 100 || list.length >= data.total) break;
      }
      return { ...first!, list };
    },
    placeholderData: keepPreviousData,
  });
}

/** The row the edit form starts from (`GET edit?id=`), fresh each time the form opens. */
export function useCrudRow(path: string, id: number | null) {
  return useQuery({
    queryKey: crudKeys.row(path, id ?? 0),
    queryFn: async ({ signal }) => (await request<{ row: CrudRow }>({ url: crudUrl(path, "edit"), method: "get", params: { id }, signal })).data.row,
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** A write to the resource; the list is fetched again after it succeeds. */
function useCrudWrite<T>(path: string, send: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(path) }),
  });
}

export function useCrudSave(path: string) {
  return useCrudWrite(path, ({ id, values }: { id: number | null; values: Record<string, unknown> }) =>
    request(
      { url: crudUrl(path, id === null ? "add" : "edit"), method: "post", data: id === null ? values : { ...values, id } },
      // The form shows the server's refusal beside its fields, not in a toast.
      { showCodeMessage: false, showSuccessMessage: true },
    ),
  );
}

export function useCrudDelete(path: string) {
  return useCrudWrite(path, (ids: number[]) => request({ url: crudUrl(path, "del"), method: "delete", params: { ids } }, { showSuccessMessage: true }));
}

export function useCrudSort(path: string) {
  return useCrudWrite(path, ({ id, targetId }: { id: number; targetId: number }) => request({ url: crudUrl(path, "sortable"), method: "post", data: { id, targetId } }));
}

/** Options of a remote select: rows matching what the admin typed (`select=1`). */
export function useRemoteOptions(path: string, quickSearch: string, enabled: boolean) {
  return useQuery({
    queryKey: ["crud", path, "select", quickSearch] as const,
    queryFn: async ({ signal }) =>
      (await request<ListData>({ url: crudUrl(path, "index"), method: "get", params: { select: 1, quickSearch, page: 1, limit: 20 }, signal }, { cancelDuplicateRequest: false })).data.list,
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * The current value's row of a remote select, so the form shows its label before the admin
 * searches (`select=1` with `initKey`/`initValue`, API.md's preload).
 */
export function useRemoteInitial(path: string, valueField: string, value: unknown) {
  const has = value !== null && value !== undefined && value !== "" && value !== 0;
  return useQuery({
    queryKey: ["crud", path, "select-init", valueField, String(value)] as const,
    queryFn: async ({ signal }) =>
      (await request<ListData>({ url: crudUrl(path, "index"), method: "get", params: { select: 1, initKey: valueField, initValue: String(value), page: 1, limit: 1 }, signal }, { cancelDuplicateRequest: false })).data.list[0] ?? null,
    enabled: has,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * Per-field messages of a refused save, when the server sent them: `data.fields` as
 * `{field: message}` (or a list of `{field, msg}`). Null when the refusal names no field.
 */
export function fieldErrorsOf(data: unknown): Record<string, string> | null {
  if (!data || typeof data !== "object") return null;
  const fields = (data as { fields?: unknown }).fields;
  const out: Record<string, string> = {};
  if (Array.isArray(fields)) {
    for (const item of fields) {
      if (item && typeof item === "object" && typeof item.field === "string" && typeof item.msg === "string") out[item.field] = item.msg;
    }
  } else if (fields && typeof fields === "object") {
    for (const [field, message] of Object.entries(fields)) if (typeof message === "string") out[field] = message;
  }
  return Object.keys(out).length ? out : null;
}

export type ExportFormat = "csv" | "xlsx";

/**
 * The query of `GET exportList`: the list's search, quick search and order without its page (the
 * export holds every page), the file's format and the zone its times are written in.
 */
export function exportParams(query: ListQuery, format: ExportFormat): Record<string, string | number> {
  const { page: _page, limit: _limit, ...params } = listParams(query);
  return { ...params, format, tz: Intl.DateTimeFormat().resolvedOptions().timeZone };
}

/**
 * Downloads the list as the admin's search shows it (every page) as a CSV or .xlsx file. A
 * refusal (too many rows, no permission) arrives as the envelope instead of the file: its message
 * is shown as any request's is, and the promise rejects with it. An expired token is renewed by
 * an ordinary request (the blob answer bypasses the request layer's renewal) and the export asked once more.
 */
export async function downloadExport(path: string, query: ListQuery, format: ExportFormat): Promise<string> {
  return downloadFile(crudUrl(path, "exportList"), exportParams(query, format), path, format, crudUrl(path, "index"));
}

