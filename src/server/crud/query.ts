import { msg } from "@lingui/core/macro";
import { sql, type Expression, type RawBuilder, type SqlBool } from "kysely";
import { DEFAULT_LIST_LIMIT, MAX_IDS, SEARCH_OPERATORS, type ListQuery, type SearchItem, type SearchOperator } from "../../shared/admin/crud.ts";
import { DB_INT_MAX, DB_INT_MIN } from "../../shared/schema.ts";
import { ApiError } from "../errors.ts";
import { scopeCondition } from "./scope.ts";
import type { AnyTables, CrudContext, FieldDef, ResourceDef, Row } from "./resource.ts";
import type { Kysely } from "kysely";

/**
 * The one place a list request becomes SQL (Kysely): every field, operator and order is checked
 * against the resource's allow-list, and every value is a parameter. A bad request is an
 * ApiError (code 0, a translated message naming what is wrong), before any query runs.
 */

const ORDERED: ReadonlySet<string> = new Set(["int", "bigint", "time", "date"]);
const MAX_BIGINT = 999_999_999_999_999;

function operatorsOf(field: FieldDef): readonly SearchOperator[] {
  if (field.operators) return field.operators;
  return SEARCH_OPERATORS.filter((op) => {
    if (op === "LIKE" || op === "NOT LIKE") return field.type === "text";
    if (["gt", "egt", "lt", "elt", "RANGE", "NOT RANGE"].includes(op)) return ORDERED.has(field.type);
    return true;
  });
}

const invalidValue = (name: string) => new ApiError(msg`The search value of ${name} is not valid`);

/** A search value read as the field's type; throws for a value of another type. */
export function readValue(name: string, field: FieldDef, raw: unknown): unknown {
  const text = typeof raw === "number" || typeof raw === "boolean" ? String(raw) : typeof raw === "string" ? raw.trim() : null;
  if (text === null) throw invalidValue(name);
  switch (field.type) {
    case "int":
      if (/^-?\d{1,10}$/.test(text) && Number(text) >= DB_INT_MIN && Number(text) <= DB_INT_MAX) return Number(text);
      break;
    case "bigint":
      if (/^-?\d{1,15}$/.test(text) && Math.abs(Number(text)) <= MAX_BIGINT) return Number(text);
      break;
    case "time": {
      // Unix seconds, or a date / date-time (ISO 8601, "2024-01-31 08:00:00" in UTC unless an offset is given).
      if (/^\d{1,12}$/.test(text)) return Number(text);
      const iso = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
      if (iso) {
        const withZone = iso[4] ? text.replace(" ", "T") : `${text.replace(" ", "T")}${iso[1] ? "" : "T00:00:00"}Z`;
        const ms = Date.parse(withZone);
        if (Number.isFinite(ms)) return Math.floor(ms / 1000);
      }
      break;
    }
    case "date":
      if (/^\d{4}-\d{2}-\d{2}$/.test(text) && Number.isFinite(Date.parse(`${text}T00:00:00Z`))) return text;
      break;
    case "bool":
      if (["1", "true"].includes(text)) return true;
      if (["0", "false"].includes(text)) return false;
      break;
    case "enum":
      if (field.values?.includes(text)) return text;
      break;
    case "text":
      if (text.length <= 200) return typeof raw === "string" ? raw : text;
      break;
  }
  throw invalidValue(name);
}

/** `a%b_c\` -> `a\%b\_c\\`: the user's text matched literally inside LIKE. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const ref = (column: string) => sql.ref(column);
/** A text field's column as `ilike` reads it: a text column itself (its trigram index serves it), anything else as its text. */
const asText = (field: FieldDef) => (field.type === "text" ? ref(field.column) : sql`${ref(field.column)}::text`);

function listOf(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw === "string") return raw.split(",");
  if (typeof raw === "number") return [raw];
  return [];
}

