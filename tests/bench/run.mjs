#!/usr/bin/env node
// `npm run bench`: figures, not pass/fail. Cold start of the production server (fresh and
// existing DATA_DIR, and `npm start` on a built tree), throughput of /api/health and the app
// shell on this machine, exam takers held (on PostgreSQL with DATABASE_URL), the first load and
// Lighthouse scores in Chromium, and the built shell's size (JS and CSS, gzip).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { randomBytes, scryptSync } from "node:crypto";
import autocannon from "autocannon";
import { backofficeBench } from "./backoffice.mjs";
import { faceBench } from "./face.mjs";
import { firstLoadBench } from "./first-load.mjs";
import { lighthouseBench } from "./lighthouse.mjs";
import { memberFeelBench } from "./member-feel.mjs";
import { membersBench } from "./members.mjs";
import { membersImportBench } from "./members-import.mjs";
import { questionsImportBench } from "./questions-import.mjs";
import { takersBench } from "./takers.mjs";
import { openDataDir, root, startServer, stop } from "./server.mjs";
import { printStartup, summarize, timeStart } from "./startup.mjs";

const dist = path.join(root, "dist/client");

function load(url, seconds, extra = {}) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: 20, duration: seconds, ...extra }, (err, r) => (err ? reject(err) : resolve(r))),
  );
}

/** GET with the raw response bytes counted before decompression. */
async function rawGet(url, headers) {
  const http = await import("node:http");
  const { gunzipSync: gunzip } = await import("node:zlib");
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"] ?? "identity";
          resolve({ wire: raw.length, body: encoding === "gzip" ? gunzip(raw) : raw, encoding });
        });
      })
      .on("error", reject);
  });
}

/** Adds a bank of `n` questions straight into the (stopped) server's embedded database. */
async function addBigBank(dir, n) {
  const pg = await openDataDir(dir);
  try {
    const bank = await pg.query("insert into exam_classify (pid, title, title_en, weigh) values (0, '压力测试题库', 'Load-test bank', 0) returning id");
    const id = bank.rows[0].id;
    const values = [];
    const params = [];
    for (let i = 0; i < n; i++) {
      const options = JSON.stringify(["A", "B", "C", "D"].map((key) => ({ key, text: `第 ${i + 1} 题的选项 ${key}：一段与真实题目长度相仿的文字` })));
      params.push(id, `第 ${i + 1} 题：下列说法中哪一项是正确的？这是一段与真实题目长度相仿的题干文字。`, options, JSON.stringify("B"), `解析：第 ${i + 1} 题选 B，因为 B 的说法符合题意。`, n - i);
      const b = i * 6;
      values.push(`($${b + 1}, 'single', $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, 1, 2, $${b + 6})`);
    }
    await pg.query(`insert into exam_question (classify_id, type, stem, options, answer, analysis, difficulty, score, weigh) values ${values.join(", ")}`, params);
    return id;
  } finally {
    await pg.close();
  }
}

