/**
 * The one database seam: PGlite (Postgres in WASM, embedded default) or PostgreSQL through
 * node-postgres. Both speak the same SQL with `$1` parameters; the rest of the server sees
 * only this interface.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/**
 * A hot statement that PostgreSQL prepares once per connection (node-postgres' named
 * statements) and then runs from its cached plan: planning, not execution, is most of the cost
 * of a statement such as the practice answer's visibility check. PGlite runs the text.
 * Only for a fixed text whose result columns are listed (never `select *`: a migration adding a
 * column would make a cached plan fail with "cached plan must not change result type").
 */
export interface PreparedSql {
  readonly name: string;
  readonly text: string;
}
/** Marks the row and parameter types a prepared statement was declared with (never a value at run time). */
declare const shape: unique symbol;
/** A prepared statement declared with its rows `R` and parameters `P`, so each call site is typed by the declaration. */
export interface PreparedStatement<R, P extends readonly unknown[]> extends PreparedSql {
  readonly [shape]?: { row: R; params: P };
}
export const prepared = <R = Record<string, unknown>, P extends readonly unknown[] = unknown[]>(name: string, text: string): PreparedStatement<R, P> => ({ name, text });
export type Sql = string | PreparedSql;
export const sqlText = (sql: Sql): string => (typeof sql === "string" ? sql : sql.text);

/**
 * Runs a prepared hot statement: the one way past Kysely outside the seam (lint refuses `.query(`
 * everywhere else), kept because a named statement is planned once per connection and Kysely's
 * compiled queries are not named.
 */
export async function runPrepared<R, P extends readonly unknown[]>(q: Queryable, statement: PreparedStatement<R, P>, params: P): Promise<QueryResult<R>> {
  return q.query<R>(statement, [...params]);
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: Sql, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs one or more statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Postgres type oids whose text form we parse the same way on both drivers. */
export const PG_INT8 = 20;
export const parseInt8 = (value: string): number => Number(value);
/** `numeric` (scores such as 2.50) as a JS number: small values, exact enough for two decimals. */
export const PG_NUMERIC = 1700;
export const parseNumeric = (value: string): number => Number(value);
/** `date` stays "YYYY-MM-DD" text: a calendar day has no time zone. */
export const PG_DATE = 1082;
export const parseDate = (value: string): string => value;

/** SQLSTATE of a driver error (both drivers set `code`). */
export function sqlState(error: unknown): string | undefined {
  if (error && typeof error === "object" && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return undefined;
}
