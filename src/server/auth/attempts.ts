import type { Queryable } from "../db/index.ts";
import { addressFailures, countAddressFailure, deleteAddressFailures, releaseAddressFailure } from "./repository.ts";

/**
 * Failed logins per client address over every account, in a window: used to ask for a captcha
 * after 3 failures. In the database (`login_address_failure`), so every server process on it
 * counts the same failures; the per-account and per-(account, address) counts live beside it
 * (login.ts).
 */
export class FailedAttempts {
  constructor(
    private readonly db: Queryable,
    private readonly kind: "admin" | "member",
    private readonly windowSeconds = 15 * 60,
  ) {}

  private now = () => Math.floor(Date.now() / 1000);

  async count(address: string): Promise<number> {
    return addressFailures(this.db, this.kind, address, this.now() - this.windowSeconds);
  }

  /** Counts one failure (a window that ran out starts again); answers the count before it. */
  async fail(address: string): Promise<number> {
    const t = this.now();
    return ((await countAddressFailure(this.db, this.kind, address, t, t - this.windowSeconds)) ?? 1) - 1;
  }

  /** Takes one failure back (an attempt refused before its password was checked). */
  async release(address: string): Promise<void> {
    await releaseAddressFailure(this.db, this.kind, address);
  }

  async clear(address: string): Promise<void> {
    await deleteAddressFailures(this.db, this.kind, address);
  }
}

/** After this many failures (per account or per address) login needs the click captcha. */
export const CAPTCHA_AFTER_FAILURES = 3;
