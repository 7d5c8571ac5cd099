import type { Queryable } from "../../db/index.ts";

/** The routine module's rows (index.ts calls these; no SQL lives beside it). */

/** Saves one site setting (its JSON value), replacing the one stored. */
export async function saveSiteSetting(q: Queryable, key: string, value: unknown): Promise<void> {
  await q.query("insert into site_setting (key, value) values ($1, $2::jsonb) on conflict (key) do update set value = excluded.value", [key, JSON.stringify(value)]);
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

const ITEM_COLUMNS = `name, group_name as "group", title, type, value, options, rules, tip`;

/** The config screen's groups, the built-in ones first, then those added in the order they were. */
export async function configGroupRows(q: Queryable): Promise<ConfigGroupRow[]> {
  return (await q.query<ConfigGroupRow>("select name, title, builtin from config_group order by builtin desc, weigh, create_time, name")).rows;
}

export async function configItemRows(q: Queryable): Promise<ConfigItemRow[]> {
  return (await q.query<ConfigItemRow>(`select ${ITEM_COLUMNS} from config_item order by id`)).rows;
}

/** The added items of these names, locked until the transaction ends (a value is saved after its check). */
export async function configItemsForUpdate(q: Queryable, names: readonly string[]): Promise<ConfigItemRow[]> {
  return (await q.query<ConfigItemRow>(`select ${ITEM_COLUMNS} from config_item where name = any($1::text[]) for update`, [names])).rows;
}

/** Whether `name` is the key of a stored site setting (a built-in key code reads, even one not on the screen). */
export async function siteSettingExists(q: Queryable, name: string): Promise<boolean> {
  return (await q.query("select 1 from site_setting where key = $1", [name])).rows.length > 0;
}

export async function configGroupExists(q: Queryable, name: string): Promise<boolean> {
  return (await q.query("select 1 from config_group where name = $1", [name])).rows.length > 0;
}

/** Adds a group; false when one of that name is there. */
export async function insertConfigGroup(q: Queryable, name: string, title: string): Promise<boolean> {
  const weigh = "(select coalesce(max(weigh), 0) + 1 from config_group)";
  const res = await q.query(`insert into config_group (name, title, weigh) values ($1, $2, ${weigh}) on conflict (name) do nothing returning name`, [name, title]);
  return res.rows.length > 0;
}

/** Deletes an added group that holds no items: why not otherwise. */
export async function deleteConfigGroup(q: Queryable, name: string): Promise<"ok" | "missing" | "builtin" | "used"> {
  const found = await q.query<{ builtin: boolean }>("select builtin from config_group where name = $1 for update", [name]);
  const group = found.rows[0];
  if (!group) return "missing";
  if (group.builtin) return "builtin";
  if ((await q.query("select 1 from config_item where group_name = $1 limit 1", [name])).rows.length > 0) return "used";
  await q.query("delete from config_group where name = $1", [name]);
  return "ok";
}

/** Adds an item; false when one of that name is there. */
export async function insertConfigItem(
  q: Queryable,
  item: { name: string; group: string; title: string; type: string; value: unknown; options: unknown; rules: unknown; tip: string },
): Promise<boolean> {
  const res = await q.query(
    "insert into config_item (name, group_name, title, type, value, options, rules, tip) values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8) on conflict (name) do nothing returning name",
    [item.name, item.group, item.title, item.type, JSON.stringify(item.value), JSON.stringify(item.options), JSON.stringify(item.rules), item.tip],
  );
  return res.rows.length > 0;
}

export async function deleteConfigItem(q: Queryable, name: string): Promise<boolean> {
  return (await q.query("delete from config_item where name = $1 returning name", [name])).rows.length > 0;
}

export async function saveConfigItemValue(q: Queryable, name: string, value: unknown): Promise<void> {
  await q.query("update config_item set value = $2::jsonb where name = $1", [name, JSON.stringify(value)]);
}

/** An added item's value, for code that reads one (undefined when there is no such item). */
export async function configItemValue(q: Queryable, name: string): Promise<unknown> {
  const row = (await q.query<{ value: unknown }>("select value from config_item where name = $1", [name])).rows[0];
  return row?.value;
}
