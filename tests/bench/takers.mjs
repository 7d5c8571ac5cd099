#!/usr/bin/env node
// Exam takers on the path the app uses: N members each with an open official attempt answer a
// question every 30 s on average (Poisson arrivals), each answer sent as the app's sync engine
// sends it (src/client/offline/sync.ts): an `official.answer` op in a batch of its own to
// POST /api/exam/sync, and when the taker's last pull is 5 minutes old the pull the engine makes
// then, GET /api/exam/state and GET /api/exam/review/state with the ETags the browser's cache
// holds (304 when unchanged). One
// taker in ten also practises: a 20-op practice batch every 30 s, with its pull. Open loop: each
// request is due at its arrival time and its latency counts from then, so a server that falls
// behind shows it. The rate steps up until a step misses p99 < 200 ms for answers (< 500 ms for
// practice syncs) or has an error; the last step held is the figure. Then one step at the held
// rate on `/api/exam/official/save` (what older clients flush; the figure before the sync path),
// TAKERS_STARTS members (5,000) start the same official exam within 10 s, and a soak runs at the
// held rate (BENCH_SOAK_MINUTES, RSS at start and end).
//
// On PostgreSQL when DATABASE_URL is set (a server URL whose user may create databases: a fresh
// database is made there and dropped after; without it that scenario is skipped with a line
// saying so), and on the embedded PGlite. Members, tokens and attempts are seeded with a few
// bulk SQL inserts into the app's own schema (the server migrates it first). Run alone (`node tests/bench/takers.mjs`, after a build) or in `npm run bench`.
// TAKERS_STEP_SECONDS (default 10), TAKERS_STEPS and TAKERS_PGLITE_STEPS (comma-separated takers)
// tune the steps; TAKERS_PGLITE=0 skips the embedded run. TAKERS_SERVER=<main.js> runs another
// build (an A/B: a copy of dist/ from before a change); TAKERS_SYNC_ONLY=1 stops after the steps
// on the sync path (no `/official/save` step, starts or soak). TAKERS_CPU_ANSWERS=<n> measures
// instead what an answer costs, closed loop: n answers (syncs of one op from random takers),
// TAKERS_CPU_CONCURRENCY (50) in flight, the CPU time of the server and of the database per answer
// and the answers per second: figures that a shared machine's load changes less than the steps'.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { freshDatabase, openDataDir, startServer, stop } from "./server.mjs";

