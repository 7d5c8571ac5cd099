/** The benches' shared process plumbing: start the built server on a free port, stop it, read its memory. */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The embedded database of a stopped server's `dataDir`, opened as the server opens it (the
 * options of src/server/db/pglite-options.mjs: its extensions, which its indexes need, and parsers).
 */
export async function openDataDir(dataDir) {
  const [{ PGlite }, { pgliteOptions }] = await Promise.all([import("@electric-sql/pglite"), import("../../src/server/db/pglite-options.mjs")]);
  return PGlite.create({ ...pgliteOptions, dataDir: path.join(dataDir, "pgdata") });
}

/**
 * A new, empty database on the PostgreSQL server at `serverUrl` (whose user may create
 * databases), named `<prefix>_<random>`: its URL, and `drop` to remove it again.
 */
export async function freshDatabase(serverUrl, prefix) {
  const { default: pg } = await import("pg");
  const name = `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const onServer = async (statement) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await onServer(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`drop database if exists ${name} with (force)`) };
}

/** Starts `node <args>` in the repo with an embedded database in `dataDir`; resolves with its URL and start-up time. */
export function startServer(args, dataDir, env = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (open it in
    // Chrome's DevTools, Performance panel) — where a bench's server time goes.
    const prof = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const child = spawn(process.execPath, [...prof, ...args], {
      cwd: root,
      env: { ...process.env, PORT: "0", DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const onData = (d) => {
      out += d;
      const m = /Listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        child.stdout.off("data", onData);
        resolve({ child, url: m[1], ms: Number(process.hrtime.bigint() - t0) / 1e6 });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

export async function stop(child) {
  child.removeAllListeners("exit");
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

/** Peak and current resident memory of a process, MB (Linux /proc). */
export function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peak: kb("VmHWM") / 1024, now: kb("VmRSS") / 1024 };
}
