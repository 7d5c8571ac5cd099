// The server's face check per snapshot, in-process: @vladmandic/human's Node build on
// the WASM backend, as POST /api/exam/official/face runs it. Spawned by face.mjs under tsx
// (`node --import tsx tests/bench/face-check.ts`); prints one figure a line.
import { judgeSnapshot } from "../../src/server/modules/face/judge.ts";
import { analyseImage, warmFaceEngine } from "../../src/server/modules/face/engine.ts";
import { facePicture, type FacePicture } from "../helpers/faces.ts";

const RUNS = Number(process.env.FACE_BENCH_RUNS ?? 20);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const fmt = (n: number) => n.toFixed(0);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const rssBefore = process.memoryUsage().rss;
const t0 = performance.now();
await warmFaceEngine();
console.log(`model load (WASM backend, 4 models):  ${fmt(performance.now() - t0)} ms, RSS ${mb(rssBefore)} -> ${mb(process.memoryUsage().rss)} MB`);

const reference = (await analyseImage(await facePicture("a"))).faces[0]!.embedding;
const rule = { threshold: 0.6, liveness: true };
const cases: [FacePicture, string][] = [
  ["aAgain", "same person (pass)"],
  ["b", "another person (mismatch)"],
  ["two", "two faces"],
  ["none", "no face"],
];
for (const [picture, label] of cases) {
  const bytes = await facePicture(picture);
  const times: number[] = [];
  let verdict = "";
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const judged = await judgeSnapshot(bytes, reference, rule);
    times.push(performance.now() - start);
    verdict = judged.verdict;
  }
  times.sort((x, y) => x - y);
  console.log(`${`${label}, ${(bytes.length / 1024).toFixed(0)} KB JPEG`.padEnd(38)} p50 ${fmt(pct(times, 50))} ms, p95 ${fmt(pct(times, 95))} ms, max ${fmt(times.at(-1)!)} ms -> ${verdict} (${RUNS} runs)`);
}
const usage = process.resourceUsage();
console.log(`peak RSS of the process:              ${(usage.maxRSS / 1024).toFixed(0)} MB (heap used now ${mb(process.memoryUsage().heapUsed)} MB)`);
