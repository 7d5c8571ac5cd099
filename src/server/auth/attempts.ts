/**
 * Failed logins per client address over every account, in a window, in memory (per process).
 * Used to ask for a captcha after 3 failures; the per-account and per-(account, address)
 * counts live in the database (login.ts).
 */
export class FailedAttempts {
  private readonly map = new Map<string, { count: number; first: number }>();
  constructor(
    private readonly windowMs = 15 * 60_000,
    private readonly maxKeys = 10_000,
  ) {}

  count(key: string, at = Date.now()): number {
    const entry = this.map.get(key);
    if (!entry) return 0;
    if (at - entry.first > this.windowMs) {
      this.map.delete(key);
      return 0;
    }
    return entry.count;
  }

  fail(key: string, at = Date.now()): void {
    const current = this.count(key, at);
    if (current === 0 && this.map.size >= this.maxKeys) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    const entry = this.map.get(key);
    if (entry) entry.count += 1;
    else this.map.set(key, { count: 1, first: at });
  }

  /** Takes one failure back (an attempt refused before its password was checked). */
  release(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    entry.count -= 1;
    if (entry.count <= 0) this.map.delete(key);
  }

  clear(key: string): void {
    this.map.delete(key);
  }
}

/** After this many failures (per account or per address) login needs the click captcha. */
export const CAPTCHA_AFTER_FAILURES = 3;