/** One search item -> a condition. */
export function condition(def: ResourceDef, item: SearchItem): RawBuilder<SqlBool> {
  const name = item.field;
  const field = Object.hasOwn(def.fields, name) ? def.fields[name] : undefined;
  if (!field) throw new ApiError(msg`The field ${name} cannot be searched`);
  const operator = (item.operator ?? "eq") as SearchOperator;
  if (!(SEARCH_OPERATORS as readonly string[]).includes(operator) || !operatorsOf(field).includes(operator)) {
    const op = item.operator ?? "";
    throw new ApiError(msg`The operator ${op} cannot be used on ${name}`);
  }
  const col = ref(field.column);
  const one = () => readValue(name, field, item.val);
  switch (operator) {
    case "eq":
      return sql<SqlBool>`${col} = ${one()}`;
    case "ne":
      return sql<SqlBool>`${col} <> ${one()}`;
    case "gt":
      return sql<SqlBool>`${col} > ${one()}`;
    case "egt":
      return sql<SqlBool>`${col} >= ${one()}`;
    case "lt":
      return sql<SqlBool>`${col} < ${one()}`;
    case "elt":
      return sql<SqlBool>`${col} <= ${one()}`;
    case "LIKE":
    case "NOT LIKE": {
      const text = readValue(name, field, item.val) as string;
      const pattern = `%${escapeLike(text)}%`;
      return operator === "LIKE" ? sql<SqlBool>`${asText(field)} ilike ${pattern}` : sql<SqlBool>`${asText(field)} not ilike ${pattern}`;
    }
    case "IN":
    case "NOT IN": {
      const values = listOf(item.val).filter((v) => !(typeof v === "string" && v.trim() === ""));
      if (values.length === 0 || values.length > MAX_IDS) throw invalidValue(name);
      const list = sql.join(values.map((v) => readValue(name, field, v)));
      return operator === "IN" ? sql<SqlBool>`${col} in (${list})` : sql<SqlBool>`${col} not in (${list})`;
    }
    case "NULL":
      return sql<SqlBool>`${col} is null`;
    case "NOT NULL":
      return sql<SqlBool>`${col} is not null`;
    case "RANGE":
    case "NOT RANGE": {
      const sides = listOf(item.val);
      if (sides.length !== 2) throw invalidValue(name);
      const [lo, hi] = sides.map((v) => (v === null || (typeof v === "string" && v.trim() === "") ? null : readValue(name, field, v)));
      if (lo === null && hi === null) throw invalidValue(name);
      if (operator === "RANGE") {
        if (lo === null) return sql<SqlBool>`${col} <= ${hi}`;
        if (hi === null) return sql<SqlBool>`${col} >= ${lo}`;
        return sql<SqlBool>`${col} between ${lo} and ${hi}`;
      }
      if (lo === null) return sql<SqlBool>`${col} > ${hi}`;
      if (hi === null) return sql<SqlBool>`${col} < ${lo}`;
      return sql<SqlBool>`${col} not between ${lo} and ${hi}`;
    }
  }
}

/** "field,asc|desc" (default the resource's), with `id` breaking ties (ascending under a weight). */
export function orderOf(def: ResourceDef, order: string | undefined): { column: string; dir: "asc" | "desc" }[] {
  const [name, dir] = order && order.trim() !== "" ? order.trim().split(",") : (def.defaultOrder ?? ["id", "desc"]);
  const field = name !== undefined && Object.hasOwn(def.fields, name) ? def.fields[name] : undefined;
  const direction = (dir ?? "desc").trim().toLowerCase();
  if (!field || (direction !== "asc" && direction !== "desc")) {
    throw new ApiError(msg`The list cannot be ordered this way`);
  }
  const result = [{ column: field.column, dir: direction as "asc" | "desc" }];
  // Rows of equal weight keep the order they were made in, as every member screen and the menus
  // show them (`weigh desc, id`); any other ordering breaks its ties the same way it runs.
  if (field.column !== "t.id") result.push({ column: "t.id", dir: field.column === "t.weigh" ? "asc" : (direction as "asc" | "desc") });
  return result;
}

const isOn = (flag: string | undefined) => flag === "1" || flag === "true";

