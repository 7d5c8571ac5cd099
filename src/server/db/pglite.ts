import fs from "node:fs";
import path from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { StartupError } from "../errors.ts";
import { PG_DATE, PG_INT8, PG_NUMERIC, parseDate, parseInt8, parseNumeric, sqlText, type Database, type Queryable, type Sql } from "./database.ts";

function wrap(q: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: Sql, params: unknown[] = []) {
      const r = await q.query<T>(sqlText(sql), params);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  };
}

function fromPGlite(pg: PGlite, onClose?: () => void): Database {
  const base = wrap(pg);
  return {
    kind: "pglite",
    ...base,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async close() {
      if (!pg.closed) await pg.close();
      onClose?.();
    },
  };
}

const options = { parsers: { [PG_INT8]: parseInt8, [PG_DATE]: parseDate, [PG_NUMERIC]: parseNumeric } };

/**
 * An in-memory database (tests), optionally started from a `dumpDataDir()` snapshot; `pg` is
 * the raw handle, for taking such snapshots.
 */
export async function openMemoryPGlite(snapshot?: Blob): Promise<{ db: Database; pg: PGlite }> {
  const pg = await PGlite.create({ ...options, ...(snapshot ? { loadDataDir: snapshot } : {}) });
  return { db: fromPGlite(pg), pg };
}

/**
 * The embedded database under DATA_DIR/pgdata. PGlite is single-process: a lock file keeps a
 * second server from opening the same files (it stops with a clear message instead).
 */
export async function openFilePGlite(dataDir: string): Promise<Database> {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new StartupError(`DATA_DIR ${dataDir} is not a writable directory (${code})`);
  }
  const release = acquireLock(path.join(dataDir, "pglite.lock"));
  try {
    const pg = await PGlite.create({ dataDir: path.join(dataDir, "pgdata"), ...options });
    return fromPGlite(pg, release);
  } catch (error) {
    release();
    throw new StartupError(
      `Cannot open the embedded database in ${dataDir}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

function acquireLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      if (err.code !== "EEXIST") {
        throw new StartupError(`DATA_DIR lock ${lockPath} cannot be written (${err.code ?? err.message})`);
      }
      const pid = Number(fs.readFileSync(lockPath, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
        throw new StartupError(
          `The embedded database in ${path.dirname(lockPath)} is in use by another process (pid ${pid}); stop it or use another DATA_DIR`,
        );
      }
      fs.rmSync(lockPath, { force: true }); // stale lock of a process that is gone
    }
  }
  throw new StartupError(`Cannot lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
