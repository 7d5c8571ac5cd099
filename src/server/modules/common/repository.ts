import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/** The member an email or mobile is bound to (case-insensitive), if any. */
export async function memberIdByAddress(q: Queryable, column: "email" | "mobile", address: string): Promise<number | undefined> {
  const row = await kyselyOf(q)
    .selectFrom("member")
    .select("id")
    .where(sql<boolean>`lower(${sql.ref(column)}) = lower(${address})`)
    .executeTakeFirst();
  return row?.id;
}
