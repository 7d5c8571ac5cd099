import type { Queryable } from "../../db/index.ts";
import { saveSetting } from "../../settings.repository.ts";

/** The routine module's rows (index.ts calls these; no SQL lives beside it). */

/** Saves one site setting (its JSON value), replacing the one stored. */
export async function saveSiteSetting(q: Queryable, key: string, value: unknown): Promise<void> {
  await saveSetting(q, key, JSON.stringify(value));
}