/**
 * A quick search: the text anywhere in any of the resource's quick-search fields (case-insensitive,
 * `%` and `_` literal), a number field (an id) only when the text is that number. Each text field is
 * `column ilike '%text%'`, which a trigram index on the column serves (migration 0058: the
 * questions' stems, the members' names, email and mobile), OR-ed into one bitmap.
 */
function quickCondition(def: ResourceDef, quick: string): RawBuilder<SqlBool> {
  const pattern = `%${escapeLike(quick)}%`;
  const matches = def.quickSearch.flatMap((name) => {
    const field = def.fields[name]!;
    if (field.type !== "int" && field.type !== "bigint") return [sql<SqlBool>`${asText(field)} ilike ${pattern}`];
    try {
      return [sql<SqlBool>`${ref(field.column)} = ${readValue(name, field, quick)}`];
    } catch {
      return []; // not a number: no id is this text
    }
  });
  return matches.length === 0 ? sql<SqlBool>`false` : sql<SqlBool>`(${sql.join(matches, sql` or `)})`;
}

/**
 * The table of figures (ResourceDef.counted) that answers a list whose conditions read these
 * columns, or null: each must be one of its columns of the resource's own table (`t.<column>`,
 * the same name there), so every condition reads the same values in both and the sum of the
 * matching figures is the number of matching rows.
 */
function countedBy(def: ResourceDef, read: ReadonlySet<string>): string | null {
  if (!def.counted) return null;
  const columns = new Set(def.counted.columns.map((c) => `t.${c}`));
  return [...read].every((c) => columns.has(c)) ? def.counted.table : null;
}

/**
 * The rows a list request matches, before paging: its conditions (search, the resource's default
 * search, company scope, quick search, a remote select's preload), its order and its fields. The
 * list's page and the export of the whole list (export.ts) both read it.
 */
