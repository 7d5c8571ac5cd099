#!/usr/bin/env node
// The server's face check per snapshot (ms, peak memory): runs face-check.ts under tsx in a
// process of its own (so its peak RSS is the check's alone). Run alone (`node tests/bench/face.mjs`)
// or as part of `npm run bench`. FACE_BENCH_RUNS sets the runs per picture (default 20).
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { root } from "./server.mjs";

export function faceBench() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/bench/face-check.ts"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`face bench exited with ${code}`))));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log("# Face check per snapshot (server side, @vladmandic/human on the WASM backend)");
  await faceBench();
}
