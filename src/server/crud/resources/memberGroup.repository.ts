import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { idIn } from "../repository.ts";

/** How many of these member rule ids exist. */
export async function countUserRules(q: Queryable, ids: readonly number[]): Promise<number> {
  const row = await kyselyOf(q).selectFrom("user_rule").select(sql<number>`count(*)::int`.as("n")).where(idIn("id", ids)).executeTakeFirstOrThrow();
  return row.n;
}
