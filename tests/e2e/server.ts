import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test as base } from "@playwright/test";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const serverEntry = path.join(root, "dist/server/main.js");

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
}

/**
 * Starts the production server (dist/server/main.js) on a free port (PORT=0) with a fresh
 * DATA_DIR, and resolves once it prints its address.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-e2e-"));
  const child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${out}`)), 30_000);
    const check = () => {
      const match = /Listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    dataDir,
    process: child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      const code = await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** A test with its own production server per worker; `baseURL` points at it. */
export const test = base.extend<object, { server: RunningServer }>({
  server: [
    // Playwright reads fixture dependencies from the destructuring pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

export { expect } from "@playwright/test";
