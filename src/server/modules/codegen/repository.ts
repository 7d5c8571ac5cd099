import { sql, type ExpressionBuilder } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { excludedValues, kyselyOf, type DB } from "../../db/kysely.ts";

const nowSeconds = sql<number>`extract(epoch from now())::bigint`;

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
  const { rows } = await sql<{ ok: boolean }>`select to_regclass(${table}) is not null as ok`.execute(kyselyOf(q));
  return rows[0]?.ok === true;
}

/** The table's columns in order, each with its `format_type`. */
export async function tableColumns(q: Queryable, table: string): Promise<{ name: string; type: string }[]> {
  const { rows } = await sql<{ name: string; type: string }>`select a.attname as name, format_type(a.atttypid, a.atttypmod) as type
    from pg_attribute a where a.attrelid = to_regclass(${table}) and a.attnum > 0 and not a.attisdropped order by a.attnum`.execute(kyselyOf(q));
  return rows;
}

/** The names of the table's indexes other than its primary key's. */
export async function tableIndexNames(q: Queryable, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid
    where x.indrelid = to_regclass(${table}) and not x.indisprimary`.execute(kyselyOf(q));
  return rows.map((r) => r.name);
}

/** The names of the table's unique constraints. */
export async function tableUniqueConstraints(q: Queryable, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint where conrelid = to_regclass(${table}) and contype = 'u'`.execute(kyselyOf(q));
  return rows.map((r) => r.name);
}