const GOAL = { postgres: 50_000, pglite: 15_000 };
const P99_LIMIT_MS = 200;
/** A practice sync's p99 limit (issue 42's goal). */
const PRACTICE_P99_LIMIT_MS = 500;
const SAVE_EVERY_S = 30;
const SYNC_EVERY_S = 30;
const SYNC_OPS = 20;
const START_MEMBERS = Number(process.env.TAKERS_STARTS || 5_000);
const START_GOAL = 5_000;
const START_WINDOW_S = 10;
const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });
const pct = (sorted, p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Seeding: one statement per table, through the schema the server just migrated.

export async function seed(run, { takers, starters }) {
  const now = Math.floor(Date.now() / 1000);
  const one = async (sql, params) => (await run(sql, params)).rows[0];
  const examBank = (await one("insert into exam_classify (pid, title, title_en, kind) values (0, '压测考试题库', 'Bench exam bank', 'exam') returning id")).id;
  const practiceBank = (await one("insert into exam_classify (pid, title, title_en, kind) values (0, '压测练习题库', 'Bench practice bank', 'practice') returning id")).id;
  const insertQuestions = (bank, n) =>
    run(
      `insert into exam_question (classify_id, type, stem, options, answer, analysis, difficulty, score, weigh)
       select $1, 'single', '第 ' || g || ' 题：下列说法中哪一项是正确的？', '[{"key":"A","text":"甲"},{"key":"B","text":"乙"},{"key":"C","text":"丙"},{"key":"D","text":"丁"}]',
              '"B"', '解析', 1, 2, g
       from generate_series(1, $2::int) g returning id`,
      [bank, n],
    );
  const examQuestions = (await insertQuestions(examBank, 40)).rows.map((r) => r.id);
  const practiceQuestions = (await insertQuestions(practiceBank, 200)).rows.map((r) => r.id);
  const paper = (await one("insert into exam_paper (title, total_score, pass_score, duration) values ('压测试卷', 20, 12, 3600) returning id")).id;
  await run("insert into exam_paper_row (paper_id, kind, classify_id, question_type, count, score, weigh) values ($1, 'draw', $2, 'single', 10, 2, 1)", [paper, examBank]);
  const room = async (title) =>
    (await one("insert into exam_room (paper_id, title, start_time, end_time, duration, attempts_allowed) values ($1, $2, $3, $4, 86400, 1) returning id", [paper, title, now - 60, now + 2 * 86_400])).id;
  const savingRoom = await room("压测考场（作答中）");
  const startRoom = await room("压测考场（同时开考）");
  const prefix = `taker${Date.now().toString(36)}_`;
  const members = (
    await run(
      `insert into member (username, nickname, password_hash, join_time, create_time)
       select $1 || g, 'Taker ' || g, 'x', $2, $2 from generate_series(1, $3::int) g returning id`,
      [prefix, now, takers + starters],
    )
  ).rows
    .map((r) => r.id)
    .sort((a, b) => a - b);
  // A token per member: the client sends `bench-<id>`, the table holds its SHA-256 (as the app does).
  await run(
    `insert into token (token_hash, type, user_id, session_id, create_time, expire_time)
     select encode(sha256(convert_to('bench-' || m.id, 'UTF8')), 'hex'), 'user', m.id, 'bench-' || m.id, $2, $3
     from member m where m.username like $1 || '%'`,
    [prefix, now, now + 7 * 86_400],
  );
  const drawn = JSON.stringify(examQuestions.slice(0, 10).map((id) => ({ id, score: 2 })));
  const attempts = (
    await run(
      `insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, questions, answers, started_at, deadline, status)
       select gen_random_uuid()::text, m.id, 'official', $1, $2, $3::jsonb, '{}', $4, $5, 'open'
       from member m where m.username like $6 || '%' and m.id <= $7 returning user_id, uuid`,
      [paper, savingRoom, drawn, now, now + 86_400, prefix, members[takers - 1]],
    )
  ).rows.sort((a, b) => a.user_id - b.user_id);
  await run("analyze");
  return {
    takers: attempts.map((a) => ({ id: a.user_id, token: `bench-${a.user_id}`, uuid: a.uuid })),
    starters: members.slice(takers).map((id) => ({ id, token: `bench-${id}` })),
    examQuestions: examQuestions.slice(0, 10),
    practiceBank,
    practiceQuestions,
    startRoom,
  };
}

// ---------------------------------------------------------------------------------------------
// CPU and memory of the server and of the database server (Linux /proc).

const TICK = 100; // USER_HZ
/** User + system ticks of `pid`; with `reaped`, plus those of its children that have exited (a backend that ended). */
function cpuTicks(pid, reaped = false) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
  } catch {
    return 0;
  }
}
function rssMb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}
/** Proportional set size (shared buffers split between the processes that map them), MB. */
function pssMb(pid) {
  try {
    return Number(/Pss:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return rssMb(pid);
  }
}
/** The postmaster and its children (backends, writer, WAL writer...). */
function clusterPids(postmaster) {
  if (!postmaster) return [];
  const pids = [postmaster];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster) pids.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return pids;
}
function usage(serverPid, postmaster) {
  const db = clusterPids(postmaster);
  return {
    at: performance.now(),
    server: cpuTicks(serverPid),
    // The postmaster reaps the backends: a connection closed during a step keeps its CPU counted.
    db: db.reduce((s, p) => s + cpuTicks(p, p === postmaster), 0),
    serverRss: rssMb(serverPid),
    dbPss: db.reduce((s, p) => s + pssMb(p), 0),
  };
}
const cpuPct = (a, b, key) => ((b[key] - a[key]) / TICK / ((b.at - a.at) / 1000)) * 100;

// ---------------------------------------------------------------------------------------------
// The load: open-loop Poisson arrivals.

