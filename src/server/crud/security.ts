import { msg } from "@lingui/core/macro";
import { sql, type SqlBool } from "kysely";
import { pgState } from "../db/errors.ts";
import { ApiError } from "../errors.ts";
import type { CrudContext, ResourceDef, Row } from "./resource.ts";

/**
 * Data recycle and sensitive data (migration 0014): the CRUD engine keeps what a delete removes
 * and what an edit of a watched field overwrote, in the write's own transaction, so a restore
 * or a rollback can put it back. Rules name a resource by its rule path; the table and fields
 * they touch are always the resource definition's, checked again when they are used.
 */

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const MAX_CASCADE_DEPTH = 4;
/** Fields a row is named by in the logs' lists, in order of preference (a question has only its text, `stem`). */
const LABEL_FIELDS = ["username", "name", "title", "nickname", "stem"] as const;
const LABEL_LENGTH = 100;

/** A deleted row and what its delete cascaded to, parents first. */
export interface RecycledData {
  row: Row;
  cascaded: { table: string; rows: Row[] }[];
}

interface Cascade {
  table: string;
  column: string;
  parentColumn: string;
}

/** Text for a list cell: a rich-text value (a question's stem) without its tags and entities, spaces collapsed. */
const plain = (value: string): string =>
  value
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e] ?? "")
    .replace(/\s+/g, " ")
    .trim();

/** What a kept row is called in the logs' lists (its `title` there), or "" when it has no name. */
export const labelOf = (row: Row): string => {
  for (const field of LABEL_FIELDS) {
    const value = row[field];
    const text = typeof value === "string" ? plain(value) : "";
    if (text !== "") return text.slice(0, LABEL_LENGTH);
  }
  return "";
};

/** Tables whose rows a delete from `table` removes too (single-column foreign keys `on delete cascade`). */
async function cascadesOf(ctx: CrudContext, table: string): Promise<Cascade[]> {
  const { rows } = await sql<Cascade>`
    select cl.relname as "table", a.attname as "column", pa.attname as "parentColumn"
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    join pg_attribute pa on pa.attrelid = c.confrelid and pa.attnum = c.confkey[1]
    where c.contype = 'f' and c.confdeltype = 'c' and array_length(c.conkey, 1) = 1
      and c.confrelid = to_regclass(${table}) and c.conrelid <> c.confrelid
    order by cl.relname, a.attname`.execute(ctx.k);
  return rows.filter((r) => NAME.test(r.table) && NAME.test(r.column) && NAME.test(r.parentColumn));
}

/** Every table a delete from `table` may cascade to (to check a recycled row's data before restoring it). */
async function cascadeTables(ctx: CrudContext, table: string, depth = 0, found = new Set<string>()): Promise<Set<string>> {
  if (depth >= MAX_CASCADE_DEPTH) return found;
  for (const cascade of await cascadesOf(ctx, table)) {
    if (found.has(cascade.table)) continue;
    found.add(cascade.table);
    await cascadeTables(ctx, cascade.table, depth + 1, found);
  }
  return found;
}

/** The rows the delete of `parents` (rows of `table`) cascades to, parents first. */
async function cascadedRows(ctx: CrudContext, table: string, parents: Row[], depth = 0): Promise<RecycledData["cascaded"]> {
  if (depth >= MAX_CASCADE_DEPTH || parents.length === 0) return [];
  const out: RecycledData["cascaded"] = [];
  for (const cascade of await cascadesOf(ctx, table)) {
    const keys = [...new Set(parents.map((p) => p[cascade.parentColumn]).filter((v) => v !== null && v !== undefined))];
    if (keys.length === 0) continue;
    const { rows } = await sql<{ row: Row }>`
      select to_jsonb(x) as row from ${sql.table(cascade.table)} x where ${sql.ref(`x.${cascade.column}`)}::text in (${sql.join(keys.map(String))})`.execute(ctx.k);
    if (rows.length === 0) continue;
    const children = rows.map((r) => r.row);
    out.push({ table: cascade.table, rows: children }, ...(await cascadedRows(ctx, cascade.table, children, depth + 1)));
  }
  return out;
}

/** Whether a delete from the resource keeps its rows in the recycle bin now (an enabled recycle rule names it). */
export async function recycles(ctx: Pick<CrudContext, "k">, def: ResourceDef): Promise<boolean> {
  if (!def.del) return false;
  const { rows } = await sql<{ id: number }>`
    select id from security_data_recycle where controller = ${def.rule} and status = 'enable' limit 1`.execute(ctx.k);
  return rows.length > 0;
}

