import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/**
 * The code generator's rows and catalogue reads (ddl.ts, design.ts and routes.ts call these; no
 * SQL lives beside them). The DDL a generate runs is built by ddl.ts (every identifier through
 * its `ident`, every default through its `literal`) and only run here.
 */

export interface DesignDbRow {
  id: number;
  name: string;
  table_name: string;
  title: string;
  status: "draft" | "generated";
  design: unknown;
  create_time: number;
  update_time: number;
}

/* ---- the live schema (pg_catalog, information_schema) ---- */

/** Whether a relation of this name exists (`to_regclass`). */
export async function relationExists(q: Queryable, table: string): Promise<boolean> {
  const { rows } = await q.query<{ ok: boolean }>("select to_regclass($1) is not null as ok", [table]);
  return rows[0]?.ok === true;
}

/** The table's columns in order, each with its `format_type`. */
export async function tableColumns(q: Queryable, table: string): Promise<{ name: string; type: string }[]> {
  const { rows } = await q.query<{ name: string; type: string }>(
    "select a.attname as name, format_type(a.atttypid, a.atttypmod) as type from pg_attribute a where a.attrelid = to_regclass($1) and a.attnum > 0 and not a.attisdropped order by a.attnum",
    [table],
  );
  return rows;
}

/** The names of the table's indexes other than its primary key's. */
export async function tableIndexNames(q: Queryable, table: string): Promise<string[]> {
  const { rows } = await q.query<{ name: string }>(
    "select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid where x.indrelid = to_regclass($1) and not x.indisprimary",
    [table],
  );
  return rows.map((r) => r.name);
}

/** The names of the table's unique constraints. */
export async function tableUniqueConstraints(q: Queryable, table: string): Promise<string[]> {
  const { rows } = await q.query<{ name: string }>("select conname as name from pg_constraint where conrelid = to_regclass($1) and contype = 'u'", [table]);
  return rows.map((r) => r.name);
}

/** The tables and views of the current schema, and `crud_design`. */
export async function schemaTableNames(q: Queryable): Promise<string[]> {
  const { rows } = await q.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = current_schema() union select 'crud_design'",
  );
  return rows.map((r) => r.name);
}

/** Whether the current schema has a table (or view) of this name. */
export async function schemaHasTable(q: Queryable, table: string): Promise<boolean> {
  const { rows } = await q.query<{ ok: boolean }>(
    "select exists (select 1 from information_schema.tables where table_schema = current_schema() and table_name = $1) as ok",
    [table],
  );
  return rows[0]?.ok === true;
}

/** The first column of the table's primary key ("" when it has none). */
export async function primaryKeyColumn(q: Queryable, table: string): Promise<string> {
  const { rows } = await q.query<{ name: string }>(
    `select a.attname as name from pg_index x join pg_attribute a on a.attrelid = x.indrelid and a.attnum = any(x.indkey)
     where x.indrelid = to_regclass($1) and x.indisprimary order by a.attnum limit 1`,
    [table],
  );
  return rows[0]?.name ?? "";
}

export interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
  def: string | null;
  comment: string | null;
}