/**
 * Requests as the app's HTTP client sends them (src/client/api/http.ts: the language and both
 * token headers on every request). `get` sends `If-None-Match` when given an ETag, as the
 * browser's cache does for the state pulls (`private, no-cache`).
 */
function client(base) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2048 });
  const send = (method, pathName, token, body, etag) =>
    new Promise((resolve) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const headers = { "think-lang": "zh-cn", batoken: "", "ba-user-token": token };
      if (data !== undefined) Object.assign(headers, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
      if (etag) headers["if-none-match"] = etag;
      const req = http.request({ host: url.hostname, port: url.port, path: pathName, method, agent, headers }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json = null;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode, body: json, etag: res.headers.etag });
        });
      });
      req.on("error", (error) => resolve({ status: 0, body: null, error }));
      req.end(data);
    });
  const post = (pathName, token, body) => send("POST", pathName, token, body);
  post.get = (pathName, token, etag) => send("GET", pathName, token, undefined, etag);
  return post;
}

/** Arrival times (ms from the start) of a Poisson process of `rate` per second over `seconds`. */
function arrivals(rate, seconds) {
  const out = [];
  let t = 0;
  for (;;) {
    t += (-Math.log(1 - Math.random()) / rate) * 1000;
    if (t >= seconds * 1000) return out;
    out.push(t);
  }
}

/**
 * Sends each `{due, send}` at its time (send resolves true when the answer is right); latencies
 * from `due`. `send` gets a recorder for what follows the request (the pull after a sync):
 * `record(kind, ms, ok)`, and `record.after(promise)` to be waited for.
 */
async function runSchedule(jobs) {
  jobs.sort((a, b) => a.due - b.due);
  const start = performance.now();
  const pending = [];
  const results = new Map();
  const record = (kind, ms, ok, due = performance.now() - ms - start) => {
    const r = results.get(kind) ?? { ms: [], errors: 0, firstError: null, slow: [] };
    r.ms.push(ms);
    // Requests over the limit, by when they were due (wall clock): the soak prints when its slow spells were.
    if (ms >= P99_LIMIT_MS) r.slow.push({ at: performance.timeOrigin + start + due, ms });
    if (ok !== true) {
      r.errors++;
      r.firstError ??= ok;
    }
    results.set(kind, r);
  };
  record.after = (promise) => pending.push(promise);
  for (const job of jobs) {
    const wait = start + job.due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(job.send(record).then((ok) => record(job.kind, performance.now() - (start + job.due), ok, job.due)));
  }
  // The pulls are added while the sends finish.
  for (let i = 0; i < pending.length; i++) await pending[i];
  for (const r of results.values()) r.ms.sort((a, b) => a - b);
  return results;
}

/** The slow requests' spells: runs of seconds with requests over the limit, each with its wall-clock start (UTC), length, count and worst latency. */
function slowSpells(slow) {
  const seconds = new Map();
  for (const { at, ms } of slow) {
    const second = Math.floor(at / 1000);
    const s = seconds.get(second) ?? { n: 0, worst: 0 };
    s.n++;
    s.worst = Math.max(s.worst, ms);
    seconds.set(second, s);
  }
  const spells = [];
  for (const second of [...seconds.keys()].sort((a, b) => a - b)) {
    const last = spells.at(-1);
    const s = seconds.get(second);
    if (last && second - last.to <= 2) Object.assign(last, { to: second, n: last.n + s.n, worst: Math.max(last.worst, s.worst) });
    else spells.push({ from: second, to: second, n: s.n, worst: s.worst });
  }
  return (
    spells
      .filter((s) => s.n >= 5)
      .map((s) => `${new Date(s.from * 1000).toISOString().slice(11, 19)} +${s.to - s.from + 1} s: ${fmt(s.n)} slow, worst ${fmt(s.worst)} ms`)
      .join("; ") || "no spell of 5 or more slow requests"
  );
}

const failed = (r) => `HTTP ${r.status} ${r.error?.code ?? ""} ${JSON.stringify(r.body)?.slice(0, 160)}`;

/**
 * The pull the sync engine makes after each push: the exam state, then the review state, each
 * revalidated with the ETag of the member's last answer (kept per member, as the browser's
 * cache would). Counted as its own kind, from when the push was answered.
 */
