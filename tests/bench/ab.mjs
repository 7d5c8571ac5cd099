#!/usr/bin/env node
// A/B of two server builds on one noisy machine: `node tests/bench/ab.mjs <a/main.js> <b/main.js>`
// starts both, each on its own fresh database (PostgreSQL when DATABASE_URL is set: a server URL
// whose user may create databases; else the embedded PGlite), and sends the same requests to each
// in turn, one at a time, so both see the same background load: an answer as the app sends it (a
// sync of one `official.answer` op, then the state pull: GET /api/exam/state and
// /api/exam/review/state revalidated with their ETags), an official save, a 20-op practice sync.
// Prints p50 / p90 of each, and the server's CPU per request (process CPU over each kind's
// requests, the database's thread inside on PGlite). AB_ROUNDS (300) requests of each kind.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freshDatabase, openDataDir, startServer, stop } from "./server.mjs";
import { seed } from "./takers.mjs";

const [a, b] = process.argv.slice(2);
const serverUrl = process.env.DATABASE_URL;
const N = Number(process.env.AB_ROUNDS || 300);
if (!a || !b) throw new Error("usage: [DATABASE_URL=postgres://...] node tests/bench/ab.mjs <a/main.js> <b/main.js>");

/** The process's CPU time so far, ms (Linux /proc: user + system, every thread). */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function side(entry) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-bench-ab-"));
  let env = {};
  let drop = async () => {};
  let data;
  if (serverUrl) {
    const { default: pg } = await import("pg");
    const fresh = await freshDatabase(serverUrl, "bench_ab");
    env = { DATABASE_URL: fresh.url };
    drop = fresh.drop;
    await stop((await startServer([entry], dataDir, env)).child);
    const c = new pg.Client({ connectionString: fresh.url });
    await c.connect();
    data = await seed((sql, params) => c.query(sql, params), { takers: 100, starters: 1 });
    await c.end();
  } else {
    await stop((await startServer([entry], dataDir, env)).child);
    const db = await openDataDir(dataDir);
    data = await seed((sql, params) => db.query(sql, params), { takers: 100, starters: 1 });
    await db.close();
  }
  const server = await startServer([entry], dataDir, env);
  return {
    entry,
    data,
    server,
    ms: { answer: [], save: [], sync: [] },
    cpu: { answer: 0, save: 0, sync: 0 },
    etags: new Map(),
    async close() {
      await stop(server.child);
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const headers = (token) => ({ "think-lang": "zh-cn", batoken: "", "ba-user-token": token });

async function request(s, method, pathName, token, body, etag) {
  const res = await fetch(`${s.server.url}${pathName}`, {
    method,
    headers: { ...headers(token), ...(body ? { "content-type": "application/json" } : {}), ...(etag ? { "if-none-match": etag } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status === 304) return { etag };
  const json = await res.json();
  if (json.code !== 1) throw new Error(`${s.entry} ${pathName}: ${JSON.stringify(json).slice(0, 200)}`);
  return { json, etag: res.headers.get("etag") };
}

/** Runs `fn` on side `s`, recording its wall time and the server's CPU time under `kind`. */
async function timed(s, kind, fn) {
  const cpu0 = cpuMs(s.server.child.pid);
  const t0 = performance.now();
  await fn();
  s.ms[kind].push(performance.now() - t0);
  s.cpu[kind] += cpuMs(s.server.child.pid) - cpu0;
}

const sides = [await side(a), await side(b)];
try {
  for (let i = 0; i < N; i++) {
    for (const s of i % 2 ? [...sides].reverse() : sides) {
      const m = s.data.takers[i % s.data.takers.length];
      const q = s.data.examQuestions[i % 10];
      await timed(s, "answer", async () => {
        const now = Date.now();
        const op = { id: randomUUID(), type: "official.answer", at: now, payload: { uuid: m.uuid, questionId: q, answer: i % 2 ? "A" : "B", answeredAt: now } };
        const { json } = await request(s, "POST", "/api/exam/sync", m.token, { ops: [op] });
        if (json.data.results[0].status !== "applied") throw new Error(`${s.entry}: ${JSON.stringify(json.data.results[0])}`);
        for (const url of ["/api/exam/state", "/api/exam/review/state"]) {
          const key = `${m.token} ${url}`;
          s.etags.set(key, (await request(s, "GET", url, m.token, undefined, s.etags.get(key))).etag);
        }
      });
      await timed(s, "save", () => request(s, "POST", "/api/exam/official/save", m.token, { uuid: m.uuid, answers: { [q]: i % 2 ? "A" : "B" } }));
      const at = Date.now();
      const ops = Array.from({ length: 20 }, (_, k) => ({
        id: randomUUID(),
        type: "practice.answer",
        at: at + k,
        payload: { questionId: s.data.practiceQuestions[(i * 20 + k) % s.data.practiceQuestions.length], bankId: s.data.practiceBank, answer: k % 2 ? "A" : "B" },
      }));
      await timed(s, "sync", () => request(s, "POST", "/api/exam/sync", m.token, { ops }));
    }
  }
  const pct = (v, p) => [...v].sort((x, y) => x - y)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))];
  const line = (s, kind, name) => `${name} p50 ${pct(s.ms[kind], 50).toFixed(2)} / p90 ${pct(s.ms[kind], 90).toFixed(2)} ms, CPU ${(s.cpu[kind] / s.ms[kind].length).toFixed(2)} ms`;
  console.log(`${serverUrl ? "PostgreSQL" : "PGlite"}, ${N} of each, alternating; load average ${os.loadavg()[0].toFixed(1)}`);
  for (const s of sides) {
    console.log(`${s.entry}: ${line(s, "answer", "answer (sync + pull)")}; ${line(s, "save", "official save")}; ${line(s, "sync", "20-op practice sync")}`);
  }
} finally {
  for (const s of sides) await s.close();
}
