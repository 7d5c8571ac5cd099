import type { Queryable } from "../../db/index.ts";

/** The routine module's rows (index.ts calls these; no SQL lives beside it). */

/** Saves one site setting (its JSON value), replacing the one stored. */
export async function saveSiteSetting(q: Queryable, key: string, value: unknown): Promise<void> {
  await q.query("insert into site_setting (key, value) values ($1, $2::jsonb) on conflict (key) do update set value = excluded.value", [key, JSON.stringify(value)]);
}