function pull(post, m, record) {
  const t0 = performance.now();
  const etags = (m.etags ??= {});
  const get = async (pathName, key) => {
    const r = await post.get(pathName, m.token, etags[key]);
    if (r.status === 304) return true;
    if (r.body?.code !== 1) return failed(r);
    etags[key] = r.etag;
    return true;
  };
  return get("/api/exam/state", "state")
    .then((ok) => (ok === true ? get("/api/exam/review/state", "review") : ok))
    .then((ok) => record("pull", performance.now() - t0, ok));
}

/**
 * After pushing only an exam's answers the sync engine pulls only when its last pull is older
 * than QUIET_PULL_MAX_AGE_MS (src/client/offline/sync.ts: 5 minutes). Each taker's last pull
 * starts at a random moment of the 5 minutes before the bench (members open the exam page at
 * different times, and opening it pulls), so about one answer in ten is followed by a pull.
 */
const QUIET_PULL_MAX_AGE_MS = 5 * 60_000;
function pullDue(m) {
  const now = performance.now();
  m.lastPull ??= now - Math.random() * QUIET_PULL_MAX_AGE_MS;
  if (now - m.lastPull < QUIET_PULL_MAX_AGE_MS) return false;
  m.lastPull = now;
  return true;
}

/** One `official.answer` op as the app makes it (offline/repository/official.ts): answered now, on the server's clock. */
function answerOp(m, questionId) {
  const now = Date.now();
  return { id: randomUUID(), type: "official.answer", at: now, payload: { uuid: m.uuid, questionId, answer: Math.random() < 0.5 ? "A" : "B", answeredAt: now } };
}

/**
 * The load of `takers` over `seconds`: an answer every SAVE_EVERY_S per taker (through sync, or
 * `/official/save` with `via: "save"`), a practice sync every SYNC_EVERY_S per tenth taker, each
 * practice sync followed by its pull, an answer's sync by one when the taker's last pull is 5
 * minutes old (pullDue).
 */
function loadJobs(post, data, takers, seconds, via = "sync") {
  const saveRate = takers / SAVE_EVERY_S;
  const syncRate = Math.ceil(takers / 10) / SYNC_EVERY_S;
  const jobs = [];
  for (const due of arrivals(saveRate, seconds)) {
    const m = data.takers[Math.floor(Math.random() * takers)];
    const q = data.examQuestions[Math.floor(Math.random() * data.examQuestions.length)];
    jobs.push(
      via === "save"
        ? {
            due,
            kind: "save",
            send: async () => {
              const r = await post("/api/exam/official/save", m.token, { uuid: m.uuid, answers: { [q]: Math.random() < 0.5 ? "A" : "B" } });
              return r.body?.code === 1 || failed(r);
            },
          }
        : {
            due,
            kind: "answer",
            send: async (record) => {
              const r = await post("/api/exam/sync", m.token, { ops: [answerOp(m, q)] });
              const ok = (r.body?.code === 1 && r.body.data.results[0]?.status === "applied") || failed(r);
              if (ok === true && pullDue(m)) record.after(pull(post, m, record));
              return ok;
            },
          },
    );
  }
  for (const due of arrivals(syncRate, seconds)) {
    // One in ten takers also practises (every tenth of them).
    const m = data.takers[Math.floor(Math.random() * Math.ceil(takers / 10)) * 10] ?? data.takers[0];
    jobs.push({
      due,
      kind: "practice",
      send: async (record) => {
        const at = Date.now();
        const ops = Array.from({ length: SYNC_OPS }, (_, i) => ({
          id: randomUUID(),
          type: "practice.answer",
          at: at + i,
          payload: { questionId: data.practiceQuestions[Math.floor(Math.random() * data.practiceQuestions.length)], bankId: data.practiceBank, answer: Math.random() < 0.5 ? "A" : "B" },
        }));
        const r = await post("/api/exam/sync", m.token, { ops });
        const applied = r.body?.data?.results?.filter((x) => x.status === "applied").length;
        const ok = (r.body?.code === 1 && applied === SYNC_OPS) || failed(r);
        if (ok === true) {
          m.lastPull = performance.now();
          record.after(pull(post, m, record));
        }
        return ok;
      },
    });
  }
  return { jobs, saveRate, syncRate };
}

