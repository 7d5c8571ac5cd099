import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/**
 * The module market's rows (modules.ts and routes.ts call these; no SQL lives beside them). A
 * module's own tables (`mod_<name>_<table>`) and columns come from its checked manifest: they are
 * quoted as identifiers (`sql.id`), never spliced in; values are always parameters.
 */

export interface InstalledRow {
  name: string;
  version: string;
  source: "bundled" | "catalogue";
  status: "enabled" | "disabled";
  manifest: unknown;
  settings: Record<string, number>;
}

const nowSeconds = sql<number>`extract(epoch from now())::bigint`;

/* ---- module_install ---- */

/** One install (or uninstall) at a time. */
export async function lockInstalls(q: Queryable): Promise<void> {
  await sql`lock table module_install in exclusive mode`.execute(kyselyOf(q));
}

const installs = (q: Queryable) =>
  kyselyOf(q).selectFrom("module_install").select(["name", "version", "source", "status", "manifest", "settings"]).$castTo<InstalledRow>();

export async function installedRows(q: Queryable): Promise<InstalledRow[]> {
  return installs(q).orderBy("install_time").orderBy("name").execute();
}

export async function installedRow(q: Queryable, name: string, lock = false): Promise<InstalledRow | null> {
  const query = installs(q).where("name", "=", name);
  return (await (lock ? query.forUpdate() : query).executeTakeFirst()) ?? null;
}

/** Which of these modules are installed and enabled. */
export async function enabledModuleNames(q: Queryable, names: string[]): Promise<string[]> {
  const rows = await kyselyOf(q)
    .selectFrom("module_install")
    .select("name")
    .where(sql<boolean>`name = any(${names})`)
    .where("status", "=", "enabled")
    .execute();
  return rows.map((r) => r.name);
}

/** The installed modules whose manifest requires `name`. */
export async function dependantModules(q: Queryable, name: string): Promise<string[]> {
  const rows = await kyselyOf(q).selectFrom("module_install").select("name").where(sql<boolean>`manifest->'requires'->'modules' ? ${name}`).execute();
  return rows.map((r) => r.name);
}

export interface InstallWrite {
  name: string;
  version: string;
  title: string;
  source: "bundled" | "catalogue";
  manifest: unknown;
  settings: Record<string, number>;
  adminId: number;
}

export async function insertInstall(q: Queryable, i: InstallWrite): Promise<void> {
  await kyselyOf(q)
    .insertInto("module_install")
    .values({
      name: i.name,
      version: i.version,
      title: i.title,
      source: i.source,
      status: "enabled",
      manifest: sql`${JSON.stringify(i.manifest)}::jsonb`,
      settings: sql`${JSON.stringify(i.settings)}::jsonb`,
      admin_id: i.adminId,
    })
    .execute();
}

export async function deleteInstall(q: Queryable, name: string): Promise<void> {
  await kyselyOf(q).deleteFrom("module_install").where("name", "=", name).execute();
}

export async function setInstallStatus(q: Queryable, name: string, status: "enabled" | "disabled"): Promise<void> {
  await kyselyOf(q).updateTable("module_install").set({ status, update_time: nowSeconds }).where("name", "=", name).execute();
}

export async function saveInstallSettings(q: Queryable, name: string, settings: Record<string, number>): Promise<void> {
  await kyselyOf(q)
    .updateTable("module_install")
    .set({ settings: sql`${JSON.stringify(settings)}::jsonb`, update_time: nowSeconds })
    .where("name", "=", name)
    .execute();
}

/* ---- a module's rules ---- */

