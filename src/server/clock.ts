import type { FastifyInstance } from "fastify";
import { readFileSync } from "node:fs";

/**
 * The server's clock for what is scheduled by days and for session tokens: spaced review's due
 * lists, the sync's "not in the future" check, the push reminders, and when an access or refresh
 * token expires. Production reads `Date.now()`. Browser tests that move time forward (a day for
 * spaced review, past an access token's life for a refresh) start the server with
 * `E2E_CLOCK_FILE`: the file holds an offset in ms added to the real time (no file or no number:
 * 0), so they wait for nothing. Never set in production.
 */

let source: () => number = () => Date.now();

export function now(): number {
  return source();
}

/** Test-only: the clock runs `offsetFile`'s ms ahead of the real time (read on every call). */
export function useOffsetFile(offsetFile: string): void {
  source = () => {
    let offset = 0;
    try {
      const value = Number(readFileSync(offsetFile, "utf8").trim());
      if (Number.isFinite(value)) offset = value;
    } catch {
      // No file yet: the real time.
    }
    return Date.now() + offset;
  };
}

/**
 * Runs `job` every `everyMs` in this process (first after `firstMs`), never two at once here (a
 * slow run skips the ticks it overlaps; other processes run their own: the jobs claim their work
 * in the database). Failures are logged by `name`; stopped with the HTTP server (app.close()),
 * before the database closes. The push reminders and the notices run on it.
 */
export function everyMinute(app: FastifyInstance, name: string, everyMs: number, firstMs: number, job: () => Promise<void>): void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await job();
    } catch (error) {
      app.log.warn({ err: { message: (error as Error).message } }, `${name} failed`);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void tick(), firstMs);
  const timer = setInterval(() => void tick(), everyMs);
  first.unref();
  timer.unref();
  app.server.once("close", () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}