// ---------------------------------------------------------------------------------------------

async function postmasterPid(url) {
  if (!url) return null;
  const { default: pg } = await import("pg");
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const dir = (await c.query("show data_directory")).rows[0].data_directory;
    return Number(fs.readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return null; // not a superuser, or another machine: database CPU is not shown
  } finally {
    await c.end();
  }
}

/** `n` answers closed loop, `concurrency` in flight: CPU ms of the server and the database per answer, answers/s, latency. */
async function answerCost(post, data, n, concurrency, pid, postmaster, takers) {
  const ms = [];
  let errors = 0;
  let firstError = null;
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const m = data.takers[Math.floor(Math.random() * takers)];
      const q = data.examQuestions[Math.floor(Math.random() * data.examQuestions.length)];
      const t0 = performance.now();
      const r = await post("/api/exam/sync", m.token, { ops: [answerOp(m, q)] });
      ms.push(performance.now() - t0);
      if (!(r.body?.code === 1 && r.body.data.results[0]?.status === "applied")) {
        errors++;
        firstError ??= failed(r);
      }
    }
  };
  const before = usage(pid, postmaster);
  await Promise.all(Array.from({ length: concurrency }, worker));
  const after = usage(pid, postmaster);
  ms.sort((a, b) => a - b);
  const seconds = (after.at - before.at) / 1000;
  const cpuMs = (key) => (((after[key] - before[key]) / TICK) * 1000) / n;
  console.log(
    `${fmt(n)} answers, ${concurrency} in flight: ${fmt(n / seconds)} answers/s, p50 ${fmt(pct(ms, 50))} / p99 ${fmt(pct(ms, 99))} ms; CPU per answer: server ${cpuMs("server").toFixed(2)} ms${postmaster ? `, database ${cpuMs("db").toFixed(2)} ms` : " (database inside)"}; errors ${errors}; load average ${os.loadavg()[0].toFixed(1)}`,
  );
  if (firstError) console.log(`  first error: ${firstError}`);
}

/** The PostgreSQL scenario when DATABASE_URL is set (a clear line when not), then the embedded one (TAKERS_PGLITE=0 skips it). */
export async function takersBench() {
  const serverUrl = process.env.DATABASE_URL || "";
  if (serverUrl) {
    console.log("## On PostgreSQL (DATABASE_URL)");
    await scenario(serverUrl);
  } else {
    console.log("PostgreSQL scenario skipped: DATABASE_URL is not set (a PostgreSQL server URL whose user may create databases, e.g. postgres://postgres@127.0.0.1:5432/postgres).");
  }
  if (process.env.TAKERS_PGLITE !== "0") {
    console.log("## On the embedded PGlite");
    await scenario("");
  }
}