/** Times the offline module's answer write in a real Chromium page (Debian's chromium). */
async function dexieBench(n) {
  const { build } = await import("vite");
  const out = await build({
    configFile: false,
    logLevel: "silent",
    build: { write: false, minify: true, lib: { entry: path.join(root, "tests/bench/dexie-entry.ts"), formats: ["iife"], name: "DexieBench" } },
  });
  const code = (Array.isArray(out) ? out[0] : out).output[0].code;
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
  try {
    const page = await browser.newPage();
    // A real origin for IndexedDB: a tiny local page server.
    const http = await import("node:http");
    const server = http.createServer((_req, res) => res.end("<!doctype html><title>bench</title>"));
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    try {
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.addScriptTag({ content: code });
      const r = await page.evaluate((count) => globalThis.dexieBench(count), n);
      const sorted = [...r.latencies].sort((a, b) => a - b);
      const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
      console.log(`save a 1,000-question bank:          ${fmt(r.saveBankMs)} ms`);
      console.log(`answer write (${n} answers):          p50 ${fmt(pct(50))} ms, p95 ${fmt(pct(95))} ms, p99 ${fmt(pct(99))} ms, max ${fmt(sorted.at(-1))} ms (outbox ${r.outbox} ops)`);
    } finally {
      server.close();
    }
  } finally {
    await browser.close();
  }
}

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-bench-"));
try {
  console.log("# Cold start (time until the server listens)");
  const first = await startServer(["dist/server/main.js"], dataDir);
  console.log(`new DATA_DIR (create, migrate, seed):  ${fmt(first.ms)} ms`);
  await stop(first.child);
  const again = await startServer(["dist/server/main.js"], dataDir);
  console.log(`existing DATA_DIR:                     ${fmt(again.ms)} ms`);
  await stop(again.child);
  // Three times (the machine is shared: the median), the last one kept for the throughput below;
  // `node tests/bench/startup.mjs` runs this line alone (and compares builds).
  const npmRuns = [];
  for (let i = 0; i < 3; i++) npmRuns.push(await timeStart(root, dataDir, { keep: i === 2 }));
  const viaNpm = npmRuns[2].server;
  printStartup(summarize(npmRuns));

  console.log("\n# Throughput (20 connections, this machine)");
  for (const [name, url, secs] of [
    ["GET /api/health (DB round trip)", `${viaNpm.url}/api/health`, 5],
    ["GET / (app shell)", `${viaNpm.url}/`, 3],
  ]) {
    const r = await load(url, secs);
    console.log(`${name.padEnd(34)} ${fmt(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${r.errors + r.non2xx}`);
  }
  await stop(viaNpm.child);

  console.log("\n# Login (scrypt N=16384, r=8, p=1; rate limit lifted for the run)");
  const t0 = performance.now();
  for (let i = 0; i < 10; i++) scryptSync("admin123456", randomBytes(16), 32, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  console.log(`one password hash:                  ${fmt((performance.now() - t0) / 10)} ms`);
  const loginServer = await startServer(["dist/server/main.js"], dataDir, { LOGIN_RATE_LIMIT: "1000000" });
  const login = await load(`${loginServer.url}/admin/index/login`, 5, {
    connections: 10,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "admin123456", keep: false }),
  });
  console.log(`POST /admin/index/login (10 conns)  ${fmt(login.requests.average)} req/s, p50 ${login.latency.p50} ms, p99 ${login.latency.p99} ms, errors ${login.errors + login.non2xx}`);
  await stop(loginServer.child);

  console.log("\n# Offline sync (demo member, demo math bank)");
  const syncServer = await startServer(["dist/server/main.js"], dataDir, { LOGIN_RATE_LIMIT: "1000000" });
  const post = async (path, body, token) => {
    const res = await fetch(`${syncServer.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { "ba-user-token": token } : {}) },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  const memberLogin = await post("/api/user/checkIn", { tab: "login", username: "member", password: "member123456" });
  const token = memberLogin.data.userInfo.token;
  const bankStart = performance.now();
  const bankRes = await fetch(`${syncServer.url}/api/exam/bank?id=2`, { headers: { "ba-user-token": token } });
  const bankText = await bankRes.text();
  const bank = JSON.parse(bankText).data;
  console.log(`bank download (${bank.questions.length} questions): ${(bankText.length / 1024).toFixed(1)} KiB, ${fmt(performance.now() - bankStart)} ms`);
  const questions = bank.questions;
  let clock = Date.now() - 3_600_000;
  const makeOps = (n) =>
    Array.from({ length: n }, (_, i) => {
      const q = questions[i % questions.length];
      clock += 1;
      const kind = i % 3;
      return kind === 0
        ? { id: crypto.randomUUID(), type: "practice.answer", at: clock, payload: { questionId: q.id, bankId: 2, answer: q.type === "multiple" || q.type === "fill" ? ["X"] : "X" } }
        : kind === 1
          ? { id: crypto.randomUUID(), type: "favourite.set", at: clock, payload: { questionId: q.id, on: i % 2 === 0 } }
          : { id: crypto.randomUUID(), type: "progress.set", at: clock, payload: { bankId: 2, position: i % questions.length } };
    });
  for (const batch of [20, 50, 200]) {
    const ops = makeOps(1000);
    const t1 = performance.now();
    for (let i = 0; i < ops.length; i += batch) await post("/api/exam/sync", { ops: ops.slice(i, i + batch) }, token);
    console.log(`replay 1,000 queued ops, batches of ${String(batch).padEnd(3)}   ${fmt(performance.now() - t1)} ms`);
  }
  const fixed = makeOps(20);
  await post("/api/exam/sync", { ops: fixed }, token);
  const syncLoad = await load(`${syncServer.url}/api/exam/sync`, 5, {
    connections: 10,
    method: "POST",
    headers: { "content-type": "application/json", "ba-user-token": token },
    body: JSON.stringify({ ops: fixed }),
  });
  console.log(`POST /api/exam/sync (20 duplicate ops, 10 conns)  ${fmt(syncLoad.requests.average)} req/s, p50 ${syncLoad.latency.p50} ms, p99 ${syncLoad.latency.p99} ms, errors ${syncLoad.errors + syncLoad.non2xx}`);
  await stop(syncServer.child);

  console.log("\n# A 1,000-question bank");
  const bankId = await addBigBank(dataDir, 1000);
  const bigServer = await startServer(["dist/server/main.js"], dataDir, { LOGIN_RATE_LIMIT: "1000000" });
  const bigToken = (await (await fetch(`${bigServer.url}/api/user/checkIn`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tab: "login", username: "member", password: "member123456" }),
  })).json()).data.userInfo.token;
  for (const round of ["first", "again"]) {
    // Bytes on the wire (the server gzips for clients that accept it), then the JSON they carry.
    const t2 = performance.now();
    const { wire, body, encoding } = await rawGet(`${bigServer.url}/api/exam/bank?id=${bankId}`, { "ba-user-token": bigToken, "accept-encoding": "gzip" });
    const ms = performance.now() - t2;
    const n = JSON.parse(body.toString("utf8")).data.questions.length;
    console.log(`bank download (${n} questions, ${round}): ${(wire / 1024).toFixed(1)} KiB on the wire (${encoding}), ${(body.length / 1024).toFixed(1)} KiB of JSON, ${fmt(ms)} ms`);
  }
  const etag = (await fetch(`${bigServer.url}/api/exam/bank?id=${bankId}`, { headers: { "ba-user-token": bigToken } })).headers.get("etag");
  const t3 = performance.now();
  const unchanged = await fetch(`${bigServer.url}/api/exam/bank?id=${bankId}`, { headers: { "ba-user-token": bigToken, "if-none-match": etag } });
  console.log(`unchanged bank (If-None-Match):      HTTP ${unchanged.status}, ${fmt(performance.now() - t3)} ms`);

  console.log("\n# Courses (20 connections)");
  for (const [name, url, extra] of [
    ["GET /api/course/list", `${bigServer.url}/api/course/list`, {}],
    ["GET /api/course/detail (member)", `${bigServer.url}/api/course/detail?id=1`, { headers: { "ba-user-token": bigToken } }],
    ["video range (100 KB of an MP4)", `${bigServer.url}/storage/course/demo/pattern.mp4`, { headers: { range: "bytes=100000-199999" } }],
  ]) {
    const r = await load(url, 3, extra);
    console.log(`${name.padEnd(34)} ${fmt(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
  }
  await stop(bigServer.child);

  console.log("\n# Local answer writes in Dexie (real Chromium IndexedDB; answer row + outbox op in one transaction)");
  await dexieBench(500);

  console.log("\n# Exam takers (an official.answer op synced every 30 s (the state pull after it when 5 min old) + one in ten syncing 20 practice ops every 30 s; open loop, Poisson arrivals; tests/bench/takers.mjs)");
  await takersBench();

  console.log("\n# Members list on 100,000 members (GET /admin/user/user/index, 200 sequential requests per shape)");
  await membersBench();

  console.log("\n# The back office at scale: 200,000 questions, 100,000 members, a room of 20,000 attempts (tests/bench/backoffice.mjs)");
  await backofficeBench();

  console.log("\n# Question import: 2,000 and 20,000 questions (.xlsx, dry run then import; server peak memory)");
  await questionsImportBench();

  console.log("\n# Member import: 10,000 members (.xlsx, dry run then import with invitations, export, round trip; tests/bench/members-import.mjs)");
  await membersImportBench();

  console.log("\n# Face check per snapshot (server side, @vladmandic/human on the WASM backend, 640 px at most)");
  await faceBench();

  console.log("\n# First load in Chromium (a first visit: no cache, no service worker; 390 px phone)");
  {
    const shellServer = await startServer(["dist/server/main.js"], dataDir);
    try {
      await firstLoadBench(shellServer.url);
    } finally {
      await stop(shellServer.child);
    }
  }

  console.log("\n# What a member feels on the practice page (Chromium, 390 px, service worker on; tests/bench/member-feel.mjs)");
  {
    const feelServer = await startServer(["dist/server/main.js"], dataDir);
    try {
      await memberFeelBench(feelServer.url);
    } finally {
      await stop(feelServer.child);
    }
  }

  console.log("\n# Lighthouse (npm lighthouse 12, mobile preset: simulated slow 4G, 4x CPU slowdown; Debian Chromium; a fresh profile per run; the median of LIGHTHOUSE_RUNS=5 runs per page; tests/bench/lighthouse.mjs)");
  {
    const lighthouseServer = await startServer(["dist/server/main.js"], dataDir);
    try {
      await lighthouseBench(lighthouseServer.url);
    } finally {
      await stop(lighthouseServer.child);
    }
  }

  console.log("\n# Built shell size");
  const html = fs.readFileSync(path.join(dist, "index.html"), "utf8");
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const size = (files) =>
    files.reduce(
      (acc, f) => {
        const buf = fs.readFileSync(path.join(dist, f));
        return { raw: acc.raw + buf.length, gz: acc.gz + gzipSync(buf, { level: 9 }).length };
      },
      { raw: 0, gz: 0 },
    );
  const all = fs.readdirSync(path.join(dist, "assets")).filter((f) => /\.(js|css)$/.test(f)).map((f) => `assets/${f}`);
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  for (const [label, files] of [
    ["initial JS", initial.filter((f) => f.endsWith(".js"))],
    ["initial CSS", initial.filter((f) => f.endsWith(".css"))],
    ["all JS + CSS chunks", all],
  ]) {
    const s = size(files);
    console.log(`${label.padEnd(20)} ${kb(s.raw)} raw, ${kb(s.gz)} gzip (${files.length} files)`);
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
