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

/** The latest migration applied, or undefined (none, or no schema_migrations table yet). */
async function latestApplied(db: Database): Promise<string | undefined> {
  try {
    const { rows } = await db.query<{ version: string | null }>("select max(version) as version from schema_migrations");
    return rows[0]?.version ?? undefined;
  } catch {
    return undefined; // a new database: the locked path creates the table
  }
}

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
  // Every start asks this first: one query, no transaction or lock. Migrations are applied in
  // version order, all of a run in one transaction, so a database whose latest is the last
  // bundled one has them all. Anything else (no table yet, an older schema) takes the locked path.
  const latest = migrations.at(-1)?.version;
  if (latest !== undefined && (await latestApplied(db)) === latest) return [];
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
