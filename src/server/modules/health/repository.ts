import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/** One real round trip to the database: rejects when it does not answer. */
export async function pingDatabase(q: Queryable): Promise<void> {
  await sql`select 1 as ok`.execute(kyselyOf(q));
}
