import type { Queryable } from "../db/index.ts";
import { addressStanding, countAddressFailure } from "./repository.ts";

/** After this many failures (per account or per address) login needs the click captcha. */
export const CAPTCHA_AFTER_FAILURES = 3;

/**
 * Failed logins per client address over every account, in a window, and the rule that turns them
 * into a captcha for every login from the address. In the database (`login_address_failure`), so
 * every server process on it counts the same failures; the per-account and per-(account,
 * address) counts live beside it (login.ts).
 *
 * The rule tells a crowd from an attacker. A hall of members behind one NAT address logging in at
 * 9:00 is many accounts succeeding with a few typos; one attacker spraying guesses over many
 * accounts is failures with (almost) no success. So the address may have 3 failures plus one for
 * each account that logged in successfully from it in the window; an attacker who owns k accounts
 * buys only k more, each still bound by its own per-account count. Only failures count: attempts
 * still in flight are not failures, so a crowd's simultaneous logins never trip it (a burst is
 * bounded by the per-account counts, which do count attempts in flight, and by the rate limits).
 */
export class FailedAttempts {
  constructor(
    private readonly db: Queryable,
    private readonly kind: "admin" | "member",
    private readonly windowSeconds = 15 * 60,
  ) {}

  private now = () => Math.floor(Date.now() / 1000);

  /** Whether every login from the address needs the captcha now (`address` as `addressKey` gives it). */
  async needsCaptcha(address: string): Promise<boolean> {
    const { failures, accounts } = await addressStanding(this.db, this.kind, address, this.now() - this.windowSeconds);
    return failures >= CAPTCHA_AFTER_FAILURES + accounts;
  }

  /** Counts one failed password check (a window that ran out starts again). */
  async fail(address: string): Promise<void> {
    const t = this.now();
    await countAddressFailure(this.db, this.kind, address, t, t - this.windowSeconds);
  }
}
