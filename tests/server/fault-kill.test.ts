import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Queryable } from "../../src/server/db/index.ts";
import { migrate } from "../../src/server/db/migrate.ts";
import { openFilePGlite } from "../../src/server/db/pglite.ts";
import { openPostgres } from "../../src/server/db/postgres.ts";
import { isStale } from "../../src/tools/build.mjs";
import { testDatabaseUrl } from "../helpers/db.ts";

/**
 * Fault test: the server process is killed (SIGKILL: no shutdown, no flush) in the
 * middle of a burst of sync requests and started again on the same data, on the embedded PGlite
 * (DATA_DIR) and, with TEST_DATABASE_URL, on PostgreSQL. After the client sends every batch
 * again, every op is applied exactly once (the wrong book's counter, which each op increments,
 * says so), batches answered before the kill come back as duplicates, and the embedded
 * database opens again with its data.
 *
 * The server runs as a real child process: its bundle is built here (vite build --ssr, about
 * 10 s) into dist/ of this tree, so that its packages resolve from the project's node_modules, unless
 * the tree's dist/server is a current build.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const outDir = path.join(root, "dist", `fault-kill-${process.pid}`);
const BATCHES = 24;
const OPS = 20;
const IN_FLIGHT = 4;

/** The folder of the server bundle the test runs: the tree's own dist/server when it is current. */
let serverDir = outDir;

beforeAll(() => {
  // `npm run build` of this very tree (CI builds before it tests) is the same bundle.
  if (!isStale()) {
    serverDir = path.join(root, "dist", "server");
    return;
  }
  const built = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--ssr", "src/server/main.ts", "--outDir", outDir, "--logLevel", "error"], {
    cwd: root,
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`server build failed: ${built.stderr}`);
}, 180_000);
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

interface Server {
  child: ChildProcess;
  url: string;
}

function start(env: Record<string, string>): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(serverDir, "main.js")], {
      cwd: root,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "error", SEED_DEMO: "0", DATABASE_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        child.stdout!.off("data", onData);
        child.off("exit", onExit);
        resolve({ child, url: m[1]! });
      }
    };
    const onExit = (code: number | null) => reject(new Error(`server exited (${code}): ${out}`));
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", onExit);
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", () => r()));
}

async function stop(server: Server): Promise<void> {
  const done = exited(server.child);
  server.child.kill("SIGTERM");
  await done;
}

/** The seed, straight into the migrated database: a member, their token, a practice bank. */
async function seed(db: Queryable) {
  const run = (sql: string, params?: unknown[]) => db.query<Record<string, unknown>>(sql, params);
  const now = Math.floor(Date.now() / 1000);
  const member = (await run("insert into member (username, password_hash) values ('faultkill', 'x') returning id")).rows[0]!.id as number;
  const token = `fault-kill-${randomUUID()}`;
  await run(
    "insert into token (token_hash, type, user_id, session_id, create_time, expire_time) values (encode(sha256(convert_to($1, 'UTF8')), 'hex'), 'user', $2, $1, $3, $4)",
    [token, member, now, now + 3600],
  );
  const bank = (await run("insert into exam_classify (pid, title, kind) values (0, 'fault bank', 'practice') returning id")).rows[0]!.id as number;
  const questions = (
    await run(
      `insert into exam_question (classify_id, type, stem, options, answer, analysis, difficulty, score, weigh)
       select $1, 'single', 'q' || g, '[{"key":"A","text":"a"},{"key":"B","text":"b"}]', '"A"', '', 1, 1, g from generate_series(1, 10) g returning id`,
      [bank],
    )
  ).rows.map((r) => r.id as number);
  return { member, token, bank, questions };
}

type Seeded = Awaited<ReturnType<typeof seed>>;
interface Counts {
  ops: number;
  distinctOps: number;
  answers: number;
  wrong: number;
}
const COUNT_SQL = `select (select count(*)::int from sync_op where user_id = $1) as ops,
  (select count(distinct op_id)::int from sync_op where user_id = $1) as "distinctOps",
  (select count(*)::int from exam_practice_answer where user_id = $1) as answers,
  (select coalesce(sum(count), 0)::int from exam_wrong where user_id = $1) as wrong`;