/** Keeps `ids` of the resource's table (with what their delete cascades to) when it has an enabled recycle rule. Before the delete, in its transaction. */
export async function keepDeleted(ctx: CrudContext, def: ResourceDef, ids: readonly unknown[]): Promise<void> {
  const { rows: rules } = await sql<{ id: number }>`
    select id from security_data_recycle where controller = ${def.rule} and status = 'enable'`.execute(ctx.k);
  const rule = rules[0];
  if (!rule || ids.length === 0) return;
  const { rows } = await sql<{ row: Row }>`select to_jsonb(t) as row from ${sql.table(def.table)} t where t.id in (${sql.join(ids)}) order by t.id`.execute(ctx.k);
  const useragent = String(ctx.req.headers["user-agent"] ?? "").slice(0, 500);
  for (const { row } of rows) {
    const data: RecycledData = { row, cascaded: await cascadedRows(ctx, def.table, [row]) };
    await sql`
      insert into security_data_recycle_log (admin_id, recycle_id, data_table, primary_key, row_id, title, data, ip, useragent)
      values (${ctx.admin.id}, ${rule.id}, ${def.table}, 'id', ${row.id}, ${labelOf(row)}, ${JSON.stringify(data)}::jsonb, ${ctx.req.ip}, ${useragent})`.execute(ctx.k);
  }
}

