#!/usr/bin/env node
// The members list of the back office on 100,000 members: `GET /admin/user/user/index` timed
// over ~200 sequential requests per shape (no search, quick search, a RANGE filter on
// create_time, both), p50 / p99. Run alone (`node tests/bench/members.mjs`, after a build) or
// as part of `npm run bench`. With MEMBERS_BENCH_DATABASE_URL (a PostgreSQL server URL) it
// runs on a fresh database there instead of the embedded PGlite. MEMBERS_BENCH_DROP_INDEX=<name>
// drops that index first (figures without it, to compare).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { freshDatabase, openDataDir, startServer as startAny, stop } from "./server.mjs";
const startServer = (dataDir, env = {}) => startAny(["dist/server/main.js"], dataDir, { LOGIN_RATE_LIMIT: "1000000", ...env });
const MEMBERS = 100_000;
const REQUESTS = 200;

/** One insert: members spread over the last 365 days, unique names, emails and mobiles. */
const INSERT = `
  insert into member (username, nickname, email, mobile, password_hash, money, score, create_time, join_time)
  select 'bench' || g, 'Bench member ' || g, 'bench' || g || '@example.com', '139' || lpad(g::text, 8, '0'), 'x',
         (g * 37) % 100000, (g * 13) % 5000, t, t
  from generate_series(1, ${MEMBERS}) g, lateral (select extract(epoch from now())::bigint - (g * 315)::bigint as t) s`;

async function seed(run) {
  const t0 = performance.now();
  const drop = process.env.MEMBERS_BENCH_DROP_INDEX;
  if (drop) {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(drop)) throw new Error("MEMBERS_BENCH_DROP_INDEX: an index name");
    await run(`drop index if exists ${drop}`);
  }
  await run(INSERT);
  await run("analyze member");
  return performance.now() - t0;
}

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function time(url, token) {
  const ms = [];
  let total = -1;
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { batoken: token } });
    const body = await res.json();
    ms.push(performance.now() - t0);
    if (body.code !== 1) throw new Error(`${url}: ${JSON.stringify(body).slice(0, 200)}`);
    total = body.data.total;
  }
  ms.sort((a, b) => a - b);
  return { p50: pct(ms, 50), p99: pct(ms, 99), total };
}

export async function membersBench() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-bench-members-"));
  const pgUrl = process.env.MEMBERS_BENCH_DATABASE_URL;
  let env = {};
  let dropDatabase = async () => {};
  try {
    let seededMs;
    if (pgUrl) {
      const { default: pg } = await import("pg");
      const fresh = await freshDatabase(pgUrl, "bench");
      // The demo (and its admin/admin123456) is seeded on PostgreSQL only when asked for.
      env = { DATABASE_URL: fresh.url, SEED_DEMO: "1" };
      dropDatabase = fresh.drop;
      // First start migrates and seeds the demo; then the members go in.
      await stop((await startServer(dataDir, env)).child);
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      seededMs = await seed((sql) => client.query(sql));
      await client.end();
    } else {
      await stop((await startServer(dataDir)).child);
      const db = await openDataDir(dataDir);
      seededMs = await seed((sql) => db.query(sql));
      await db.close();
    }
    console.log(`${pgUrl ? "PostgreSQL" : "PGlite"}: ${fmt(MEMBERS)} members inserted in ${fmt(seededMs)} ms (one generate_series insert)`);
    const server = await startServer(dataDir, env);
    try {
      const login = await (
        await fetch(`${server.url}/admin/index/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: "admin123456" }) })
      ).json();
      if (login.code !== 1) throw new Error(`admin login: ${JSON.stringify(login)}`);
      const token = login.data.userInfo.token;
      const now = Math.floor(Date.now() / 1000);
      const range = `search[0][field]=create_time&search[0][operator]=RANGE&search[0][val]=${now - 30 * 86_400},${now - 20 * 86_400}`;
      const base = `${server.url}/admin/user/user/index?page=1&limit=10`;
      for (const [name, url] of [
        ["no search", base],
        ["page 500 (offset 4,990)", `${base.replace("page=1", "page=500")}`],
        ["quick search 'bench4242'", `${base}&quickSearch=bench4242`],
        ["RANGE create_time (10 days)", `${base}&${range}`],
        ["quick search + RANGE", `${base}&quickSearch=bench6&${range}`],
        ["order by create_time + RANGE", `${base}&order=create_time,desc&${range}`],
      ]) {
        const r = await time(url, token);
        console.log(`${name.padEnd(32)} p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms (${REQUESTS} requests, total ${fmt(r.total)})`);
      }
    } finally {
      await stop(server.child);
    }
  } finally {
    await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log("# Members list (GET /admin/user/user/index)");
  await membersBench();
}
