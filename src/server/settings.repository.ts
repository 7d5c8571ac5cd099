import { sql } from "kysely";
import type { Queryable } from "./db/index.ts";
import { excludedValues, kyselyOf } from "./db/kysely.ts";

/** The rows of table site_setting (settings.ts holds the keys, their types and defaults). */

/** The stored values of these keys (JSON, parsed); keys never stored are absent. */
export async function settingRows(q: Queryable, keys: readonly string[]): Promise<{ key: string; value: unknown }[]> {
  return kyselyOf(q)
    .selectFrom("site_setting")
    .select(["key", "value"])
    .where(sql<boolean>`key = any(${keys}::text[])`)
    .execute();
}

export async function settingValue(q: Queryable, key: string): Promise<unknown> {
  const row = await kyselyOf(q).selectFrom("site_setting").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

/** Stores `json` (a JSON text) under `key`, replacing the value stored before. */
export async function saveSetting(q: Queryable, key: string, json: string): Promise<void> {
  await kyselyOf(q)
    .insertInto("site_setting")
    .values({ key, value: sql`${json}::jsonb` })
    .onConflict((oc) => oc.column("key").doUpdateSet(excludedValues("value")))
    .execute();
}