/** Adds a module's menu folder rule; answers its id. */
export async function insertMenuFolderRule(q: Queryable, f: { title: string; titleEn: string; name: string; icon: string }): Promise<number> {
  const row = await kyselyOf(q)
    .insertInto("admin_rule")
    .values({ pid: 0, type: "menu_dir", title: f.title, title_en: f.titleEn, name: f.name, path: f.name, icon: f.icon, menu_type: null, component: "", weigh: 30 })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Adds a table's menu rule under the folder `pid`; answers its id. */
export async function insertTableMenuRule(q: Queryable, pid: number, m: { title: string; titleEn: string; name: string; icon: string; component: string }): Promise<number> {
  const row = await kyselyOf(q)
    .insertInto("admin_rule")
    .values({ pid, type: "menu", title: m.title, title_en: m.titleEn, name: m.name, path: m.name, icon: m.icon, menu_type: "tab", component: m.component, weigh: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Sets the status of the rule `name` and of the rules matching the `like` pattern `under`. */
export async function setRuleTreeStatus(q: Queryable, name: string, under: string, status: "enable" | "disable"): Promise<void> {
  await kyselyOf(q)
    .updateTable("admin_rule")
    .set({ status, update_time: nowSeconds })
    .where((eb) => eb.or([eb("name", "=", name), eb("name", "like", under)]))
    .execute();
}

/** Removes the rule `name` and the rules matching the `like` pattern `under`. */
export async function deleteRuleTree(q: Queryable, name: string, under: string): Promise<void> {
  await kyselyOf(q)
    .deleteFrom("admin_rule")
    .where((eb) => eb.or([eb("name", "=", name), eb("name", "like", under)]))
    .execute();
}

/* ---- a module's own tables ---- */

/**
 * Runs one statement of a table's plan (DDL built by codegen/ddl.ts from a checked design: its
 * names quoted as identifiers, its comments as literals; DDL takes no parameters).
 */
export async function runPlannedStatement(q: Queryable, statement: string): Promise<void> {
  await sql.raw(statement).execute(kyselyOf(q));
}

/** The current schema's tables whose name matches the `like` pattern. */
export async function tablesLike(q: Queryable, pattern: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_name like ${pattern}`.execute(kyselyOf(q));
  return rows.map((r) => r.name);
}

export async function dropTableIfExists(q: Queryable, table: string): Promise<void> {
  await kyselyOf(q).schema.dropTable(table).ifExists().execute();
}

/** Adds a row (its checked columns and values) to a module table; answers its id. */
export async function insertModuleRow(q: Queryable, table: string, row: Record<string, unknown>): Promise<number> {
  const columns = Object.keys(row);
  const statement =
    columns.length === 0
      ? sql<{ id: number }>`insert into ${sql.id(table)} default values returning id`
      : sql<{ id: number }>`insert into ${sql.id(table)} (${sql.join(columns.map((c) => sql.id(c)))}) values (${sql.join(columns.map((c) => row[c]))}) returning id`;
  const { rows } = await statement.execute(kyselyOf(q));
  return rows[0]!.id;
}

/** A sortable module table's new row goes first in the order: its weigh is its id. */
export async function weighAsId(q: Queryable, table: string, id: number): Promise<void> {
  await sql`update ${sql.id(table)} set weigh = id where id = ${id}`.execute(kyselyOf(q));
}

export interface ListBlockQuery {
  table: string;
  /** Column equalities every row meets. */
  where: { field: string; eq: unknown }[];
  title: string;
  body?: string;
  time?: string;
  order: { field: string; desc: boolean };
  limit: number;
}

/** The rows of a member list block: id, title, body ('' without one) and time (null without one). */
export async function listBlockRows(q: Queryable, b: ListBlockQuery): Promise<{ id: number; title: unknown; body: unknown; time: unknown }[]> {
  const where = b.where.length ? sql`where ${sql.join(b.where.map((w) => sql`${sql.id(w.field)} = ${w.eq}`), sql` and `)}` : sql``;
  const { rows } = await sql<{ id: number; title: unknown; body: unknown; time: unknown }>`select id, ${sql.id(b.title)} as title, ${
    b.body ? sql.id(b.body) : sql`''`
  } as body, ${b.time ? sql.id(b.time) : sql`null`} as time
     from ${sql.id(b.table)} ${where}
     order by ${sql.id(b.order.field)} ${b.order.desc ? sql`desc` : sql`asc`}, id desc limit ${b.limit}`.execute(kyselyOf(q));
  return rows;
}

/** How many rows of a check-in table have this `user_day`. */
export async function checkInCount(q: Queryable, table: string, userDay: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(table)} where user_day = ${userDay}`.execute(kyselyOf(q));
  return rows[0]!.n;
}

/** Records a check-in unless one of this `user_day` is there; true for the one that lands. */
export async function insertCheckIn(q: Queryable, table: string, c: { userId: number; day: string; points: number; userDay: string }): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`insert into ${sql.id(table)} (user_id, day, points, user_day) values (${c.userId}, ${c.day}, ${c.points}, ${c.userDay})
    on conflict do nothing returning id`.execute(kyselyOf(q));
  return rows.length > 0;
}

