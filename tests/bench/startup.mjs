#!/usr/bin/env node
// `npm start` on a built tree with an existing DATA_DIR: how long until it listens, how long until
// `/api/health` answers with the database usable (the request is sent the moment the server
// prints its address), and the CPU the process used until then (all its threads). In `npm run
// bench` (run.mjs) and alone:
//
//   node tests/bench/startup.mjs [runs] [tree ...]
//
// Each tree is a built checkout (this one by default); with several, their starts alternate
// (a, b, a, b ...) so a load that comes and goes falls on each alike. Each tree gets its own
// DATA_DIR, made by a first start that is not counted.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { root, startServer, stop } from "./server.mjs";

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 2 });
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** CPU seconds a process has used so far, every thread (Linux /proc: utime + stime). */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
}

/** One GET of /api/health: resolves with the HTTP status and the envelope's `data.db`. */
function health(url) {
  return new Promise((resolve) => {
    http
      .get(`${url}/api/health`, { agent: false }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => {
          let db;
          try {
            db = JSON.parse(body)?.data?.db;
          } catch {
            db = undefined;
          }
          resolve({ status: res.statusCode, db });
        });
      })
      .on("error", () => resolve({ status: 0, db: undefined }));
  });
}

/** The "Start-up phases" line (STARTUP_PHASES=1, src/server/startup.ts) if the server writes it within 2 s. */
function phasesLine(child) {
  return new Promise((resolve) => {
    let err = "";
    const onData = (d) => {
      err += d;
      const line = /Start-up phases[^\n]*/.exec(err)?.[0];
      if (line) done(line);
    };
    const timer = setTimeout(() => done(""), 2000);
    const done = (line) => {
      clearTimeout(timer);
      child.stderr.off("data", onData);
      resolve(line);
    };
    child.stderr.on("data", onData);
  });
}

/**
 * One `npm start` of `tree` on `dataDir`: ms until it prints its address, ms until health
 * answers 200 with the database ok, CPU seconds until then. `keep` leaves the server running
 * (its `server` is in the answer); otherwise it is stopped with SIGTERM.
 */
export async function timeStart(tree, dataDir, { keep = false } = {}) {
  const t0 = performance.now();
  const server = await startServer([path.join(tree, "src/tools/start.mjs")], dataDir, { STARTUP_PHASES: "1" });
  const listenMs = performance.now() - t0;
  const phases = phasesLine(server.child);
  let answer = await health(server.url);
  while (answer.status !== 200 || answer.db !== "ok") {
    await new Promise((r) => setTimeout(r, 5));
    answer = await health(server.url);
  }
  const healthyMs = performance.now() - t0;
  const cpu = cpuSeconds(server.child.pid);
  const line = await phases;
  if (!keep) await stop(server.child);
  return { listenMs, healthyMs, cpu, phases: line, server };
}

/** The medians of some starts of one tree (the phases of the start nearest the median), with the load average. */
export function summarize(runs, tree = root, load = [os.loadavg()[0], os.loadavg()[0]]) {
  const healthyMs = median(runs.map((r) => r.healthyMs));
  const closest = runs.reduce((a, b) => (Math.abs(b.healthyMs - healthyMs) < Math.abs(a.healthyMs - healthyMs) ? b : a));
  return {
    tree,
    listenMs: median(runs.map((r) => r.listenMs)),
    healthyMs,
    healthyAll: runs.map((r) => r.healthyMs),
    cpu: median(runs.map((r) => r.cpu)),
    phases: closest.phases,
    load,
  };
}

/** `runs` starts of each tree, alternating; the medians per tree. */
export async function startupBench(trees, runs) {
  const dataDirs = trees.map(() => fs.mkdtempSync(path.join(os.tmpdir(), "exam-startup-")));
  try {
    // The first start of each makes its DATA_DIR (create, migrate, seed): not counted.
    for (const [i, tree] of trees.entries()) await timeStart(tree, dataDirs[i]);
    const results = trees.map(() => []);
    const loadBefore = os.loadavg()[0];
    for (let run = 0; run < runs; run++) {
      for (const [i, tree] of trees.entries()) results[i].push(await timeStart(tree, dataDirs[i]));
    }
    const load = [loadBefore, os.loadavg()[0]];
    return trees.map((tree, i) => summarize(results[i], tree, load));
  } finally {
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printStartup(result, label = "npm start on a built tree") {
  const all = result.healthyAll.map((ms) => fmt(Math.round(ms))).join(", ");
  console.log(
    `${label}: healthy ${fmt(Math.round(result.healthyMs))} ms, "Listening" line ${fmt(Math.round(result.listenMs))} ms, ${fmt(result.cpu)} CPU-s (medians of ${result.healthyAll.length}: ${all}; load ${fmt(result.load[0])} → ${fmt(result.load[1])})   [goal: healthy ≤ 0.6 s]`,
  );
  if (result.phases) console.log(`  ${result.phases}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 10);
  const trees = process.argv.slice(3).map((t) => path.resolve(t));
  if (trees.length === 0) trees.push(root);
  for (const result of await startupBench(trees, runs)) printStartup(result, trees.length > 1 ? result.tree : undefined);
}
