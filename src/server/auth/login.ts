import { msg } from "@lingui/core/macro";
import type { Queryable } from "../db/index.ts";
import { ApiError } from "../errors.ts";
import type { FailedAttempts } from "./attempts.ts";
import { consumeClickCaptcha } from "./captcha.ts";
import { verifyPassword } from "./password.ts";

/** After this many failed logins in a row the account is locked for a while (API.md). */
export const MAX_LOGIN_FAILURES = 10;

interface AccountRow {
  id: number;
  password_hash: string;
  status: string;
  login_failure: number;
  login_failure_time: number | null;
}

/**
 * Checks a username and password against `admin` or `member`. Unknown user and wrong password
 * get the same message; 10 failures in a row lock the account for `lockSeconds`.
 */
export async function checkCredentials<T extends AccountRow>(
  db: Queryable,
  table: "admin" | "member",
  username: string,
  password: string,
  ip: string,
  lockSeconds: number,
): Promise<T> {
  const { rows } = await db.query<T>(`select * from ${table} where username = $1`, [username]);
  const account = rows[0];
  const now = Math.floor(Date.now() / 1000);
  if (!account) {
    await verifyPassword(password, DUMMY_HASH); // same work as a real check: no user enumeration by timing
    throw new ApiError(msg`Incorrect username or password`);
  }
  const locked =
    account.login_failure >= MAX_LOGIN_FAILURES && account.login_failure_time !== null && now - account.login_failure_time < lockSeconds;
  if (locked) throw new ApiError(msg`Too many failed logins: this account is locked, please try again later`);
  if (!(await verifyPassword(password, account.password_hash))) {
    const failures = account.login_failure >= MAX_LOGIN_FAILURES ? 1 : account.login_failure + 1;
    await db.query(`update ${table} set login_failure = $1, login_failure_time = $2 where id = $3`, [failures, now, account.id]);
    throw new ApiError(msg`Incorrect username or password`);
  }
  if (account.status !== "enable") throw new ApiError(msg`This account has been disabled`);
  await db.query(`update ${table} set login_failure = 0, login_failure_time = null, last_login_time = $1, last_login_ip = $2 where id = $3`, [
    now,
    ip,
    account.id,
  ]);
  return account;
}

/** A login that must pass the click captcha: refused (with `data.captcha`) unless it is solved now. */
export async function requireLoginCaptcha(db: Queryable, captchaId: string | undefined, captchaInfo: string | undefined): Promise<void> {
  if (!captchaId || !captchaInfo) throw new ApiError(msg`Please complete the captcha`, 0, { captcha: true });
  if (!(await consumeClickCaptcha(db, captchaId, captchaInfo))) {
    throw new ApiError(msg`The captcha is wrong or has expired, please try again`, 0, { captcha: true });
  }
}

/** `checkCredentials`, with failures also counted per address (they switch the captcha on). */
export async function logIn<T extends AccountRow>(
  db: Queryable,
  table: "admin" | "member",
  username: string,
  password: string,
  ip: string,
  lockSeconds: number,
  failures: FailedAttempts,
): Promise<T> {
  try {
    const account = await checkCredentials<T>(db, table, username, password, ip, lockSeconds);
    failures.clear(ip);
    return account;
  } catch (error) {
    failures.fail(ip);
    throw error;
  }
}

// scrypt hash of a random string: used only to spend the same time on unknown usernames.
const DUMMY_HASH = "scrypt$16384$8$1$3q2-7w$yQ0yC0cQb7nI1mC1n3W2hZb4zW6y5o6c0L6qJ8c3e2U";
