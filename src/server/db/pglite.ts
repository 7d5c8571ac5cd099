import fs from "node:fs";
import path from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { StartupError } from "../errors.ts";
import { pgliteOptions } from "./pglite-options.mjs";
import { sqlText, type Database, type Queryable, type QueryResult, type Sql } from "./database.ts";

function wrap(q: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: Sql, params: unknown[] = []) {
      const r = await q.query<T>(sqlText(sql), params);
      return { rows: r.rows, rowCount: r.affectedRows || r.rows.length };
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

/**
 * An in-memory database (tests), optionally started from a `dumpDataDir()` snapshot; `pg` is
 * the raw handle, for taking such snapshots.
 */
export async function openMemoryPGlite(snapshot?: Blob): Promise<{ db: Database; pg: PGlite }> {
  // PGlite's JavaScript on this thread only for an in-memory database: a server's embedded
  // database runs it on its own thread (below), and start-up does not read it here.
  const { PGlite } = await import("@electric-sql/pglite");
  const pg = await PGlite.create({ ...pgliteOptions, ...(snapshot ? { loadDataDir: snapshot } : {}) });
  return { db: fromPGlite(pg), pg };
}

/**
 * The embedded database under DATA_DIR/pgdata. PGlite is single-process: a lock file keeps a
 * second server from opening the same files (it stops with a clear message instead).
 *
 * PGlite runs on its own thread (pglite-worker.mjs): PostgreSQL's WebAssembly and PGlite's
 * protocol code were about 70 % of the server's CPU under load, all on the event loop. On a
 * worker they take a core of their own, and the event loop keeps serving while a query runs.
 * What the app sees does not change: the same Database, one statement or transaction at a time.
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
    return await openWorker(path.join(dataDir, "pgdata"), release);
  } catch (error) {
    release();
    throw new StartupError(
      `Cannot open the embedded database in ${dataDir}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** A transaction's statement is waited for in slices, to notice a thread that has ended. */
const SYNC_WAIT_SLICE_MS = 1_000;

interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: Record<string, unknown> & { message: string };
}
type Request =
  | { kind: "query"; sql: string; params: unknown[]; tx?: number }
  | { kind: "exec"; sql: string; tx?: number }
  | { kind: "begin" }
  | { kind: "end"; tx: number; commit: boolean }
  | { kind: "close" };

/** An error from the worker, with the fields of the original (code, table, constraint ...). */
function revive(fields: Record<string, unknown> & { message: string }): Error {
  const { message, stack, ...rest } = fields;
  const error = Object.assign(new Error(message), rest);
  if (typeof stack === "string") error.stack = stack;
  return error;
}

async function openWorker(dataDir: string, release: () => void): Promise<Database> {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const channel = new MessageChannel();
  const worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), {
    workerData: { dataDir, signal, port: channel.port2 },
    transferList: [channel.port2],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let stopped: Error | undefined;
  const opened = new Promise<void>((resolve, reject) => pending.set(0, { resolve: () => resolve(), reject }));

  const fail = (error: Error) => {
    stopped ??= error;
    for (const p of pending.values()) p.reject(stopped);
    pending.clear();
    release();
  };
  worker.on("message", (reply: Reply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (reply.ok) p.resolve(reply.value);
    else p.reject(revive(reply.error ?? { message: "The embedded database failed" }));
  });
  worker.on("error", (error) => fail(error));
  worker.on("exit", (code) => fail(new Error(`PGlite is closed (its thread ended with code ${code})`)));

  const call = <T>(request: Request): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, ...request });
    });
  };
  /**
   * A transaction's statement: the worker answers on the channel and wakes this thread, which
   * waits without going round the event loop (pglite-worker.mjs says why).
   */
  const callSync = <T>(request: Request): T => {
    if (stopped) throw stopped;
    const id = nextId++;
    Atomics.store(signal, 0, 0);
    worker.postMessage({ id, sync: true, ...request });
    for (;;) {
      Atomics.wait(signal, 0, 0, SYNC_WAIT_SLICE_MS);
      const received = receiveMessageOnPort(channel.port1) as { message: Reply } | undefined;
      if (received) {
        const reply = received.message;
        if (reply.ok) return reply.value as T;
        throw revive(reply.error ?? { message: "The embedded database failed" });
      }
      const now = Atomics.load(signal, 0);
      if (now === 1) {
        Atomics.store(signal, 0, 0); // a wake with no reply for us: wait again
        continue;
      }
      if (now === 2) {
        // Its thread ended (the worker says so on exit): no answer will come.
        const error = new Error("PGlite is closed (its thread ended)");
        stopped ??= error;
        throw error;
      }
      // Still running (a long statement): as long as on the main thread, wait on.
    }
  };
  const queryable = (tx?: number): Queryable =>
    tx === undefined
      ? {
          query: <T>(sql: Sql, params: unknown[] = []) => call<QueryResult<T>>({ kind: "query", sql: sqlText(sql), params }),
          exec: (sql: string) => call<void>({ kind: "exec", sql }),
        }
      : {
          query: async <T>(sql: Sql, params: unknown[] = []) => callSync<QueryResult<T>>({ kind: "query", sql: sqlText(sql), params, tx }),
          exec: async (sql: string) => callSync<void>({ kind: "exec", sql, tx }),
        };

  await opened;
  /** Transactions begun and not yet ended (main-thread code may be between their statements). */
  let open = 0;
  return {
    kind: "pglite",
    ...queryable(),
    async transaction(fn) {
      // BEGIN is waited for here too when no other transaction is open: once it has run, the
      // database is this transaction's alone, and an answer that had to go round the event loop
      // would leave it idle and locked meanwhile (1,000 official starts in 10 s: p50 2.5-7.1 s
      // with that gap, 2.3-4.5 s without it). With another transaction open (its code awaiting
      // something else, a timer, a file), waiting here would stop the thread that must finish
      // it: that BEGIN goes round the event loop.
      // (A BEGIN still on its way counts as open: it may be the one that holds the database.)
      const alone = open === 0;
      open++;
      try {
        const tx = alone ? callSync<number>({ kind: "begin" }) : await call<number>({ kind: "begin" });
        let result;
        try {
          result = await fn(queryable(tx));
        } catch (error) {
          try {
            callSync({ kind: "end", tx, commit: false });
          } catch {
            // A rollback that fails (the thread is gone) must not hide what went wrong.
          }
          throw error;
        }
        callSync({ kind: "end", tx, commit: true });
        return result;
      } finally {
        open--;
      }
    },
    async close() {
      if (stopped) return;
      await call({ kind: "close" });
      await new Promise<void>((resolve) => (stopped ? resolve() : worker.once("exit", () => resolve())));
    },
  };
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
