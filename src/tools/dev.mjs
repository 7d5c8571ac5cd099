#!/usr/bin/env node
// `npm run dev`: the API server rebuilt and restarted on every change (vite build --ssr --watch
// + node --watch, on API_PORT, default 8001), and Vite's dev server with hot reload on
// http://127.0.0.1:5173, which proxies /api, /storage and admin API calls to it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const vite = path.join(root, "node_modules/vite/bin/vite.js");
const serverEntry = path.join(root, "dist/server/main.js");
const apiPort = process.env.API_PORT ?? "8001";
const children = [];

function start(args, env = {}) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  children.push(child);
  child.on("exit", (code) => {
    if (!stopping) {
      process.stderr.write(`dev: ${path.basename(args[0])} exited (${code}); stopping\n`);
      stop(code ?? 1);
    }
  });
  return child;
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500).unref();
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

fs.rmSync(serverEntry, { force: true });
start([vite, "build", "--ssr", "src/server/main.ts", "--watch", "--mode", "development", "--logLevel", "warn"]);
const waitForBuild = setInterval(() => {
  if (!fs.existsSync(serverEntry)) return;
  clearInterval(waitForBuild);
  start(["--watch", "--enable-source-maps", serverEntry], { PORT: apiPort, LOG_LEVEL: process.env.LOG_LEVEL ?? "info" });
  start([vite, "--host", "127.0.0.1"], { DEV_API_URL: `http://127.0.0.1:${apiPort}` });
}, 300);
