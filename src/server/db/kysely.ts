import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult as KyselyResult,
  sql,
  type RawBuilder,
  type Selectable,
} from "kysely";
import type { Queryable } from "./database.ts";
import type { DB } from "./schema.generated.ts";

/** The tables of the migrated schema, generated from the migrations (`npm run db:types`). */
export type { DB } from "./schema.generated.ts";

/**
 * Kysely (the query builder) over the one database seam: queries are compiled to PostgreSQL SQL
 * with `$1` parameters and run through a `Queryable`, so they work on PGlite and node-postgres
 * alike, and inside our own transactions (`db.transaction(tx => builder(tx)...)`). The schema
 * stays in the SQL migrations; its types (schema.generated.ts) are generated from them, so a
 * query names only tables and columns that exist.
 *
 * Kysely's own `transaction()` is refused: transactions are the seam's (`Database.transaction`),
 * so one code path commits and rolls back on both drivers.
 */
class QueryableConnection implements DatabaseConnection {
  constructor(private readonly q: Queryable) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<KyselyResult<R>> {
    const result = await this.q.query<R>(compiled.sql, [...compiled.parameters]);
    const kind = compiled.query.kind;
    const writes = kind === "InsertQueryNode" || kind === "UpdateQueryNode" || kind === "DeleteQueryNode" || kind === "MergeQueryNode";
    return writes ? { rows: result.rows, numAffectedRows: BigInt(result.rowCount) } : { rows: result.rows };
  }

  // eslint-disable-next-line require-yield -- streaming is not offered by the seam
  async *streamQuery<R>(): AsyncIterableIterator<KyselyResult<R>> {
    throw new Error("streaming queries are not supported over the database seam");
  }
}

class QueryableDriver implements Driver {
  private readonly connection: QueryableConnection;
  constructor(q: Queryable) {
    this.connection = new QueryableConnection(q);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error("use Database.transaction() and build queries on its Queryable (kyselyOf(tx))");
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

class QueryableDialect implements Dialect {
  constructor(private readonly q: Queryable) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver() {
    return new QueryableDriver(this.q);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

/** One builder per Queryable: a Kysely instance costs about as much to make as a query to compile. */
const builders = new WeakMap<Queryable, Kysely<unknown>>();

/** A Kysely query builder whose queries run on `q` (the database, or a transaction's Queryable). */
export function kyselyOf<Tables = DB>(q: Queryable): Kysely<Tables> {
  let builder = builders.get(q);
  if (!builder) {
    builder = new Kysely<unknown>({ dialect: new QueryableDialect(q) });
    builders.set(q, builder);
  }
  // The tables are types only: the same instance serves any of them.
  return builder as unknown as Kysely<Tables>;
}

/** Compiles without a connection: the text of an SQL piece, never run. */
const textCompiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * The text of an SQL piece that holds no values: a prepared statement's fixed text built on the
 * shared SQL rules (organisation visibility, practised questions), its placeholders written as
 * `sql.raw("$2")`. A value would need a parameter the fixed text cannot carry: that throws.
 */
export function fixedText(piece: RawBuilder<unknown>): string {
  const compiled = piece.compile(textCompiler);
  if (compiled.parameters.length > 0) throw new Error(`fixed SQL text with ${compiled.parameters.length} value(s): ${compiled.sql}`);
  return compiled.sql;
}

/**
 * An upsert's `doUpdateSet` that takes, for each column named, the value the insert proposed
 * (`excluded.<column>`). Typed `never` so it fits the column of the same name, whatever its type.
 */
export function excludedValues<C extends string>(...columns: C[]): Record<C, RawBuilder<never>> {
  return Object.fromEntries(columns.map((column) => [column, sql.ref<never>(`excluded.${column}`)])) as Record<C, RawBuilder<never>>;
}

/** These columns of the row of `table` with this id, or undefined when there is none. */
export async function rowById<T extends keyof DB & string, C extends keyof Selectable<DB[T]> & string>(
  q: Queryable,
  table: T,
  columns: readonly C[],
  id: number,
): Promise<Pick<Selectable<DB[T]>, C> | undefined> {
  // The table is a parameter here, so Kysely cannot know its columns: the answer is typed by the caller's table.
  const row = await kyselyOf<Record<"t", { id: number }>>(q)
    .selectFrom(table as "t")
    .select([...columns] as "id"[])
    .where("id", "=", id)
    .executeTakeFirst();
  return row as Pick<Selectable<DB[T]>, C> | undefined;
}
