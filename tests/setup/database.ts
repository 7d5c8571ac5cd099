import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate } from "../../src/server/db/migrate.ts";
import { openMemoryPGlite } from "../../src/server/db/pglite.ts";
import { openPostgres } from "../../src/server/db/postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding a migrated PGlite data directory (`dumpDataDir`), for in-memory test databases. */
    pgliteSnapshot?: string;
    /** A migrated PostgreSQL database that test databases are created from (`create database … template`). */
    postgresTemplate?: string;
  }
}

/**
 * The migrations run once per test run, not once per test file: every test database starts as
 * a copy of one migrated database (PGlite: a data directory snapshot in a file; PostgreSQL: a
 * template database). tests/helpers/db.ts falls back to migrating itself when run without this.
 */
export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL || undefined;
  if (!url) {
    const { db, pg: raw } = await openMemoryPGlite();
    await migrate(db);
    const blob = await raw.dumpDataDir("none");
    await db.close();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-test-db-"));
    const file = path.join(dir, "migrated.tar");
    fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
    provide("pgliteSnapshot", file);
    return async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const name = `t_template_${randomUUID().replaceAll("-", "")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openPostgres(target.toString(), 1);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  provide("postgresTemplate", name);
  return async () => admin(`drop database if exists ${name} with (force)`);
}
