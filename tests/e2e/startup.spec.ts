import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { root, serverEntry, startServer } from "./server.ts";

function runMain(env: Record<string, string>) {
  return spawnSync(process.execPath, [serverEntry], {
    cwd: root,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "warn", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
}

test.describe("server start-up and shutdown", () => {
  test("a bad DATABASE_URL stops start-up with one clear line", () => {
    const r = runMain({ DATABASE_URL: "postgres://app:hunter2@127.0.0.1:1/nothing" });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Cannot connect to PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/nothing: /);
    expect(r.stderr + r.stdout).not.toContain("hunter2");
  });

  test("an unwritable DATA_DIR stops start-up with one clear line", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "exam-bad-")), "file");
    fs.writeFileSync(file, "");
    const r = runMain({ DATA_DIR: path.join(file, "data"), DATABASE_URL: "" });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([`DATA_DIR ${path.join(file, "data")} is not a writable directory (ENOTDIR)`]);
  });

  test("an invalid PORT stops start-up with one clear line", () => {
    const r = runMain({ PORT: "http" });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^Invalid PORT/);
  });

  test("SIGTERM closes the server and the database cleanly", async () => {
    const server = await startServer();
    const lock = path.join(server.dataDir, "pglite.lock");
    expect(fs.existsSync(lock)).toBe(true);
    const health = await fetch(`${server.url}/api/health`);
    expect((await health.json()).data.db).toBe("ok");
    server.process.kill("SIGTERM");
    const code = await new Promise((resolve) => server.process.on("exit", resolve));
    expect(code).toBe(0);
    expect(fs.existsSync(lock)).toBe(false);
    await server.stop();
  });
});
