import type { Database } from "./database.ts";

export interface Migration {
  /** "0001", from the file name "0001_init.sql". */
  version: string;
  name: string;
  sql: string;
}

const files = import.meta.glob<string>("./migrations/*.sql", {
  query: "?raw",
  import: "default",
  eager: true,
});

/** The migrations committed in src/server/db/migrations, in version order. */
export const bundledMigrations: Migration[] = Object.entries(files)
  .map(([file, sql]) => {
    const base = file.slice(file.lastIndexOf("/") + 1, -".sql".length);
    const match = /^(\d{4})_([a-z0-9_]+)$/.exec(base);
    if (!match) throw new Error(`Migration file name must look like 0001_name.sql: ${file}`);
    return { version: match[1]!, name: match[2]!, sql };
  })
  .sort((a, b) => a.version.localeCompare(b.version));

/** Arbitrary constant key of the advisory lock that serialises migrators. */
const MIGRATION_LOCK = 7_300_412;

/**
 * Applies the pending migrations in one transaction, under a transaction-level advisory lock:
 * two processes starting at once take turns, and the second finds nothing left to do.
 * Returns the versions it applied (empty when the schema was current).
 */
export async function migrate(db: Database, migrations: Migration[] = bundledMigrations): Promise<string[]> {
  const versions = new Set<string>();
  for (const m of migrations) {
    if (versions.has(m.version)) throw new Error(`Two migrations share version ${m.version}`);
    versions.add(m.version);
  }
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.exec(`create table if not exists schema_migrations (
      version text primary key,
      name text not null,
      applied_at bigint not null default extract(epoch from now())::bigint
    )`);
    const { rows } = await tx.query<{ version: string }>("select version from schema_migrations");
    const done = new Set(rows.map((r) => r.version));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query("insert into schema_migrations (version, name) values ($1, $2)", [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
