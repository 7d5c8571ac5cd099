import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test as base, type Page } from "@playwright/test";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const serverEntry = path.join(root, "dist/server/main.js");

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** The newest click captcha's target centres (image pixels), from the test-only answers file. */
  lastCaptcha(): { id: string; centers: { x: number; y: number }[]; width: number; height: number };
  /** The newest code the default sender "sent" to this address (read from the server's log). */
  lastCode(target: string): string;
  /** The newest message the default sender kept in the outbox for this address, secret links included (the test-only E2E_OUTBOX_FILE). */
  lastOutboxMessage(target: string): { channel: string; target: string; subject: string; body: string };
  /** Moves the server's clock of spaced review and reminders `ms` ahead of the real time (the test-only E2E_CLOCK_FILE). */
  setClockOffset(ms: number): void;
  stop(): Promise<number | null>;
}

/** Settings that change how a server behaves, not the data it starts with. */
const RUNTIME_ONLY = new Set(["ACCESS_TOKEN_TTL", "LOG_LEVEL"]);

/**
 * Starts the production server (dist/server/main.js) on a free port (PORT=0) with a fresh
 * DATA_DIR, and resolves once it prints its address.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-e2e-"));
  // A server whose settings do not change what is in the database starts from a copy of the
  // migrated, seeded data directory global-setup.ts made (a few seconds less per server); the
  // server still runs its start-up on it (migrations and seeding find nothing to do).
  const template = process.env.E2E_DATA_TEMPLATE;
  if (template && Object.keys(env).every((key) => RUNTIME_ONLY.has(key))) {
    fs.cpSync(template, dataDir, { recursive: true });
    for (const file of ["pglite.lock", "captcha-answers.jsonl", "clock-offset", "outbox.jsonl"]) fs.rmSync(path.join(dataDir, file), { force: true });
  }
  const answersFile = path.join(dataDir, "captcha-answers.jsonl");
  const clockFile = path.join(dataDir, "clock-offset");
  const outboxFile = path.join(dataDir, "outbox.jsonl");
  const child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      DATABASE_URL: "",
      E2E_CAPTCHA_ANSWERS_FILE: answersFile,
      E2E_CLOCK_FILE: clockFile,
      E2E_OUTBOX_FILE: outboxFile,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    // A loaded machine (several test runs on 2 cores) can take a while; a server that does not
    // start is stopped, never left running.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      void exited.then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      reject(new Error(`server did not start in 90 s:\n${out}`));
    }, 90_000);
    // Read until the address shows, then no more: the server logs every request, and scanning the
    // whole output again on each of them would grow with the run.
    const check = () => {
      const match = /Listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off("data", check);
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
    lastCaptcha: () => {
      const lines = fs.readFileSync(answersFile, "utf8").trim().split("\n");
      return JSON.parse(lines[lines.length - 1]!);
    },
    lastCode: (target: string) => {
      const codes = out
        .split("\n")
        .filter((line) => line.includes("written to the outbox") && line.includes(`"target":"${target}"`))
        .map((line) => /\b(\d{6})\b/.exec((JSON.parse(line) as { body: string }).body)?.[1]);
      const code = codes[codes.length - 1];
      if (!code) throw new Error(`no code sent to ${target}`);
      return code;
    },
    lastOutboxMessage: (target: string) => {
      const kept = fs.existsSync(outboxFile) ? fs.readFileSync(outboxFile, "utf8").trim().split("\n").filter(Boolean) : [];
      const message = kept.map((line) => JSON.parse(line) as { channel: string; target: string; subject: string; body: string }).findLast((m) => m.target === target);
      if (!message) throw new Error(`no message kept in the outbox for ${target}`);
      return message;
    },
    setClockOffset: (ms: number) => fs.writeFileSync(clockFile, String(ms)),
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
    // Longer than the server's own start limit (90 s), so a slow start is reported, not cut off.
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

export { expect } from "@playwright/test";

// The login forms are page objects (pages/login.ts); every spec imports them from here.
export { logInAdmin, logInMember, openAdmin, openMember, signIn, useLanguage } from "./pages/login.ts";

/**
 * Waits until the service worker controls the page, so what follows can go offline. The first
 * install claims the open page (the app shell test checks that); should the claim not reach this
 * page in time on a loaded machine, a reload is controlled by the active worker.
 */
/**
 * Waits for the question on screen to be answerable (a choice or a text box): a page that was
 * just reloaded (serviceWorkerInControl) draws it a moment later, and counting its choices before
 * then would find none.
 */
export async function questionOnScreen(page: Page): Promise<void> {
  await expect(page.getByRole("radio").or(page.getByRole("checkbox")).or(page.getByRole("textbox")).first()).toBeVisible();
}

export async function serviceWorkerInControl(page: Page): Promise<void> {
  // The config blocks service workers: a spec that needs one opts in, and one that forgot is told so.
  await page.evaluate(async () => {
    const blocked = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no service worker after 60 s: a spec that needs one says test.use({ serviceWorkers: "allow" })')), 60_000),
    );
    await Promise.race([navigator.serviceWorker.ready, blocked]);
  });
  try {
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 5_000 });
  } catch {
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  }
}
