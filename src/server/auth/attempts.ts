import type { Queryable } from "../db/index.ts";

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
    const { rows } = await this.db.query<{ failures: number }>(
      "select failures from login_address_failure where kind = $1 and address = $2 and first_failure > $3",
      [this.kind, address, this.now() - this.windowSeconds],
    );
    return rows[0]?.failures ?? 0;
  }

  /** Counts one failure (a window that ran out starts again); answers the count before it. */
  async fail(address: string): Promise<number> {
    const t = this.now();
    const { rows } = await this.db.query<{ failures: number }>(
      `insert into login_address_failure as f (kind, address, failures, first_failure) values ($1, $2, 1, $3)
       on conflict (kind, address) do update set
         failures = case when f.first_failure <= $3 - $4 then 1 else f.failures + 1 end,
         first_failure = case when f.first_failure <= $3 - $4 then $3 else f.first_failure end
       returning failures`,
      [this.kind, address, t, this.windowSeconds],
    );
    return (rows[0]?.failures ?? 1) - 1;
  }

  /** Takes one failure back (an attempt refused before its password was checked). */
  async release(address: string): Promise<void> {
    await this.db.query("update login_address_failure set failures = greatest(failures - 1, 0) where kind = $1 and address = $2", [this.kind, address]);
  }

  async clear(address: string): Promise<void> {
    await this.db.query("delete from login_address_failure where kind = $1 and address = $2", [this.kind, address]);
  }
}

/** After this many failures (per account or per address) login needs the click captcha. */
export const CAPTCHA_AFTER_FAILURES = 3;
