import pg from "pg";
import { redactUrl } from "../config.ts";
import { StartupError } from "../errors.ts";
import { PG_DATE, PG_INT8, PG_NUMERIC, parseDate, parseInt8, parseNumeric, type Database, type Queryable, type Sql } from "./database.ts";

const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === PG_INT8 ? parseInt8 : oid === PG_DATE ? parseDate : oid === PG_NUMERIC ? parseNumeric : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function wrap(q: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: Sql, params: unknown[] = []) {
      const r = typeof sql === "string" ? await q.query(sql, params) : await q.query({ name: sql.name, text: sql.text, values: params });
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
    async exec(sql: string) {
      await q.query(sql);
    },
  };
}

/** PostgreSQL through a node-postgres pool; checks the connection before answering. */
export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000, types });
  // An idle client that loses its server must not crash the process.
  pool.on("error", () => {});
  try {
    await pool.query("select 1");
  } catch (error) {
    await pool.end().catch(() => {});
    throw new StartupError(
      `Cannot connect to PostgreSQL at ${redactUrl(url)}: ${(error as Error).message || String(error)}`,
      { cause: error },
    );
  }
  return {
    kind: "postgres",
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn(wrap(client));
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
