import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import type { Json } from "../../db/schema.generated.ts";
import { saveSetting } from "../../settings.repository.ts";

/** A JSON value as a jsonb parameter. */
const json = (value: unknown) => sql<Json>`${JSON.stringify(value)}::jsonb`;

/** The routine module's rows (index.ts calls these; no SQL lives beside it). */

/** Saves one site setting (its JSON value), replacing the one stored. */
export async function saveSiteSetting(q: Queryable, key: string, value: unknown): Promise<void> {
  await saveSetting(q, key, JSON.stringify(value));
}

export interface ConfigGroupRow {
  name: string;
  title: string;
  builtin: boolean;
}

export interface ConfigItemRow {
  name: string;
  group: string;
  title: string;
  type: string;
  value: unknown;
  options: unknown;
  rules: unknown;
  tip: string;
}

const items = (q: Queryable) =>
  kyselyOf(q).selectFrom("config_item").select(["name", "group_name as group", "title", "type", "value", "options", "rules", "tip"]);

/** The config screen's groups, the built-in ones first, then those added in the order they were. */
export async function configGroupRows(q: Queryable): Promise<ConfigGroupRow[]> {
  return kyselyOf(q).selectFrom("config_group").select(["name", "title", "builtin"]).orderBy("builtin", "desc").orderBy("weigh").orderBy("create_time").orderBy("name").execute();
}

export async function configItemRows(q: Queryable): Promise<ConfigItemRow[]> {
  return items(q).orderBy("id").execute();
}

/** The added items of these names, locked until the transaction ends (a value is saved after its check). */
export async function configItemsForUpdate(q: Queryable, names: readonly string[]): Promise<ConfigItemRow[]> {
  if (names.length === 0) return [];
  return items(q).where("name", "in", names).forUpdate().execute();
}

/** Whether `name` is the key of a stored site setting (a built-in key code reads, even one not on the screen). */
export async function siteSettingExists(q: Queryable, name: string): Promise<boolean> {
  return (await kyselyOf(q).selectFrom("site_setting").select("key").where("key", "=", name).executeTakeFirst()) !== undefined;
}

export async function configGroupExists(q: Queryable, name: string): Promise<boolean> {
  return (await kyselyOf(q).selectFrom("config_group").select("name").where("name", "=", name).executeTakeFirst()) !== undefined;
}

/** Adds a group after the others; false when one of that name is there. */
export async function insertConfigGroup(q: Queryable, name: string, title: string): Promise<boolean> {
  const added = await kyselyOf(q)
    .insertInto("config_group")
    .values({ name, title, weigh: sql<number>`(select coalesce(max(weigh), 0) + 1 from config_group)` })
    .onConflict((c) => c.column("name").doNothing())
    .returning("name")
    .executeTakeFirst();
  return added !== undefined;
}

/** Deletes an added group that holds no items: why not otherwise. */
export async function deleteConfigGroup(q: Queryable, name: string): Promise<"ok" | "missing" | "builtin" | "used"> {
  const db = kyselyOf(q);
  const group = await db.selectFrom("config_group").select("builtin").where("name", "=", name).forUpdate().executeTakeFirst();
  if (!group) return "missing";
  if (group.builtin) return "builtin";
  if (await db.selectFrom("config_item").select("id").where("group_name", "=", name).limit(1).executeTakeFirst()) return "used";
  await db.deleteFrom("config_group").where("name", "=", name).execute();
  return "ok";
}

/** Adds an item; false when one of that name is there. */
export async function insertConfigItem(
  q: Queryable,
  item: { name: string; group: string; title: string; type: string; value: unknown; options: unknown; rules: unknown; tip: string },
): Promise<boolean> {
  const added = await kyselyOf(q)
    .insertInto("config_item")
    .values({ name: item.name, group_name: item.group, title: item.title, type: item.type, value: json(item.value), options: json(item.options), rules: json(item.rules), tip: item.tip })
    .onConflict((c) => c.column("name").doNothing())
    .returning("name")
    .executeTakeFirst();
  return added !== undefined;
}

export async function deleteConfigItem(q: Queryable, name: string): Promise<boolean> {
  return (await kyselyOf(q).deleteFrom("config_item").where("name", "=", name).returning("name").executeTakeFirst()) !== undefined;
}

export async function saveConfigItemValue(q: Queryable, name: string, value: unknown): Promise<void> {
  await kyselyOf(q).updateTable("config_item").set({ value: json(value) }).where("name", "=", name).execute();
}

/** An added item's value, for code that reads one (undefined when there is no such item). */
export async function configItemValue(q: Queryable, name: string): Promise<unknown> {
  return (await kyselyOf(q).selectFrom("config_item").select("value").where("name", "=", name).executeTakeFirst())?.value;
}
