#!/usr/bin/env node
// Exam takers: N members each with an open official attempt save an answer every 30 s
// on average (Poisson arrivals), and one in ten also sends a 20-op practice sync every 30 s.
// Open loop: each request is due at its arrival time and its latency counts from then, so a
// server that falls behind shows it. The rate steps up until a step misses p99 < 200 ms or
// has an error; the last step held is the figure. Then 1,000 members start the same official
// exam within 10 s, and a soak runs at the held rate (BENCH_SOAK_MINUTES, RSS at start and end).
//
// On PostgreSQL when DATABASE_URL is set (a server URL whose user may create databases: a fresh
// database is made there and dropped after; without it that scenario is skipped with a line
// saying so), and on the embedded PGlite. Members, tokens and attempts are seeded with a few
// bulk SQL inserts into the app's own schema (the server migrates it first). Run alone (`node tests/bench/takers.mjs`, after a build) or in `npm run bench`.
// TAKERS_STEP_SECONDS (default 10), TAKERS_STEPS and TAKERS_PGLITE_STEPS (comma-separated takers)
// tune the steps; TAKERS_PGLITE=0 skips the embedded run.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startServer, stop } from "./server.mjs";

const GOAL = { postgres: 20_000, pglite: 6_000 };
const P99_LIMIT_MS = 200;
const SAVE_EVERY_S = 30;
const SYNC_EVERY_S = 30;
const SYNC_OPS = 20;
const START_MEMBERS = 1_000;
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
function cpuTicks(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]);
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
    db: db.reduce((s, p) => s + cpuTicks(p), 0),
    serverRss: rssMb(serverPid),
    dbPss: db.reduce((s, p) => s + pssMb(p), 0),
  };
}
const cpuPct = (a, b, key) => ((b[key] - a[key]) / TICK / ((b.at - a.at) / 1000)) * 100;

// ---------------------------------------------------------------------------------------------
// The load: open-loop Poisson arrivals.

function client(base) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2048 });
  return (pathName, token, body) =>
    new Promise((resolve) => {
      const data = JSON.stringify(body);
      const req = http.request(
        { host: url.hostname, port: url.port, path: pathName, method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data), "ba-user-token": token } },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => {
            try {
              resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
            } catch {
              resolve({ status: res.statusCode, body: null });
            }
          });
        },
      );
      req.on("error", (error) => resolve({ status: 0, body: null, error }));
      req.end(data);
    });
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

