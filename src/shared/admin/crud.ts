import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { timeZone } from "../push.ts";
import { dbId, dbIdParam, safeText, withMessage } from "../schema.ts";

/**
 * The generic CRUD protocol of the back office (API.md "Admin calls"), for a resource at
 * `/admin/<rule path>/`: `GET index`, `GET edit?id=`, `POST add`, `POST edit`, `DELETE del?ids[]=`,
 * `POST sortable {id, targetId}`. The server checks every field and operator against the
 * resource's allow-list; these are the wire shapes both sides use.
 */

/** Every search operator of API.md. */
export const SEARCH_OPERATORS = ["eq", "ne", "gt", "egt", "lt", "elt", "LIKE", "NOT LIKE", "IN", "NOT IN", "NULL", "NOT NULL", "RANGE", "NOT RANGE"] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

/** Most search items in one list request. */
export const MAX_SEARCH_ITEMS = 20;
/** Largest page size of `GET index`. */
export const MAX_LIST_LIMIT = 100;
/** Page size when none is given. */
export const DEFAULT_LIST_LIMIT = 10;
/** Most ids in one `DELETE del` or one IN list. */
export const MAX_IDS = 100;

/**
 * One search condition: `val` is text ("a,b" for RANGE / NOT RANGE with one side possibly empty,
 * "1,2,3" for IN / NOT IN; an array is taken too) and is checked against the field's type on
 * the server. `operator` is checked against the allow-list there, so it is plain text here.
 */
export const searchItem = z.object({
  field: safeText(64),
  val: z.union([safeText(1000), z.array(safeText(200)).max(MAX_IDS), z.number(), z.boolean(), z.null()]).optional(),
  operator: safeText(16).optional(),
  render: safeText(32).optional(),
});
export type SearchItem = z.infer<typeof searchItem>;

const intParam = (min: number, max: number) => z.union([z.coerce.number().int().min(min).max(max), z.literal("")]);

/** The query of `GET index` (bracketed query keys, `search[0][field]=...`, arrive nested). */
export const listQuery = z.object({
  page: withMessage(intParam(1, 1_000_000).optional(), msg`The page number is not valid`),
  limit: withMessage(intParam(1, MAX_LIST_LIMIT).optional(), msg`The page size must be between 1 and 100`),
  quickSearch: withMessage(safeText(100).optional(), msg`The quick search text is too long`),
  order: withMessage(safeText(80).optional(), msg`The order is not valid`),
  search: withMessage(z.array(searchItem).max(MAX_SEARCH_ITEMS).optional(), msg`The search conditions are not valid`),
  select: z.union([z.literal("1"), z.literal("0"), z.literal("true"), z.literal("false")]).optional(),
  initKey: safeText(64).optional(),
  initValue: z.union([safeText(1000), z.array(safeText(200)).max(MAX_IDS)]).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

/** Most rows one export of a list writes: a larger one is refused, asking for a narrower search. */
export const MAX_EXPORT_ROWS = 100_000;
export const EXPORT_FORMATS = ["csv", "xlsx"] as const;

/**
 * `GET exportList` (the list's rule): the list's quick search, search and order as `GET index`
 * takes them, every page of it, as a `format` file; `tz` the zone its times are written in.
 */
export const exportQuery = listQuery.pick({ quickSearch: true, order: true, search: true }).extend({
  format: withMessage(z.enum(EXPORT_FORMATS), msg`Choose .xlsx or .csv`),
  tz: timeZone.optional(),
});
export type ExportQuery = z.infer<typeof exportQuery>;

/** `GET index` answers `{list, total, remark}`: `list` the page's rows, `total` all matching rows. */
export interface ListAnswer<Row> {
  list: Row[];
  total: number;
  remark: string;
}

/** `GET edit?id=` answers `{row}`. */
export interface EditAnswer<Row> {
  row: Row;
}

export const editQuery = z.object({ id: withMessage(dbIdParam, msg`Please choose a row`) });

/** `DELETE del?ids[]=1&ids[]=2` (or `ids=1,2`). */
export const delQuery = z.object({
  ids: withMessage(
    z.preprocess(
      (value) => (typeof value === "string" ? value.split(",") : typeof value === "number" ? [value] : value),
      z.array(dbIdParam).min(1).max(MAX_IDS),
    ),
    msg`Please choose the rows to delete`,
  ),
});

/** `POST sortable {id, targetId}`: swaps the two rows' `weigh`. */
export const sortableBody = z.object({
  id: withMessage(dbId, msg`Please choose a row`),
  targetId: withMessage(dbId, msg`Please choose the row to swap with`),
});
