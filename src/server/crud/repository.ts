import { sql } from "kysely";
import type { Queryable } from "../db/index.ts";
import { kyselyOf, type DB } from "../db/kysely.ts";

/**
 * `column = any($n::int[])`: the id list travels as one array parameter, so the statement is the
 * same whatever the number of ids, and an empty list matches nothing (where Kysely's `in` would
 * build `in ()`, a syntax error). The resources' repositories filter by id lists with it.
 */
export const idIn = (column: string, ids: readonly unknown[]) => sql<boolean>`${sql.ref(column)} = any(${ids}::int[])`;

/** A text column of the row of this id (a name or title a list or the admin log shows), or undefined. */
export async function textById<T extends keyof DB & string>(q: Queryable, table: T, column: keyof DB[T] & string, id: unknown): Promise<string | undefined> {
  const { rows } = await sql<{ text: string }>`select ${sql.ref(column)} as text from ${sql.table(table)} where id = ${id}`.execute(kyselyOf(q));
  return rows[0]?.text;
}

/**
 * How many rows of `table` hold each of these ids in `column` (ids without rows are left out): a
 * list's "in use" figures (a course's lessons, a classroom's members, the rooms using a face rule).
 */
export async function countsPer<T extends keyof DB, C extends keyof DB[T] & string>(
  q: Queryable,
  table: T,
  column: C,
  ids: readonly number[],
): Promise<(Record<C, number> & { n: number })[]> {
  const { rows } = await sql<Record<C, number> & { n: number }>`select ${sql.ref(column)}, count(*)::int as n from ${sql.table(table)}
    where ${idIn(column, ids)} group by ${sql.ref(column)}`.execute(kyselyOf(q));
  return rows;
}

/** The epoch second now, as the database sees it (the `update_time` of a write). */
export const nowSeconds = sql<number>`extract(epoch from now())::bigint`;

export interface AdminLogEntry {
  adminId: number;
  username: string;
  title: string;
  url: string;
  method: string;
  /** The request's query and body, already scrubbed (log.ts), as JSON text. */
  data: string;
  ip: string;
  useragent: string;
}

/** One admin log row, in the caller's transaction. */
export async function insertAdminLog(q: Queryable, e: AdminLogEntry): Promise<void> {
  await kyselyOf(q)
    .insertInto("admin_log")
    .values({ admin_id: e.adminId, username: e.username, title: e.title, url: e.url, method: e.method, data: e.data, ip: e.ip, useragent: e.useragent })
    .execute();
}
