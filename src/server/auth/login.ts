import { isIPv6 } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { Queryable } from "../db/index.ts";
import { ApiError } from "../errors.ts";
import { CAPTCHA_AFTER_FAILURES, type FailedAttempts } from "./attempts.ts";
import { consumeClickCaptcha } from "./captcha.ts";
import { verifyPassword } from "./password.ts";
import {
  accountByUsername,
  claimAccountAttempt,
  claimAddressAttempt,
  claimLoginSlot,
  deleteAccountFailures,
  deleteStaleLoginRows,
  loginNextTry,
  recordAddressSuccess,
  recordLogin,
  releaseAttempt,
  type AccountKind,
} from "./repository.ts";

/**
 * Login throttling (admin and member alike), designed so that brute force stays impractical
 * without giving anyone a switch that locks the real owner out:
 *
 * - Failures are counted per username (an unknown name is counted like a real one, so no
 *   answer tells them apart) across every address (`login_guard`), and per (username, client
 *   address) (`login_address`), in the database: several server processes share them.
 * - Each attempt is counted BEFORE the slow password check, by one atomic
 *   `insert ... on conflict do update ... returning`; the count it gets back decides what it
 *   may do. An attempt refused before the check (captcha, lock, wait) takes its count back;
 *   a success resets both. Concurrent attempts therefore cannot pass more checks than the
 *   rules allow: at most 3 without a captcha, 10 per address, one per delay slot.
 * - After 3 failures on the account (from anywhere), or with the site switch, every login needs
 *   a solved click captcha; so does every login from an address with 3 failures over any
 *   accounts, plus one for each account that logged in from it lately (attempts.ts: a crowd
 *   behind one address is not an attacker).
 * - After 5 failures on the account, an address that has not logged in to it successfully in
 *   the last 90 days gets one password check per slot, and the slots grow: 1 s after the 5th
 *   failure, doubling up to 15 min. An attacker spreading guesses over many addresses gets
 *   at most 96 checks a day once the wait is at its longest, each with a solved captcha. The owner's own address
 *   (a past successful login) skips the wait, so an attack from elsewhere does not keep them out.
 * - 10 failures in a row from one address lock that address out of the account until
 *   `lockSeconds` pass without an attempt from it; other addresses are not locked.
 */

/** Failures in a row from one address that lock it out of the account. */
export const MAX_LOGIN_FAILURES = 10;
/** Account failures after which unknown addresses wait between password checks. */
export const DELAY_AFTER_FAILURES = 5;
/** Longest wait between password checks from unknown addresses, seconds. */
export const MAX_LOGIN_DELAY = 900;
/** An address that logged in to the account this recently skips the wait, seconds. */
export const KNOWN_ADDRESS_SECONDS = 90 * 86_400;

export type { AccountKind } from "./repository.ts";

interface AccountRow {
  id: number;
  password_hash: string;
  status: string;
}

/** The wait an unknown address gets after `failures` account failures (0 below the threshold). */
export function loginDelay(failures: number): number {
  if (failures < DELAY_AFTER_FAILURES) return 0;
  return Math.min(MAX_LOGIN_DELAY, 2 ** (failures - DELAY_AFTER_FAILURES));
}

/**
 * The address a failure is counted against: an IPv4 address, or the /64 network of an IPv6
 * address (one subscriber usually holds a whole /64).
 */