/** Sends each `{due, send}` at its time (send resolves true when the answer is right); latencies from `due`. */
async function runSchedule(jobs) {
  jobs.sort((a, b) => a.due - b.due);
  const start = performance.now();
  const pending = [];
  const results = new Map();
  for (const job of jobs) {
    const wait = start + job.due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(
      job.send().then((ok) => {
        const ms = performance.now() - (start + job.due);
        const r = results.get(job.kind) ?? { ms: [], errors: 0, firstError: null, slow: [] };
        r.ms.push(ms);
        // Requests over the limit, by when they were due (wall clock): the soak prints when its slow spells were.
        if (ms >= P99_LIMIT_MS) r.slow.push({ at: performance.timeOrigin + start + job.due, ms });
        if (ok !== true) {
          r.errors++;
          r.firstError ??= ok;
        }
        results.set(job.kind, r);
      }),
    );
  }
  await Promise.all(pending);
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

function loadJobs(post, data, takers, seconds) {
  const saveRate = takers / SAVE_EVERY_S;
  const syncRate = Math.ceil(takers / 10) / SYNC_EVERY_S;
  const jobs = [];
  for (const due of arrivals(saveRate, seconds)) {
    const m = data.takers[Math.floor(Math.random() * takers)];
    const q = data.examQuestions[Math.floor(Math.random() * data.examQuestions.length)];
    jobs.push({
      due,
      kind: "save",
      send: async () => {
        const r = await post("/api/exam/official/save", m.token, { uuid: m.uuid, answers: { [q]: Math.random() < 0.5 ? "A" : "B" } });
        return r.body?.code === 1 || `HTTP ${r.status} ${r.error?.code ?? ""} ${JSON.stringify(r.body)?.slice(0, 160)}`;
      },
    });
  }
  for (const due of arrivals(syncRate, seconds)) {
    // One in ten takers also practises (every tenth of them).
    const m = data.takers[Math.floor(Math.random() * Math.ceil(takers / 10)) * 10] ?? data.takers[0];
    jobs.push({
      due,
      kind: "sync",
      send: async () => {
        const at = Date.now();
        const ops = Array.from({ length: SYNC_OPS }, (_, i) => ({
          id: randomUUID(),
          type: "practice.answer",
          at: at + i,
          payload: { questionId: data.practiceQuestions[Math.floor(Math.random() * data.practiceQuestions.length)], bankId: data.practiceBank, answer: Math.random() < 0.5 ? "A" : "B" },
        }));
        const r = await post("/api/exam/sync", m.token, { ops });
        const applied = r.body?.data?.results?.filter((x) => x.status === "applied").length;
        return (r.body?.code === 1 && applied === SYNC_OPS) || `HTTP ${r.status} ${r.error?.code ?? ""} ${JSON.stringify(r.body)?.slice(0, 160)}`;
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
  const steps = ((serverUrl ? process.env.TAKERS_STEPS : process.env.TAKERS_PGLITE_STEPS) || (serverUrl ? "2000,4000,6000,8000,10000,12000,15000,20000,25000" : "1000,2000,3000,4000,5000,6000,8000"))
    .split(",")
    .map(Number);
  const maxTakers = Math.max(...steps);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-bench-takers-"));
  let env = { LOGIN_RATE_LIMIT: "1000000" };
  let dropDatabase = async () => {};
  let dbUrl = "";
  try {
    if (serverUrl) {
      const { default: pg } = await import("pg");
      const name = `bench_takers_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      dbUrl = url.toString();
      env = { ...env, DATABASE_URL: dbUrl };
      dropDatabase = async () => {
        const c = new pg.Client({ connectionString: serverUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      };
    }
    // The server migrates; then the bulk seed goes straight into the database.
    await stop((await startServer(["dist/server/main.js"], dataDir, env)).child);
    const t0 = performance.now();
    let data;
    if (serverUrl) {
      const { default: pg } = await import("pg");
      const c = new pg.Client({ connectionString: dbUrl });
      await c.connect();
      data = await seed((sql, params) => c.query(sql, params), { takers: maxTakers, starters: START_MEMBERS });
      await c.end();
    } else {
      const { PGlite } = await import("@electric-sql/pglite");
      const db = await PGlite.create({ dataDir: path.join(dataDir, "pgdata") });
      data = await seed((sql, params) => db.query(sql, params), { takers: maxTakers, starters: START_MEMBERS });
      await db.close();
    }
    console.log(`${label}: ${fmt(maxTakers + START_MEMBERS)} members, tokens and ${fmt(maxTakers)} open official attempts seeded in ${fmt(performance.now() - t0)} ms (bulk inserts)`);

    const server = await startServer(["dist/server/main.js"], dataDir, env);
    const pid = server.child.pid;
    const postmaster = await postmasterPid(dbUrl);
    const post = client(server.url);
    const pool = process.env.DATABASE_POOL_SIZE || "10 (default)";
    try {
      console.log(
        `one server process${serverUrl ? `, pool ${pool}` : ""}; steps of ${stepSeconds} s; a save every ${SAVE_EVERY_S} s per taker, a ${SYNC_OPS}-op sync every ${SYNC_EVERY_S} s per tenth taker; latency from when each request was due`,
      );
      // Warm-up (JIT, connections): 3 s at the first step's rate, not counted.
      await runSchedule(loadJobs(post, data, steps[0], 3).jobs);
      let held = null;
      for (const takers of steps) {
        const { jobs, saveRate, syncRate } = loadJobs(post, data, takers, stepSeconds);
        const before = usage(pid, postmaster);
        const r = await runSchedule(jobs);
        const after = usage(pid, postmaster);
        const save = r.get("save") ?? { ms: [], errors: 0 };
        const sync = r.get("sync") ?? { ms: [], errors: 0 };
        const errors = save.errors + sync.errors;
        const ok = errors === 0 && pct(save.ms, 99) < P99_LIMIT_MS && pct(sync.ms, 99) < P99_LIMIT_MS;
        const cpu = postmaster ? `server CPU ${fmt(cpuPct(before, after, "server"))} %, database CPU ${fmt(cpuPct(before, after, "db"))} %` : `server CPU ${fmt(cpuPct(before, after, "server"))} %${serverUrl ? "" : " (database inside)"}`;
        const mem = postmaster ? `server RSS ${fmt(after.serverRss)} MB, database PSS ${fmt(after.dbPss)} MB` : `server RSS ${fmt(after.serverRss)} MB`;
        console.log(
          `${fmt(takers).padStart(6)} takers (${fmt(saveRate)} saves/s + ${fmt(syncRate)} syncs/s): save p50 ${fmt(pct(save.ms, 50))} / p99 ${fmt(pct(save.ms, 99))} ms, sync p50 ${fmt(pct(sync.ms, 50))} / p99 ${fmt(pct(sync.ms, 99))} ms, errors ${errors}; ${cpu}; ${mem} ${ok ? "held" : "NOT held"}`,
        );
        if (errors > 0) console.log(`  first error: ${save.firstError ?? sync.firstError}`);
        if (!ok) break;
        held = takers;
        await sleep(1000);
      }
      console.log(
        `highest rate held (p99 < ${P99_LIMIT_MS} ms, no errors) on ${label}: ${held ? `${fmt(held)} takers (${fmt(held / SAVE_EVERY_S)} saves/s + ${fmt(Math.ceil(held / 10) / SYNC_EVERY_S)} syncs/s)` : "none of the steps"}   [goal: ${fmt(GOAL[kind])} takers on ${label}${held && held >= Math.max(...steps) ? "; the steps stopped before the limit" : ""}]`,
      );

      // 1,000 members start the same official exam within 10 s.
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
          `${fmt(START_MEMBERS)} members calling official start within ${START_WINDOW_S} s: ${fmt(r.ms.length - r.errors)} served, ${r.errors} errors, p50 ${fmt(pct(r.ms, 50))} ms, p99 ${fmt(pct(r.ms, 99))} ms, max ${fmt(r.ms.at(-1))} ms; server CPU ${fmt(cpuPct(before, after, "server"))} %   [goal: all ${fmt(START_MEMBERS)} served]`,
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
          let sliceP99 = 0;
          for (const x of r.values()) {
            if (x.errors > 0 && errors === 0) console.log(`  soak, first error: ${x.firstError}`);
            errors += x.errors;
            sent += x.ms.length;
            sliceP99 = Math.max(sliceP99, pct(x.ms, 99));
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
  console.log("# Exam takers (official saves + practice syncs, open loop)");
  await takersBench();
}
