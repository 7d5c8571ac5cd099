import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { StartupError } from "../../src/server/errors.ts";
import { openFilePGlite } from "../../src/server/db/pglite.ts";
import { openPostgres } from "../../src/server/db/postgres.ts";
import { migrate } from "../../src/server/db/migrate.ts";

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
});