/** A row as JSON values (what the logs keep and compare). */
async function jsonRow(ctx: CrudContext, table: string, id: unknown, lock = false): Promise<Row | null> {
  const { rows } = lock
    ? await sql<{ row: Row }>`select to_jsonb(t) as row from ${sql.table(table)} t where t.id = ${id} for update`.execute(ctx.k)
    : await sql<{ row: Row }>`select to_jsonb(t) as row from ${sql.table(table)} t where t.id = ${id}`.execute(ctx.k);
  return rows[0]?.row ?? null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Before an edit of row `id`: when the resource has an enabled sensitive-data rule, answers the
 * function that logs, after the write, each watched field the edit changed (before / after).
 */
export async function watchSensitive(ctx: CrudContext, def: ResourceDef, id: number): Promise<(() => Promise<void>) | null> {
  const { rows: rules } = await sql<{ id: number; data_fields: unknown }>`
    select id, data_fields from security_sensitive_data where controller = ${def.rule} and status = 'enable'`.execute(ctx.k);
  const rule = rules[0];
  if (!rule || !Array.isArray(rule.data_fields)) return null;
  const fields = rule.data_fields.filter((f): f is string => typeof f === "string" && watchable(def, f));
  if (fields.length === 0) return null;
  const before = await jsonRow(ctx, def.table, id);
  if (!before) return null;
  return async () => {
    const after = await jsonRow(ctx, def.table, id);
    if (!after) return;
    const useragent = String(ctx.req.headers["user-agent"] ?? "").slice(0, 500);
    for (const field of fields) {
      if (same(before[field], after[field])) continue;
      await sql`
        insert into security_sensitive_data_log (admin_id, sensitive_id, data_table, primary_key, data_field, id_value, title, before, after, ip, useragent)
        values (${ctx.admin.id}, ${rule.id}, ${def.table}, 'id', ${field}, ${id}, ${labelOf(after)},
          ${JSON.stringify(before[field] ?? null)}::jsonb, ${JSON.stringify(after[field] ?? null)}::jsonb, ${ctx.req.ip}, ${useragent})`.execute(ctx.k);
    }
  };
}

/** Fields a sensitive-data rule may watch: what the edit form shows, never a secret. */
export const watchable = (def: ResourceDef, field: string): boolean =>
  def.editColumns.includes(field) && field !== "id" && !/pass|pwd|token|secret|salt|hash/i.test(field);

/** The registered resource whose table is `table` (a log's table is trusted only through this). */
function resourceOfTable(all: readonly ResourceDef[], table: string): ResourceDef {
  const def = all.find((r) => r.table === table);
  if (!def || !NAME.test(table)) throw new ApiError(msg`This record belongs to a table that can no longer be restored`);
  return def;
}

/** Inserts rows as they were (their own ids); a clash or a missing reference is refused clearly. */
async function insertRows(ctx: CrudContext, table: string, rows: Row[], logId: number): Promise<void> {
  try {
    await sql`insert into ${sql.table(table)} select * from jsonb_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::jsonb)`.execute(ctx.k);
  } catch (error) {
    const state = pgState(error);
    if (state === "23505") throw new ApiError(msg`Record ${logId} cannot be restored: a row with the same key or unique value exists now`);
    if (state === "23503") throw new ApiError(msg`Record ${logId} cannot be restored: a row it refers to no longer exists`);
    if (state === "23502" || state === "42703" || state === "22P02") throw new ApiError(msg`Record ${logId} cannot be restored: the table has changed since`);
    throw error;
  }
}

/**
 * Before the kept rows of `table` go back: the rows of `table` that refer to a row this restore
 * has just put back are removed. Such a row did not exist before this transaction (its parent had
 * been deleted), so a trigger made it when the parent went back: a restored question's insert
 * writes its version row, which the question's kept history then brings back itself (their
 * clash made every restore of a question fail).
 */
async function clearMadeByRestore(ctx: CrudContext, restored: readonly { table: string; rows: Row[] }[], table: string): Promise<void> {
  for (const parent of restored) {
    for (const cascade of await cascadesOf(ctx, parent.table)) {
      if (cascade.table !== table) continue;
      const keys = [...new Set(parent.rows.map((r) => r[cascade.parentColumn]).filter((v) => v !== null && v !== undefined))];
      if (keys.length === 0) continue;
      await sql`delete from ${sql.table(table)} x where ${sql.ref(`x.${cascade.column}`)}::text in (${sql.join(keys.map(String))})`.execute(ctx.k);
    }
  }
}

/** Puts recycled rows back (with what their delete cascaded to) and removes their records; all or nothing. */
export async function restoreRecycled(ctx: CrudContext, all: readonly ResourceDef[], ids: readonly number[]): Promise<number> {
  const { rows: logs } = await sql<{ id: number; data_table: string; data: RecycledData }>`
    select id, data_table, data from security_data_recycle_log where id in (${sql.join(ids)}) order by id for update`.execute(ctx.k);
  if (logs.length === 0) throw new ApiError(msg`The record does not exist`);
  for (const log of logs) {
    const def = resourceOfTable(all, log.data_table);
    const allowed = await cascadeTables(ctx, def.table);
    const cascaded = Array.isArray(log.data?.cascaded) ? log.data.cascaded : [];
    if (!log.data?.row || typeof log.data.row !== "object" || cascaded.some((c) => !allowed.has(c.table) || !Array.isArray(c.rows))) {
      throw new ApiError(msg`This record belongs to a table that can no longer be restored`);
    }
    await insertRows(ctx, def.table, [log.data.row], log.id);
    const restored: { table: string; rows: Row[] }[] = [{ table: def.table, rows: [log.data.row] }];
    for (const part of cascaded) {
      if (part.rows.length === 0) continue;
      await clearMadeByRestore(ctx, restored, part.table);
      await insertRows(ctx, part.table, part.rows, log.id);
      restored.push(part);
    }
  }
  await sql`delete from security_data_recycle_log where id in (${sql.join(logs.map((l) => l.id))})`.execute(ctx.k);
  return logs.length;
}

/** Sets watched fields back to their value before the logged edits, newest edit first; refused if a row changed since. */
export async function rollbackSensitive(ctx: CrudContext, all: readonly ResourceDef[], ids: readonly number[]): Promise<number> {
  const { rows: logs } = await sql<{ id: number; data_table: string; data_field: string; id_value: string | number; before: unknown; after: unknown; is_rollback: boolean }>`
    select id, data_table, data_field, id_value, before, after, is_rollback
    from security_sensitive_data_log where id in (${sql.join(ids)}) order by id desc for update`.execute(ctx.k);
  if (logs.length === 0) throw new ApiError(msg`The record does not exist`);
  for (const log of logs) {
    const def = resourceOfTable(all, log.data_table);
    if (!watchable(def, log.data_field) || !NAME.test(log.data_field)) throw new ApiError(msg`This record belongs to a table that can no longer be restored`);
    if (log.is_rollback) throw new ApiError(msg`Record ${log.id} has already been rolled back`);
    const current = await jsonRow(ctx, def.table, Number(log.id_value), true);
    if (!current) throw new ApiError(msg`Record ${log.id} cannot be rolled back: its row no longer exists`);
    if (!same(current[log.data_field], log.after)) throw new ApiError(msg`Record ${log.id} cannot be rolled back: the value has changed since this edit`);
    const column = sql.ref(log.data_field);
    await sql`
      update ${sql.table(def.table)} set ${column} = (jsonb_populate_record(null::${sql.table(def.table)}, jsonb_build_object(${log.data_field}::text, ${JSON.stringify(log.before ?? null)}::jsonb))).${column}
      where id = ${Number(log.id_value)}`.execute(ctx.k);
    await ctx.k.updateTable("security_sensitive_data_log").set({ is_rollback: true }).where(sql<SqlBool>`id = ${log.id}`).execute();
  }
  return logs.length;
}
