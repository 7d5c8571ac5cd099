import { readFileSync } from "node:fs";

/**
 * The server's clock for what is scheduled by days: spaced review's due lists, the sync's "not in
 * the future" check and the push reminders. Production reads `Date.now()`. Browser tests that move
 * time forward (tests/e2e/review.spec.ts) start the server with `E2E_CLOCK_FILE`: the file holds an
 * offset in ms added to the real time (no file or no number: 0). Never set in production.
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
