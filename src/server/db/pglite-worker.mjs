// The embedded database's own thread (src/server/db/pglite.ts, openFilePGlite). PGlite runs
// PostgreSQL in WebAssembly on the thread that calls it; here that is this worker, so the
// server's event loop (HTTP, JSON, the app) and the database each get a core.
//
// Plain JavaScript: it runs as it is from src/ (tests) and from dist/server (every server build
// emits it next to main.js: vite.config.ts, serverWorkers).
// Messages, each answered with { id, ok, value } or { id, ok: false, error }:
//   { id, kind: "query", sql, params, tx? }  rows and rowCount
//   { id, kind: "exec", sql, tx? }           statements without parameters
//   { id, kind: "begin" }                    opens a transaction, answers its number
//   { id, kind: "end", tx, commit }          commits (or rolls back) that transaction
//   { id, kind: "close" }                    closes the database; the worker then ends
// A query without `tx` waits for an open transaction to end (PGlite runs one thing at a time),
// exactly as when PGlite runs on the main thread.
//
// A message with `sync: true` (a transaction's BEGIN, statements and end) is answered on
// workerData.port instead, and workerData.signal is set and notified: the main thread waits
// for it (Atomics.wait) without going round its event loop. The transaction holds the database
// meanwhile, so the wait is the statement's own time, as when PGlite ran on the main thread;
// going round a busy event loop between statements would leave the database idle and locked.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pgliteOptions } from "./pglite-options.mjs";

/** A PostgreSQL error's fields (SQLSTATE, table, constraint ...) survive the trip; a clone of an Error keeps only its message. */
function serializeError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const out = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function") continue;
    out[key] = typeof value === "object" && value !== null ? String(value) : value;
  }
  return out;
}

class Rollback extends Error {}

const { port: syncPort, signal } = workerData;
/** 1: a reply is on the sync port; 2: this thread has ended (no reply will come). */
function wake(state) {
  Atomics.store(signal, 0, state);
  Atomics.notify(signal, 0);
}
process.on("exit", () => wake(2));

const transactions = new Map();
let nextTx = 1;
let pg;

async function handle(message) {
  switch (message.kind) {
    case "query": {
      const q = message.tx ? transactions.get(message.tx)?.tx : pg;
      if (!q) throw new Error("The transaction has ended");
      const r = await q.query(message.sql, message.params);
      return { rows: r.rows, rowCount: r.affectedRows || r.rows.length };
    }
    case "exec": {
      const q = message.tx ? transactions.get(message.tx)?.tx : pg;
      if (!q) throw new Error("The transaction has ended");
      await q.exec(message.sql);
      return null;
    }
    case "begin": {
      const id = nextTx++;
      return await new Promise((opened, failed) => {
        const done = pg
          .transaction(
            (tx) =>
              new Promise((commit, rollback) => {
                transactions.set(id, { tx, commit, rollback, done });
                opened(id);
              }),
          )
          .finally(() => transactions.delete(id));
        // BEGIN itself failed (closed database): the callback never ran.
        done.catch((error) => failed(error));
      });
    }
    case "end": {
      const entry = transactions.get(message.tx);
      if (!entry?.commit) throw new Error("The transaction has ended");
      if (message.commit) {
        entry.commit();
        await entry.done;
      } else {
        entry.rollback(new Rollback());
        await entry.done.catch((error) => {
          if (!(error instanceof Rollback)) throw error;
        });
      }
      return null;
    }
    case "close": {
      if (!pg.closed) await pg.close();
      return null;
    }
    default:
      throw new Error(`Unknown message ${message.kind}`);
  }
}

try {
  pg = await PGlite.create({ ...pgliteOptions, dataDir: workerData.dataDir });
  parentPort.postMessage({ id: 0, ok: true, value: null });
} catch (error) {
  parentPort.postMessage({ id: 0, ok: false, error: serializeError(error) });
  process.exit(1);
}

function answer(message, reply) {
  if (message.sync) {
    syncPort.postMessage(reply);
    wake(1);
  } else {
    parentPort.postMessage(reply);
  }
}

parentPort.on("message", (message) => {
  handle(message).then(
    (value) => {
      answer(message, { id: message.id, ok: true, value });
      if (message.kind === "close") parentPort.close();
    },
    (error) => answer(message, { id: message.id, ok: false, error: serializeError(error) }),
  );
});