/** The table's columns in order: type, nullability, default expression and comment. */
export async function tableColumnInfo(q: Queryable, table: string): Promise<ColumnInfo[]> {
  const { rows } = await q.query<ColumnInfo>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable,
       pg_get_expr(d.adbin, d.adrelid) as def, col_description(a.attrelid, a.attnum) as comment
     from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where a.attrelid = to_regclass($1) and a.attnum > 0 and not a.attisdropped order by a.attnum`,
    [table],
  );
  return rows;
}

/** Runs one statement of a generate's plan (DDL built by ddl.ts). */
export async function runPlannedStatement(q: Queryable, statement: string): Promise<void> {
  await q.query(statement);
}

/** Drops a generated table (its name quoted as an identifier). */
export async function dropTableIfExists(q: Queryable, table: string): Promise<void> {
  await kyselyOf(q).schema.dropTable(table).ifExists().execute();
}

/* ---- designs ---- */

/** One generate (or import, or delete) at a time: names and tables are checked and changed without a race. */
export async function lockDesigns(q: Queryable): Promise<void> {
  await q.query("lock table crud_design in exclusive mode");
}

export async function designById(q: Queryable, id: number, lock = false): Promise<DesignDbRow | undefined> {
  const { rows } = lock
    ? await q.query<DesignDbRow>("select * from crud_design where id = $1 for update", [id])
    : await q.query<DesignDbRow>("select * from crud_design where id = $1", [id]);
  return rows[0];
}

/** The id of the design of this name, if any. */
export async function designIdNamed(q: Queryable, name: string): Promise<number | undefined> {
  const row = await kyselyOf(q).selectFrom("crud_design").select("id").where("name", "=", name).executeTakeFirst();
  return row?.id;
}

/** The stored design of a generated screen. */
export async function generatedDesign(q: Queryable, name: string): Promise<{ design: unknown } | undefined> {
  const { rows } = await q.query<{ design: unknown }>("select design from crud_design where name = $1 and status = 'generated'", [name]);
  return rows[0];
}

/** Every generated design, by id. */
export async function generatedDesigns(q: Queryable): Promise<{ name: string; design: unknown }[]> {
  const { rows } = await q.query<{ name: string; design: unknown }>("select name, design from crud_design where status = 'generated' order by id");
  return rows;
}

/** The latest 500 designs, newest first. */
export async function latestDesigns(q: Queryable): Promise<DesignDbRow[]> {
  const { rows } = await q.query<DesignDbRow>("select * from crud_design order by id desc limit 500");
  return rows;
}

export interface DesignWrite {
  name: string;
  table: string;
  title: string;
  design: unknown;
  adminId: number;
}

/** Saves a design again as generated. */
export async function updateGeneratedDesign(q: Queryable, id: number, d: DesignWrite): Promise<void> {
  await q.query(
    "update crud_design set name = $2, table_name = $3, title = $4, status = 'generated', design = $5::jsonb, admin_id = $6, update_time = extract(epoch from now())::bigint where id = $1",
    [id, d.name, d.table, d.title, JSON.stringify(d.design), d.adminId],
  );
}

/** Stores a new design (generated, or an imported draft); answers its id. */
export async function insertDesign(q: Queryable, status: "generated" | "draft", d: DesignWrite): Promise<number> {
  const row = await kyselyOf(q)
    .insertInto("crud_design")
    .values({ name: d.name, table_name: d.table, title: d.title, status, design: sql`${JSON.stringify(d.design)}::jsonb`, admin_id: d.adminId })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteDesign(q: Queryable, id: number): Promise<void> {
  await kyselyOf(q).deleteFrom("crud_design").where("id", "=", id).execute();
}

/* ---- the rules of a design ---- */

/** `x like` pattern of the names under `base`: %, _ and \ lose their meaning. */
const under = (base: string) => `${base.replace(/[\\%_]/g, "\\$&")}/%`;

/** The first rule named `base` or under it, if any. */
export async function firstRuleAtOrUnder(q: Queryable, base: string): Promise<string | undefined> {
  const { rows } = await q.query<{ name: string }>("select name from admin_rule where name = $1 or name like $2 order by name limit 1", [base, under(base)]);
  return rows[0]?.name;
}

/** Saves a design's menu rule (enabled again if disabled); answers its id. */
export async function upsertMenuRule(q: Queryable, rule: { title: string; titleEn: string; name: string; component: string }): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `insert into admin_rule (pid, type, title, title_en, name, path, icon, menu_type, component, weigh)
     values (0, 'menu', $1, $2, $3, $3, 'table', 'tab', $4, 35)
     on conflict (name) do update set title = excluded.title, title_en = excluded.title_en, component = excluded.component, status = 'enable',
       update_time = extract(epoch from now())::bigint
     returning id`,
    [rule.title, rule.titleEn, rule.name, rule.component],
  );
  return rows[0]!.id;
}

/** Saves a button rule under the menu `menuId` (an existing one of this name moves under it). */
export async function upsertButtonRule(q: Queryable, menuId: number, title: string, titleEn: string, name: string): Promise<void> {
  await q.query(
    `insert into admin_rule (pid, type, title, title_en, name) values ($1, 'button', $2, $3, $4)
     on conflict (name) do update set pid = excluded.pid`,
    [menuId, title, titleEn, name],
  );
}

export async function deleteRuleNamed(q: Queryable, name: string): Promise<void> {
  await kyselyOf(q).deleteFrom("admin_rule").where("name", "=", name).execute();
}

/** Removes the rule `base` and every rule under it. */
export async function deleteRulesAtOrUnder(q: Queryable, base: string): Promise<void> {
  await q.query("delete from admin_rule where name = $1 or name like $2", [base, under(base)]);
}

/* ---- security rules of a design ---- */

export async function upsertRecycleRule(q: Queryable, name: string, controller: string, table: string): Promise<void> {
  await q.query(
    `insert into security_data_recycle (name, controller, data_table) values ($1, $2, $3)
     on conflict (controller) do update set name = excluded.name, data_table = excluded.data_table, status = 'enable'`,
    [name, controller, table],
  );
}

export async function deleteRecycleRule(q: Queryable, controller: string): Promise<void> {
  await kyselyOf(q).deleteFrom("security_data_recycle").where("controller", "=", controller).execute();
}

export async function upsertSensitiveRule(q: Queryable, name: string, controller: string, table: string, fields: unknown): Promise<void> {
  await q.query(
    `insert into security_sensitive_data (name, controller, data_table, data_fields) values ($1, $2, $3, $4::jsonb)
     on conflict (controller) do update set name = excluded.name, data_table = excluded.data_table, data_fields = excluded.data_fields, status = 'enable'`,
    [name, controller, table, JSON.stringify(fields)],
  );
}

export async function deleteSensitiveRule(q: Queryable, controller: string): Promise<void> {
  await kyselyOf(q).deleteFrom("security_sensitive_data").where("controller", "=", controller).execute();
}
