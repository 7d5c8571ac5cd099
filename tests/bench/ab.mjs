#!/usr/bin/env node
// A/B of two server builds on one noisy machine: `node tests/bench/ab.mjs <a/main.js> <b/main.js>`
// starts both on their own fresh PostgreSQL database (DATABASE_URL: a server URL) and sends the
// same requests to each in turn, one at a time (an official save, a 20-op practice sync), so
// both see the same background load. Prints p50 / p90 of each. Used to compare a change's before and after.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startServer, stop } from "./server.mjs";
import { seed } from "./takers.mjs";

const [a, b] = process.argv.slice(2);
const serverUrl = process.env.DATABASE_URL;
const N = Number(process.env.AB_ROUNDS || 300);
if (!a || !b || !serverUrl) throw new Error("usage: DATABASE_URL=postgres://... node tests/bench/ab.mjs <a/main.js> <b/main.js>");

async function side(entry) {
  const name = `bench_ab_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-bench-ab-"));
  const env = { DATABASE_URL: url.toString() };
  await stop((await startServer([entry], dataDir, env)).child);
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  const data = await seed((sql, params) => c.query(sql, params), { takers: 100, starters: 1 });
  await c.end();
  const server = await startServer([entry], dataDir, env);
  return {
    entry,
    data,
    server,
    ms: { save: [], sync: [] },
    async close() {
      await stop(server.child);
      const d = new pg.Client({ connectionString: serverUrl });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function timed(s, kind, pathName, token, body) {
  const t0 = performance.now();
  const res = await fetch(`${s.server.url}${pathName}`, { method: "POST", headers: { "content-type": "application/json", "ba-user-token": token }, body: JSON.stringify(body) });
  const json = await res.json();
  if (json.code !== 1) throw new Error(`${s.entry} ${pathName}: ${JSON.stringify(json).slice(0, 200)}`);
  s.ms[kind].push(performance.now() - t0);
}

const sides = [await side(a), await side(b)];
try {
  for (let i = 0; i < N; i++) {
    for (const s of i % 2 ? [...sides].reverse() : sides) {
      const m = s.data.takers[i % s.data.takers.length];
      await timed(s, "save", "/api/exam/official/save", m.token, { uuid: m.uuid, answers: { [s.data.examQuestions[i % 10]]: i % 2 ? "A" : "B" } });
      const at = Date.now();
      const ops = Array.from({ length: 20 }, (_, k) => ({
        id: randomUUID(),
        type: "practice.answer",
        at: at + k,
        payload: { questionId: s.data.practiceQuestions[(i * 20 + k) % s.data.practiceQuestions.length], bankId: s.data.practiceBank, answer: k % 2 ? "A" : "B" },
      }));
      await timed(s, "sync", "/api/exam/sync", m.token, { ops });
    }
  }
  const pct = (v, p) => [...v].sort((x, y) => x - y)[Math.min(v.length - 1, Math.floor((p / 100) * v.length))];
  for (const s of sides) {
    console.log(`${s.entry}: save p50 ${pct(s.ms.save, 50).toFixed(2)} / p90 ${pct(s.ms.save, 90).toFixed(2)} ms; 20-op sync p50 ${pct(s.ms.sync, 50).toFixed(2)} / p90 ${pct(s.ms.sync, 90).toFixed(2)} ms (${N} each, alternating)`);
  }
} finally {
  for (const s of sides) await s.close();
}