export function addressKey(ip: string): string {
  const bare = ip.split("%")[0]!.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  if (mapped) return mapped[1]!;
  if (!isIPv6(bare)) return ip.slice(0, 100);
  const [left = "", right] = bare.split("::");
  const l = left ? left.split(":") : [];
  const r = right ? right.split(":") : [];
  const width = (parts: string[]) => parts.reduce((n, p) => n + (p.includes(".") ? 2 : 1), 0);
  const groups = right === undefined ? l : [...l, ...Array<string>(Math.max(0, 8 - width(l) - width(r))).fill("0"), ...r];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

const now = () => Math.floor(Date.now() / 1000);

/** A login that must pass the click captcha: refused (with `data.captcha`) unless it is solved now. */
export async function requireLoginCaptcha(db: Queryable, captchaId: string | undefined, captchaInfo: string | undefined): Promise<void> {
  if (!captchaId || !captchaInfo) throw new ApiError(msg`Please complete the captcha`, 0, { captcha: true });
  if (!(await consumeClickCaptcha(db, captchaId, captchaInfo))) {
    throw new ApiError(msg`The captcha is wrong or has expired, please try again`, 0, { captcha: true });
  }
}

export interface LoginInput {
  username: string;
  password: string;
  ip: string;
  captchaId?: string | undefined;
  captchaInfo?: string | undefined;
}

export interface LoginPolicy {
  /** How long failures are remembered and an address stays locked, seconds. */
  lockSeconds: number;
  /** The site asks every login for the captcha. */
  captchaSwitch: boolean;
  /** Failures per client address over every account (in the database, shared by every process). */
  addressFailures: FailedAttempts;
}

/**
 * The login routes' flood guards (per process: @fastify/rate-limit's memory store). One account
 * from one address gets `loginRateLimit` attempts a minute; one address gets
 * `loginAddressRateLimit` over every account, enough for a hall of members behind one NAT
 * address starting an exam together (guessing across accounts from one address meets the
 * captcha long before: attempts.ts). Over either, HTTP 429 in the envelope. Runs after the
 * body is parsed: the username is part of the key.
 */
export function loginFloodGuard(app: FastifyInstance): (req: FastifyRequest) => Promise<void> {
  const perAccount = app.createRateLimit({
    max: app.config.loginRateLimit,
    timeWindow: 60_000,
    keyGenerator: (req) => `${addressKey(req.ip)} ${String((req.body as { username?: unknown } | undefined)?.username ?? "")}`,
  });
  const perAddress = app.createRateLimit({ max: app.config.loginAddressRateLimit, timeWindow: 60_000, keyGenerator: (req) => addressKey(req.ip) });
  return async (req) => {
    for (const limit of [perAddress, perAccount]) {
      const verdict = await limit(req);
      if (!verdict.isAllowed && verdict.isExceeded) throw Object.assign(new Error("login rate limit"), { statusCode: 429 });
    }
  };
}

const locked = () => new ApiError(msg`Too many failed logins: this account is locked, please try again later`);
const mustWait = (seconds: number) =>
  new ApiError(msg`Too many failed logins for this account: please wait ${seconds} seconds and try again`, 0, { wait: seconds });

/** Forgets the failures of an account (a successful login; a password reset by email or SMS code). */
export async function clearLoginFailures(db: Queryable, kind: AccountKind, username: string): Promise<void> {
  await deleteAccountFailures(db, kind, username);
}

let nextPurge = 0;
/** Rows that no longer change any decision are dropped now and then (at most every 10 minutes a process). */
async function purgeStale(db: Queryable, t: number, lockSeconds: number): Promise<void> {
  if (t < nextPurge) return;
  nextPurge = t + 600;
  await deleteStaleLoginRows(db, {
    guardBefore: t - lockSeconds,
    addressWindowBefore: t - 86_400, // every window is shorter
    addressRunBefore: t - lockSeconds,
    successBefore: t - KNOWN_ADDRESS_SECONDS,
  });
}

/**
 * Logs in to `admin` or `member` under the rules above. Unknown usernames and wrong passwords
 * get the same answer after the same work (a password check against a dummy hash); refusals
 * before the check (captcha, lock, wait) are the same for both too.
 */
export async function logIn<T extends AccountRow>(db: Queryable, kind: AccountKind, input: LoginInput, policy: LoginPolicy): Promise<T> {
  const { username, ip, lockSeconds } = { ...input, ...policy };
  const address = addressKey(ip);
  const t = now();
  await purgeStale(db, t, lockSeconds);
  const account = await accountByUsername<T>(db, kind, username);

  const crowdLimited = await policy.addressFailures.needsCaptcha(address);
  // Counted before the password check; a failure older than lockSeconds starts a new run.
  const onAccount = await claimAccountAttempt(db, kind, username, t, t - lockSeconds);
  const onAddress = await claimAddressAttempt(db, kind, username, address, t, t - lockSeconds);
  try {
    if (onAddress.failures > MAX_LOGIN_FAILURES) throw locked();
    const before = onAccount.failures - 1;
    const known = onAddress.last_success !== null && t - onAddress.last_success < KNOWN_ADDRESS_SECONDS;
    const throttled = !known && before >= DELAY_AFTER_FAILURES;
    // Checked before the captcha is spent; the slot itself is claimed after it.
    if (throttled && onAccount.next_try > t) throw mustWait(onAccount.next_try - t);
    if (policy.captchaSwitch || before >= CAPTCHA_AFTER_FAILURES || crowdLimited) {
      await requireLoginCaptcha(db, input.captchaId, input.captchaInfo);
    }
    if (throttled) {
      if (!(await claimLoginSlot(db, kind, username, t + loginDelay(before), t))) {
        throw mustWait(Math.max(1, ((await loginNextTry(db, kind, username)) ?? t + 1) - t));
      }
    }
  } catch (error) {
    await releaseAttempt(db, kind, username, address);
    throw error;
  }

  // The attempt stays counted as a failure unless it succeeds.
  const ok = await verifyPassword(input.password, account?.password_hash ?? DUMMY_HASH);
  if (!account || !ok) {
    await policy.addressFailures.fail(address);
    throw new ApiError(msg`Incorrect username or password`);
  }
  if (account.status !== "enable") throw new ApiError(msg`This account has been disabled`);

  await clearLoginFailures(db, kind, username);
  await recordAddressSuccess(db, kind, username, address, t);
  await recordLogin(db, kind, account.id, t, ip);
  return account;
}

// scrypt hash of a random string: used only to spend the same time on unknown usernames.
const DUMMY_HASH = "scrypt$16384$8$1$3q2-7w$yQ0yC0cQb7nI1mC1n3W2hZb4zW6y5o6c0L6qJ8c3e2U";
