// The built server on a fresh demo database in a temporary data directory, for the screenshot
// scripts: resolves with its address once it listens, and removes the directory when stopped.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export async function startServer(root) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-shots-"));
  const child = spawn(process.execPath, [path.join(root, "dist/server/main.js")], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not start:\n${out}`));
    }, 120_000);
    child.stdout.on("data", () => {
      const match = /Listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}:\n${out}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => (child.exitCode === null ? child.on("exit", resolve) : resolve()));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