export function listSource(ctx: CrudContext, def: ResourceDef, query: ListQuery) {
  const conditions: Expression<SqlBool>[] = [];
  /** The columns the conditions read (a quick search: every quick-search field's). */
  const read = new Set<string>();
  const searching = (item: SearchItem) => {
    conditions.push(condition(def, item));
    read.add(def.fields[item.field]!.column);
  };
  for (const item of query.search ?? []) searching(item);
  const preloading = query.initValue !== undefined && query.initValue !== "";
  for (const item of def.defaultSearch ?? []) {
    if (!preloading && !(query.search ?? []).some((s) => s.field === item.field)) searching(item);
  }
  const scoped = scopeCondition(ctx, def);
  if (scoped && def.company && def.company !== "read") {
    conditions.push(scoped);
    read.add(def.company.column);
  }
  const quick = query.quickSearch?.trim();
  if (quick) {
    conditions.push(quickCondition(def, quick));
    for (const name of def.quickSearch) read.add(def.fields[name]!.column);
  }
  const select = isOn(query.select);
  // A remote select preloading its chosen value(s): those rows, whatever the page.
  if (select && preloading) searching({ field: query.initKey ?? "id", operator: "IN", val: query.initValue });
  const order = orderOf(def, query.order);
  const names = select && def.selectFields ? def.selectFields : Object.keys(def.fields);

  const base = () => {
    let q = ctx.k.selectFrom(sql`${sql.table(def.table)}`.as("t"));
    for (const join of def.joins ?? []) {
      q = q.leftJoin(sql`${sql.table(join.table)}`.as(join.alias), (on) => on.on(sql<SqlBool>`${ref(join.on[0])} = ${ref(join.on[1])}`));
    }
    for (const c of conditions) q = q.where(c);
    return q;
  };
  const figures = countedBy(def, read);
  /** The exact number of matching rows: the sum of the figures the database keeps for them, when they can answer, else a count. */
  const count = async () => {
    if (figures) {
      let q = ctx.k.selectFrom(sql`${sql.table(figures)}`.as("t"));
      for (const c of conditions) q = q.where(c);
      return Number((await q.select(sql<number>`coalesce(sum(t.n), 0)`.as("total")).executeTakeFirst())?.total ?? 0);
    }
    return Number((await base().select(sql<number>`count(*)`.as("total")).executeTakeFirst())?.total ?? 0);
  };
  const complete = (rows: Row[]): Promise<Row[]> | Row[] => (def.hooks?.listRows ? def.hooks.listRows(ctx, rows) : rows);
  /** `limit` rows from `offset` in the list's order (among these ids, when given), completed by the resource's list hook. */
  const rows = async (limit: number, offset: number, among?: readonly number[]): Promise<Row[]> => {
    let rowsQuery = base().select(names.map((name) => ref(def.fields[name]!.column).as(name)));
    if (among) rowsQuery = rowsQuery.where(sql<SqlBool>`t.id = any(${among}::int[])`);
    for (const o of order) rowsQuery = rowsQuery.orderBy(ref(o.column), o.dir);
    return complete((await rowsQuery.limit(limit).offset(offset).execute()) as Row[]);
  };
  /** The ids of every matching row, in no order (read as the count reads them: a search by its indexes). */
  const matching = async (): Promise<number[]> => ((await base().select(sql<number>`t.id`.as("id")).execute()) as { id: number }[]).map((r) => Number(r.id));
  /**
   * The ids of the first `limit` matching rows, in the list's order, as one array in one row: a row
   * per id was 100,000 rows built and handed over by the database's thread, then objects here
   * (+20 MB of the server's memory at the peak of an export of 100,000, the array itself 0.8 MB).
   */
  const ids = async (limit: number): Promise<number[]> => {
    const sorted = sql.join(order.map((o) => sql`${ref(o.column)} ${sql.raw(o.dir)}`));
    const row = (await base().select(sql<number[] | null>`array_agg(t.id order by ${sorted})`.as("ids")).executeTakeFirst()) as { ids: number[] | null } | undefined;
    return (row?.ids ?? []).slice(0, limit).map(Number);
  };
  /** The rows of these ids (found by `ids`) in that order, completed by the list hook; a row deleted since is left out. */
  const rowsOf = async (wanted: readonly number[]): Promise<Row[]> => {
    if (wanted.length === 0) return [];
    let q = ctx.k.selectFrom(sql`${sql.table(def.table)}`.as("t"));
    for (const join of def.joins ?? []) {
      q = q.leftJoin(sql`${sql.table(join.table)}`.as(join.alias), (on) => on.on(sql<SqlBool>`${ref(join.on[0])} = ${ref(join.on[1])}`));
    }
    const found = (await q
      .select(names.map((name) => ref(def.fields[name]!.column).as(name)))
      .select(sql<number>`t.id`.as("__id"))
      .where(sql<SqlBool>`t.id = any(${wanted}::int[])`)
      .execute()) as Row[];
    const byId = new Map<number, Row>(found.map(({ __id, ...row }) => [Number(__id), row]));
    return complete(wanted.flatMap((id): Row[] => {
      const row = byId.get(id);
      return row ? [row] : [];
    }));
  };
  return { count, rows, matching, ids, rowsOf };
}

/** A quick search finding at most this many rows has its page read among their ids (listRows). */
const FEW_MATCHES = 1_000;

/** `GET index`: the page of rows and the total, or a remote select's rows. */
export async function listRows(ctx: CrudContext, def: ResourceDef, query: ListQuery): Promise<{ list: Row[]; total: number }> {
  const source = listSource(ctx, def, query);
  const limit = typeof query.limit === "number" ? query.limit : DEFAULT_LIST_LIMIT;
  const page = typeof query.page === "number" ? query.page : 1;
  const total = await source.count();
  const offset = (page - 1) * limit;
  if (total <= offset) return { list: [], total };
  // A quick search finding a few rows: the planner cannot tell how few a text matches, and would
  // rather walk the list's order (the primary key) testing each row until the page is full: 57,570
  // of 100,000 members for the 11 named '员工4242' (1.1 s). The ids the search finds (by its trigram
  // indexes, as the count found them) bound the page's query instead.
  const among = query.quickSearch?.trim() && total <= FEW_MATCHES ? await source.matching() : undefined;
  return { list: await source.rows(limit, offset, among), total };
}

export type Tables = Kysely<AnyTables>;
