import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { StartupError } from "../../src/server/errors.ts";
import { openFilePGlite } from "../../src/server/db/pglite.ts";
import { openPostgres } from "../../src/server/db/postgres.ts";
import { migrate } from "../../src/server/db/migrate.ts";
import { classifyDbError, pgState } from "../../src/server/db/errors.ts";
import type { Database } from "../../src/server/db/database.ts";

describe("opening the database", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-db-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a DATA_DIR that cannot be a directory, with one clear line", async () => {
    const file = path.join(tempDir(), "not-a-dir");
    fs.writeFileSync(file, "x");
    const error = await openFilePGlite(path.join(file, "data")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toMatch(/^DATA_DIR .*not-a-dir\/data is not a writable directory \(ENOTDIR\)$/);
  });

  it("keeps data on disk across restarts and lets only one process open it", async () => {
    const dir = tempDir();
    const db = await openFilePGlite(dir);
    await migrate(db);
    await db.query("insert into app_meta (key, value) values ('k', 'v')");
    // Another process holding the lock (pid 1 is always alive) is refused clearly.
    await db.close();
    fs.writeFileSync(path.join(dir, "pglite.lock"), "1");
    await expect(openFilePGlite(dir)).rejects.toThrow(/in use by another process \(pid 1\)/);
    // A stale lock of a process that is gone is taken over.
    fs.writeFileSync(path.join(dir, "pglite.lock"), "999999999");
    const again = await openFilePGlite(dir);
    const { rows } = await again.query<{ value: string }>("select value from app_meta where key = 'k'");
    expect(rows[0]?.value).toBe("v");
    await again.close();
    expect(fs.existsSync(path.join(dir, "pglite.lock"))).toBe(false);
  });

  it("refuses an unreachable DATABASE_URL with one clear line and no password", async () => {
    const error = await openPostgres("postgres://app:hunter2@127.0.0.1:1/nothing").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Cannot connect to PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/nothing: /);
    expect(message).not.toContain("hunter2");
    expect(message).not.toContain("\n");
  });

  describe("the embedded database on its own thread", () => {
    // One database for the cases that keep it open (opening one takes seconds), a fresh table each.
    let shared: Database | undefined;
    let sharedDir: string | undefined;
    let db: Database;
    const open = async () => {
      sharedDir ??= fs.mkdtempSync(path.join(os.tmpdir(), "exam-db-"));
      shared ??= await openFilePGlite(sharedDir);
      db = shared;
      await db.exec("drop table if exists t; create table t (id int primary key, n bigint not null, price numeric(6,2), day date, note text)");
      return db;
    };
    afterAll(async () => {
      await shared?.close();
      if (sharedDir) fs.rmSync(sharedDir, { recursive: true, force: true });
    });

    it("answers as PGlite on the main thread did: bigint and numeric as numbers, a date as its day", async () => {
      await open();
      await db.query("insert into t values ($1, $2, $3, $4, $5)", [1, 9007199254740991, 2.5, "2026-11-26", "\u00e9"]);
      const { rows, rowCount } = await db.query("select id, n, price, day, note, now() as at from t");
      expect(rowCount).toBe(1);
      expect(rows[0]).toMatchObject({ id: 1, n: 9007199254740991, price: 2.5, day: "2026-11-26", note: "\u00e9" });
      expect(rows[0]!.at).toBeInstanceOf(Date);
      expect((await db.query("update t set n = n + 1 where id >= 0")).rowCount).toBe(1);
    });

    it("keeps a PostgreSQL error's SQLSTATE and fields, so it is classified as before", async () => {
      await open();
      await db.query("insert into t values (1, 1)");
      const duplicate = await db.query("insert into t values (1, 2)").catch((e: unknown) => e);
      expect(duplicate).toBeInstanceOf(Error);
      expect(pgState(duplicate)).toBe("23505");
      expect((duplicate as { constraint?: string }).constraint).toBe("t_pkey");
      expect(classifyDbError(duplicate)).toBe("other");
      const bad = await db.query("select $1::int", ["x\u0000"]).catch((e: unknown) => e);
      expect(classifyDbError(bad)).toBe("invalid-input");
    });

    it("commits a transaction that resolves and rolls back one that throws, keeping its error", async () => {
      await open();
      const value = await db.transaction(async (tx) => {
        await tx.query("insert into t values (1, 1)");
        await tx.exec("insert into t values (2, 2)");
        return (await tx.query<{ c: number }>("select count(*)::int as c from t")).rows[0]!.c;
      });
      expect(value).toBe(2);
      const thrown = new Error("the handler failed");
      await expect(
        db.transaction(async (tx) => {
          await tx.query("insert into t values (3, 3)");
          throw thrown;
        }),
      ).rejects.toBe(thrown);
      // A statement that fails inside: its PostgreSQL error reaches the caller, nothing is kept.
      const failed = await db
        .transaction(async (tx) => {
          await tx.query("update t set n = 100 where id = 1");
          await tx.query("insert into t values (2, 2)");
        })
        .catch((e: unknown) => e);
      expect(pgState(failed)).toBe("23505");
      expect((await db.query("select id, n from t order by id")).rows).toEqual([{ id: 1, n: 1 }, { id: 2, n: 2 }]);
    });

    // Each transaction awaits a timer between its statements, so others begin while one is open:
    // a BEGIN waited for without going round the event loop would then never end (the thread that
    // must finish the open one would be the one waiting).
    it("runs concurrent transactions one at a time, and a lone query waits for the open one", async () => {
      await open();
      await db.query("insert into t values (1, 0)");
      let inside = 0;
      let most = 0;
      const bump = () =>
        db.transaction(async (tx) => {
          inside++;
          most = Math.max(most, inside);
          const { rows } = await tx.query<{ n: number }>("select n from t where id = 1");
          await new Promise((resolve) => setTimeout(resolve, 2));
          await tx.query("update t set n = $1 where id = 1", [rows[0]!.n + 1]);
          inside--;
        });
      const seen: number[] = [];
      await Promise.all([
        ...Array.from({ length: 20 }, bump),
        db.query<{ n: number }>("select n from t where id = 1").then((r) => seen.push(r.rows[0]!.n)),
      ]);
      expect(most).toBe(1);
      expect((await db.query<{ n: number }>("select n from t where id = 1")).rows[0]!.n).toBe(20);
      // The lone read saw a committed state, never a transaction's half.
      expect(seen[0]).toBeGreaterThanOrEqual(0);
      expect(seen[0]).toBeLessThanOrEqual(20);
    });

    it("after close, a query fails as an unavailable database and the lock is released", async () => {
      const dir = tempDir();
      const db = await openFilePGlite(dir);
      await db.close();
      expect(fs.existsSync(path.join(dir, "pglite.lock"))).toBe(false);
      const error = await db.query("select 1").catch((e: unknown) => e);
      expect(classifyDbError(error)).toBe("unavailable");
      await expect(db.transaction(async () => 1)).rejects.toThrow(/PGlite is closed/);
    });
  });
});
