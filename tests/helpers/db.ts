import { randomUUID } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import type { Database } from "../../src/server/db/index.ts";
import { migrate } from "../../src/server/db/migrate.ts";
import { openMemoryPGlite } from "../../src/server/db/pglite.ts";
import { openPostgres } from "../../src/server/db/postgres.ts";

/**
 * A fresh, migrated database for one test: in-memory PGlite started from a migrated snapshot,
 * or, when TEST_DATABASE_URL is set, a new database created on that PostgreSQL server (dropped
 * again by `drop`). The same integration suite runs on both.
 */
export interface TestDatabase {
  db: Database;
  kind: "pglite" | "postgres";
  /** Connection URL of this test's PostgreSQL database (postgres only). */
  url?: string;
  /** Another connection to the same database (postgres), for concurrency tests. */
  openAnother(): Promise<Database | undefined>;
  drop(): Promise<void>;
}

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

let snapshot: Promise<Blob> | undefined;
function migratedSnapshot(): Promise<Blob> {
  // tests/setup/database.ts migrated one database for the whole run; without it (a test run
  // with another config), this file migrates its own.
  const file = inject("pgliteSnapshot");
  snapshot ??= (async () => {
    if (file) return new Blob([fs.readFileSync(file)]);
    const { db, pg: raw } = await openMemoryPGlite();
    await migrate(db);
    const blob = await raw.dumpDataDir("none");
    await db.close();
    return blob;
  })();
  return snapshot;
}

export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if (!testDatabaseUrl) {
    const { db } = migrated ? await openMemoryPGlite(await migratedSnapshot()) : await openMemoryPGlite();
    return { db, kind: "pglite", openAnother: async () => undefined, drop: () => db.close() };
  }
  const name = `t_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  const template = migrated ? inject("postgresTemplate") : undefined;
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 5);
  if (migrated && !template) await migrate(db);
  const others: Database[] = [];
  return {
    db,
    kind: "postgres",
    url: url.toString(),
    openAnother: async () => {
      const other = await openPostgres(url.toString(), 2);
      others.push(other);
      return other;
    },
    drop: async () => {
      await Promise.all([db, ...others].map((d) => d.close().catch(() => {})));
      const cleanup = new pg.Client({ connectionString: testDatabaseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