/** The tables and views of the current schema, and `crud_design`. */
export async function schemaTableNames(q: Queryable): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()
    union select 'crud_design'`.execute(kyselyOf(q));
  return rows.map((r) => r.name);
}

/** Whether the current schema has a table (or view) of this name. */
export async function schemaHasTable(q: Queryable, table: string): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`select exists (
    select 1 from information_schema.tables where table_schema = current_schema() and table_name = ${table}) as ok`.execute(kyselyOf(q));
  return rows[0]?.ok === true;
}

/** The first column of the table's primary key ("" when it has none). */
export async function primaryKeyColumn(q: Queryable, table: string): Promise<string> {
  const { rows } = await sql<{ name: string }>`select a.attname as name from pg_index x join pg_attribute a on a.attrelid = x.indrelid and a.attnum = any(x.indkey)
     where x.indrelid = to_regclass(${table}) and x.indisprimary order by a.attnum limit 1`.execute(kyselyOf(q));
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
  const { rows } = await sql<ColumnInfo>`select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable,
       pg_get_expr(d.adbin, d.adrelid) as def, col_description(a.attrelid, a.attnum) as comment
     from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where a.attrelid = to_regclass(${table}) and a.attnum > 0 and not a.attisdropped order by a.attnum`.execute(kyselyOf(q));
  return rows;
}

/** Runs one statement of a generate's plan (DDL built by ddl.ts; DDL takes no parameters). */
export async function runPlannedStatement(q: Queryable, statement: string): Promise<void> {
  await sql.raw(statement).execute(kyselyOf(q));
}

/** Drops a generated table (its name quoted as an identifier). */
export async function dropTableIfExists(q: Queryable, table: string): Promise<void> {
  await kyselyOf(q).schema.dropTable(table).ifExists().execute();
}

/* ---- designs ---- */

/** One generate (or import, or delete) at a time: names and tables are checked and changed without a race. */
export async function lockDesigns(q: Queryable): Promise<void> {
  await sql`lock table crud_design in exclusive mode`.execute(kyselyOf(q));
}

export async function designById(q: Queryable, id: number, lock = false): Promise<DesignDbRow | undefined> {
  const query = kyselyOf(q).selectFrom("crud_design").selectAll().where("id", "=", id).$castTo<DesignDbRow>();
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** The id of the design of this name, if any. */
export async function designIdNamed(q: Queryable, name: string): Promise<number | undefined> {
  const row = await kyselyOf(q).selectFrom("crud_design").select("id").where("name", "=", name).executeTakeFirst();
  return row?.id;
}

/** The stored design of a generated screen. */
export async function generatedDesign(q: Queryable, name: string): Promise<{ design: unknown } | undefined> {
  return kyselyOf(q).selectFrom("crud_design").select("design").where("name", "=", name).where("status", "=", "generated").executeTakeFirst();
}

/** Every generated design, by id. */
export async function generatedDesigns(q: Queryable): Promise<{ name: string; design: unknown }[]> {
  return kyselyOf(q).selectFrom("crud_design").select(["name", "design"]).where("status", "=", "generated").orderBy("id").execute();
}

/** The latest 500 designs, newest first. */
export async function latestDesigns(q: Queryable): Promise<DesignDbRow[]> {
  return kyselyOf(q).selectFrom("crud_design").selectAll().orderBy("id", "desc").limit(500).$castTo<DesignDbRow>().execute();
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
  await kyselyOf(q)
    .updateTable("crud_design")
    .set({
      name: d.name,
      table_name: d.table,
      title: d.title,
      status: "generated",
      design: sql`${JSON.stringify(d.design)}::jsonb`,
      admin_id: d.adminId,
      update_time: nowSeconds,
    })
    .where("id", "=", id)
    .execute();
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
/** The rule named `base` or any rule under it. */
const atOrUnder =
  (base: string) =>
  (eb: ExpressionBuilder<DB, "admin_rule">) =>
    eb.or([eb("name", "=", base), eb("name", "like", under(base))]);

/** The first rule named `base` or under it, if any. */
export async function firstRuleAtOrUnder(q: Queryable, base: string): Promise<string | undefined> {
  const row = await kyselyOf(q).selectFrom("admin_rule").select("name").where(atOrUnder(base)).orderBy("name").limit(1).executeTakeFirst();
  return row?.name;
}

/** Saves a design's menu rule (enabled again if disabled); answers its id. */
export async function upsertMenuRule(q: Queryable, rule: { title: string; titleEn: string; name: string; component: string }): Promise<number> {
  const row = await kyselyOf(q)
    .insertInto("admin_rule")
    .values({ pid: 0, type: "menu", title: rule.title, title_en: rule.titleEn, name: rule.name, path: rule.name, icon: "table", menu_type: "tab", component: rule.component, weigh: 35 })
    .onConflict((oc) =>
      oc.column("name").doUpdateSet({ ...excludedValues("title", "title_en", "component"), status: "enable", update_time: nowSeconds }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Saves a button rule under the menu `menuId` (an existing one of this name moves under it). */
export async function upsertButtonRule(q: Queryable, menuId: number, title: string, titleEn: string, name: string): Promise<void> {
  await kyselyOf(q)
    .insertInto("admin_rule")
    .values({ pid: menuId, type: "button", title, title_en: titleEn, name })
    .onConflict((oc) => oc.column("name").doUpdateSet(excludedValues("pid")))
    .execute();
}

export async function deleteRuleNamed(q: Queryable, name: string): Promise<void> {
  await kyselyOf(q).deleteFrom("admin_rule").where("name", "=", name).execute();
}

/** Removes the rule `base` and every rule under it. */
export async function deleteRulesAtOrUnder(q: Queryable, base: string): Promise<void> {
  await kyselyOf(q).deleteFrom("admin_rule").where(atOrUnder(base)).execute();
}

/* ---- security rules of a design ---- */

export async function upsertRecycleRule(q: Queryable, name: string, controller: string, table: string): Promise<void> {
  await kyselyOf(q)
    .insertInto("security_data_recycle")
    .values({ name, controller, data_table: table })
    .onConflict((oc) =>
      oc.column("controller").doUpdateSet({ ...excludedValues("name", "data_table"), status: "enable" }),
    )
    .execute();
}

export async function deleteRecycleRule(q: Queryable, controller: string): Promise<void> {
  await kyselyOf(q).deleteFrom("security_data_recycle").where("controller", "=", controller).execute();
}

export async function upsertSensitiveRule(q: Queryable, name: string, controller: string, table: string, fields: unknown): Promise<void> {
  await kyselyOf(q)
    .insertInto("security_sensitive_data")
    .values({ name, controller, data_table: table, data_fields: sql`${JSON.stringify(fields)}::jsonb` })
    .onConflict((oc) =>
      oc.column("controller").doUpdateSet({ ...excludedValues("name", "data_table", "data_fields"), status: "enable" }),
    )
    .execute();
}

export async function deleteSensitiveRule(q: Queryable, controller: string): Promise<void> {
  await kyselyOf(q).deleteFrom("security_sensitive_data").where("controller", "=", controller).execute();
}
