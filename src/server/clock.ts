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
