import type { AppConfig } from "../config.ts";
import type { Database } from "./database.ts";
import { openFilePGlite, openMemoryPGlite } from "./pglite.ts";

export type { Database, PreparedSql, PreparedStatement, Queryable, QueryResult, Sql } from "./database.ts";
export { prepared, runPrepared } from "./database.ts";

/** PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite under DATA_DIR. */
export async function openDatabase(config: AppConfig): Promise<Database> {
  // The PostgreSQL driver is loaded only when it is used: the embedded default never reads it.
  if (config.databaseUrl) return (await import("./postgres.ts")).openPostgres(config.databaseUrl, config.databasePoolSize);
  if (config.inMemory) return (await openMemoryPGlite()).db;
  return openFilePGlite(config.dataDir);
}