async function scenario(serverUrl) {
  const kind = serverUrl ? "postgres" : "pglite";
  const label = serverUrl ? "PostgreSQL" : "PGlite (embedded)";
  const stepSeconds = Number(process.env.TAKERS_STEP_SECONDS || 10);
  const soakMinutes = Number(process.env.BENCH_SOAK_MINUTES || 0.5);
  const steps = ((serverUrl ? process.env.TAKERS_STEPS : process.env.TAKERS_PGLITE_STEPS) || (serverUrl ? "2000,5000,10000,15000,20000,25000,30000,40000,50000" : "1000,2000,4000,6000,8000,10000,12000,15000"))
    .split(",")
    .map(Number);
  const maxTakers = Math.max(...steps);
  const serverMain = process.env.TAKERS_SERVER || "dist/server/main.js";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-bench-takers-"));
  let env = { LOGIN_RATE_LIMIT: "1000000" };
  let dropDatabase = async () => {};
  let dbUrl = "";
  try {
    if (serverUrl) {
      const fresh = await freshDatabase(serverUrl, "bench_takers");
      dbUrl = fresh.url;
      env = { ...env, DATABASE_URL: dbUrl };
      dropDatabase = fresh.drop;
    }
    // The server migrates; then the bulk seed goes straight into the database.
    await stop((await startServer([serverMain], dataDir, env)).child);
    const t0 = performance.now();
    let data;
    if (serverUrl) {
      const { default: pg } = await import("pg");
      const c = new pg.Client({ connectionString: dbUrl });
      await c.connect();
      data = await seed((sql, params) => c.query(sql, params), { takers: maxTakers, starters: START_MEMBERS });
      await c.end();
    } else {
      const db = await openDataDir(dataDir);
      data = await seed((sql, params) => db.query(sql, params), { takers: maxTakers, starters: START_MEMBERS });
      await db.close();
    }
    console.log(`${label}: ${fmt(maxTakers + START_MEMBERS)} members, tokens and ${fmt(maxTakers)} open official attempts seeded in ${fmt(performance.now() - t0)} ms (bulk inserts)`);

    const server = await startServer([serverMain], dataDir, env);
    const pid = server.child.pid;
    const postmaster = await postmasterPid(dbUrl);
    const post = client(server.url);
    const pool = process.env.DATABASE_POOL_SIZE || "10 (default)";
    try {
      console.log(
        `one server process${serverUrl ? `, pool ${pool}` : ""}; steps of ${stepSeconds} s from a cold start (no warm-up); per taker an answer every ${SAVE_EVERY_S} s (a sync of one official.answer op; the state pull after it when the taker last pulled 5 min ago), per tenth taker a ${SYNC_OPS}-op practice sync every ${SYNC_EVERY_S} s (and its pull); latency from when each request was due`,
      );
      if (process.env.TAKERS_CPU_ANSWERS) {
        await answerCost(post, data, Number(process.env.TAKERS_CPU_ANSWERS), Number(process.env.TAKERS_CPU_CONCURRENCY || 50), pid, postmaster, maxTakers);
        return;
      }
      const none = { ms: [], errors: 0, firstError: null };
      /** One step's line: each kind's p50 / p99, the errors, CPU and memory; held when every limit is met. */
      const step = async (takers, via) => {
        const { jobs, saveRate, syncRate } = loadJobs(post, data, takers, stepSeconds, via);
        const before = usage(pid, postmaster);
        const r = await runSchedule(jobs);
        const after = usage(pid, postmaster);
        const answers = r.get(via === "save" ? "save" : "answer") ?? none;
        const practice = r.get("practice") ?? none;
        const pulls = r.get("pull") ?? none;
        const errors = answers.errors + practice.errors + pulls.errors;
        const ok = errors === 0 && pct(answers.ms, 99) < P99_LIMIT_MS && pct(practice.ms, 99) < PRACTICE_P99_LIMIT_MS;
        const cpu = postmaster ? `server CPU ${fmt(cpuPct(before, after, "server"))} %, database CPU ${fmt(cpuPct(before, after, "db"))} %` : `server CPU ${fmt(cpuPct(before, after, "server"))} %${serverUrl ? "" : " (database inside)"}`;
        const mem = postmaster ? `server RSS ${fmt(after.serverRss)} MB, database PSS ${fmt(after.dbPss)} MB` : `server RSS ${fmt(after.serverRss)} MB`;
        const figures = (name, x) => `${name} p50 ${fmt(pct(x.ms, 50))} / p99 ${fmt(pct(x.ms, 99))} ms`;
        console.log(
          `${fmt(takers).padStart(6)} takers (${fmt(saveRate)} answers/s${via === "save" ? " on /official/save" : ""} + ${fmt(syncRate)} practice syncs/s): ${figures(via === "save" ? "save" : "answer", answers)}, ${figures("practice sync", practice)}${pulls.ms.length ? `, ${figures("pull", pulls)}` : ""}, errors ${errors}; ${cpu}; ${mem}; load average ${os.loadavg()[0].toFixed(1)} ${ok ? "held" : "NOT held"}`,
        );
        if (errors > 0) console.log(`  first error: ${answers.firstError ?? practice.firstError ?? pulls.firstError}`);
        return ok;
      };
      let held = null;
      for (const takers of steps) {
        if (!(await step(takers, "sync"))) break;
        held = takers;
        await sleep(1000);
      }
      console.log(
        `highest rate held (answers p99 < ${P99_LIMIT_MS} ms, practice syncs p99 < ${PRACTICE_P99_LIMIT_MS} ms, no errors) on ${label}: ${held ? `${fmt(held)} takers (${fmt(held / SAVE_EVERY_S)} answers/s + ${fmt(Math.ceil(held / 10) / SYNC_EVERY_S)} practice syncs/s)` : "none of the steps"}   [goal: ${fmt(GOAL[kind])} takers on ${label}${held && held >= Math.max(...steps) ? "; the steps stopped before the limit" : ""}]`,
      );
      if (process.env.TAKERS_SYNC_ONLY === "1") return;
      // The same load with the answers on /official/save (older clients' flush; the figure before the sync path).
      await step(held ?? steps[0], "save");

      // TAKERS_STARTS members start the same official exam within 10 s.
      {
        const jobs = data.starters.map((m) => ({
          due: Math.random() * START_WINDOW_S * 1000,
          kind: "start",
          send: async () => {
            const r = await post("/api/exam/official/start", m.token, { roomId: data.startRoom });
            return (r.body?.code === 1 && r.body.data.questions.length === 10) || `HTTP ${r.status} ${JSON.stringify(r.body)?.slice(0, 160)}`;
          },
        }));
        const before = usage(pid, postmaster);
        const r = (await runSchedule(jobs)).get("start");
        const after = usage(pid, postmaster);
        console.log(
          `${fmt(START_MEMBERS)} members calling official start within ${START_WINDOW_S} s: ${fmt(r.ms.length - r.errors)} served, ${r.errors} errors, p50 ${fmt(pct(r.ms, 50))} ms, p99 ${fmt(pct(r.ms, 99))} ms, max ${fmt(r.ms.at(-1))} ms; server CPU ${fmt(cpuPct(before, after, "server"))} %   [goal: all of ${fmt(START_GOAL)} served within the window]`,
        );
        if (r.errors > 0) console.log(`  first error: ${r.firstError}`);
      }

      // The soak: the held rate (or the first step) for BENCH_SOAK_MINUTES, in one-minute slices.
      {
        const takers = held ?? steps[0];
        const total = soakMinutes * 60;
        const start = usage(pid, postmaster);
        let errors = 0;
        let worstP99 = 0;
        let sent = 0;
        const minutes = [];
        for (let done = 0; done < total; ) {
          const slice = Math.min(60, total - done);
          const r = await runSchedule(loadJobs(post, data, takers, slice).jobs);
          // The answers' p99 (the goal's figure); every kind's errors.
          const sliceP99 = pct(r.get("answer")?.ms ?? [], 99);
          for (const x of r.values()) {
            if (x.errors > 0 && errors === 0) console.log(`  soak, first error: ${x.firstError}`);
            errors += x.errors;
            sent += x.ms.length;
          }
          worstP99 = Math.max(worstP99, sliceP99);
          minutes.push(sliceP99);
          if (sliceP99 >= P99_LIMIT_MS) console.log(`  soak minute ${minutes.length} (p99 ${fmt(sliceP99)} ms): ${slowSpells([...r.values()].flatMap((x) => x.slow))}`);
          done += slice;
        }
        const end = usage(pid, postmaster);
        console.log(
          `soak ${fmt(soakMinutes)} min at ${fmt(takers)} takers (${fmt(sent)} requests): server RSS ${fmt(start.serverRss)} MB at start, ${fmt(end.serverRss)} MB at end${postmaster ? `; database PSS ${fmt(start.dbPss)} -> ${fmt(end.dbPss)} MB` : ""}; worst one-minute p99 ${fmt(worstP99)} ms, errors ${errors}   [goal: 10 min, memory flat${soakMinutes < 10 ? "; BENCH_SOAK_MINUTES=10 for the real figure" : ""}]`,
        );
        if (minutes.length > 1) console.log(`  p99 of each minute (ms): ${minutes.map((ms) => fmt(ms)).join(", ")}`);
      }
    } finally {
      await stop(server.child);
    }
  } finally {
    await dropDatabase().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log("# Exam takers (answers through sync as the app sends them, practice syncs, open loop)");
  await takersBench();
}