async function send(url: string, token: string, ops: object[]): Promise<{ id: string; status: string }[]> {
  const res = await fetch(`${url}/api/exam/sync`, { method: "POST", headers: { "content-type": "application/json", "ba-user-token": token }, body: JSON.stringify({ ops }) });
  const body = (await res.json()) as { code: number; data: { results: { id: string; status: string }[] } };
  if (body.code !== 1) throw new Error(`sync answered ${JSON.stringify(body).slice(0, 200)}`);
  return body.data.results;
}

/**
 * The scenario on one database: migrate and seed (through the app's own database code, while no
 * server holds it), start, burst, SIGKILL after a few answers, start again, resend every batch.
 */
async function scenario(env: Record<string, string>, open: () => Promise<Database>) {
  const withDb = async <T>(fn: (db: Database) => Promise<T>): Promise<T> => {
    const db = await open();
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  };
  const s: Seeded = await withDb(async (db) => {
    await migrate(db);
    return seed(db);
  });
  // Every op a wrong practice answer: each one applied adds 1 to the wrong book.
  let at = Date.now() - 60_000;
  const batches = Array.from({ length: BATCHES }, () =>
    Array.from({ length: OPS }, (_, i) => ({
      id: randomUUID(),
      type: "practice.answer",
      at: at++,
      payload: { questionId: s.questions[i % s.questions.length], bankId: s.bank, answer: "B" },
    })),
  );

  const first = await start(env);
  const answered = new Set<number>();
  const failed = new Set<number>();
  let next = 0;
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    first.child.kill("SIGKILL");
  };
  const worker = async () => {
    while (next < BATCHES) {
      const i = next++;
      try {
        await send(first.url, s.token, batches[i]!);
        answered.add(i);
        // A few batches in, with others in flight: the process dies.
        if (answered.size === 3) kill();
      } catch {
        failed.add(i);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  kill();
  await exited(first.child);
  expect(first.child.signalCode).toBe("SIGKILL");
  expect(answered.size).toBeGreaterThanOrEqual(3);
  expect(failed.size).toBeGreaterThan(0); // the kill did land mid-burst

  // Started again on the same data (a stale PGlite lock of a dead process is taken over).
  const second = await start(env);
  try {
    // The client sends every batch again (it cannot know which of the failed ones committed).
    for (const [i, batch] of batches.entries()) {
      const results = await send(second.url, s.token, batch);
      expect(results.map((r) => r.id)).toEqual(batch.map((op) => op.id));
      for (const r of results) expect(["applied", "duplicate"]).toContain(r.status);
      // What the server answered before dying was committed: it is not applied twice.
      if (answered.has(i)) expect(results.every((r) => r.status === "duplicate")).toBe(true);
    }
    // A second resend: everything is a duplicate now.
    const again = await send(second.url, s.token, batches[0]!);
    expect(again.every((r) => r.status === "duplicate")).toBe(true);
  } finally {
    await stop(second);
  }
  // Every op applied exactly once; the database opens again (PGlite: after a clean stop too).
  const counts = (await withDb((db) => db.query<Counts>(COUNT_SQL, [s.member]))).rows[0];
  const total = BATCHES * OPS;
  expect(counts).toEqual({ ops: total, distinctOps: total, answers: total, wrong: total });
}

/** Embedded PGlite in its folder (npm test), or a fresh database on the suite's PostgreSQL (CI's second pass). */
async function onConfiguredDatabase(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fault-kill-"));
  if (!testDatabaseUrl) {
    try {
      await scenario({ DATA_DIR: dataDir }, () => openFilePGlite(dataDir));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    return;
  }
  const name = `fault_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  try {
    await scenario({ DATABASE_URL: url.toString(), DATA_DIR: dataDir }, () => openPostgres(url.toString(), 2));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    const cleanup = new pg.Client({ connectionString: testDatabaseUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
}

describe("a server killed mid-burst of syncs", () => {
  // Like every integration test, on the suite's database: PGlite in `npm test`, PostgreSQL in
  // CI's second pass (TEST_DATABASE_URL).
  it(`${testDatabaseUrl ? "PostgreSQL" : "embedded PGlite"}: the database opens again with its data and every op is applied exactly once after the resend`, async () => {
    await onConfiguredDatabase();
  }, 180_000);
});
