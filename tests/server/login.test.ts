import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClickCaptcha } from "../../src/server/auth/captcha.ts";
import { addressKey, DELAY_AFTER_FAILURES, loginDelay, MAX_LOGIN_DELAY } from "../../src/server/auth/login.ts";
import { hashPassword } from "../../src/server/auth/password.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { secondServer } from "../helpers/second.ts";

/**
 * Login throttling: failures counted atomically before the password check, the
 * captcha per account, the lock per (account, address), the growing per-account wait for
 * unknown addresses, unknown usernames indistinguishable. The races fire their requests at
 * once, on PostgreSQL through two server instances with their own connection pools.
 */

let t: TestApp;
let other: { app: FastifyInstance; close(): Promise<void> };
beforeAll(async () => {
  // Bursts from one address would otherwise meet the per-address rate limit first.
  t = await createTestApp({ config: { loginRateLimit: 100_000 } });
  other = await secondServer(t, { loginRateLimit: 100_000 });
});
afterAll(async () => {
  await other.close();
  await t.close();
});

type Side = "admin" | "member";
interface Answer {
  code: number;
  msg: string;
  data: { captcha?: boolean; wait?: number } | null;
}

const INCORRECT = "Incorrect username or password";
const LOCKED = "Too many failed logins: this account is locked, please try again later";
const COMPLETE_CAPTCHA = "Please complete the captcha";

async function account(side: Side, username: string, password: string): Promise<void> {
  await t.database.db.query(`insert into ${side} (username, password_hash) values ($1, $2)`, [username, await hashPassword(password)]);
}

/** One login; `app` alternates between the two server instances in the races. */
async function login(side: Side, username: string, password: string, address: string, captcha?: object, app = t.app): Promise<Answer> {
  const res = await app.inject({
    method: "POST",
    url: side === "admin" ? "/admin/index/login" : "/api/user/checkIn",
    headers: { "think-lang": "en" },
    remoteAddress: address,
    payload: side === "admin" ? { username, password, keep: true, ...captcha } : { tab: "login", username, password, keep: true, ...captcha },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as Answer;
}

/**
 * A click captcha drawn and stored by the server's own code (the endpoint's per-address rate
 * limit would get in the way of so many) and answered from the stored answer.
 */
async function solved(): Promise<{ captchaId: string; captchaInfo: string }> {
  const id = randomUUID();
  await createClickCaptcha(t.database.db, id);
  const { rows } = await t.database.db.query<{ answer: { x: number; y: number; w: number; h: number }[]; width: number; height: number }>(
    "select answer, width, height from captcha where id = $1",
    [id],
  );
  const { answer, width, height } = rows[0]!;
  return { captchaId: id, captchaInfo: `${answer.map((b) => `${Math.round(b.x + b.w / 2)},${Math.round(b.y + b.h / 2)}`).join("-")};${width};${height}` };
}
const captchas = (n: number) => Promise.all(Array.from({ length: n }, solved));
const appFor = (i: number) => (i % 2 === 0 ? t.app : other.app);
const count = (answers: Answer[], message: string) => answers.filter((a) => a.msg === message).length;

async function accountFailures(side: Side, username: string): Promise<number> {
  const { rows } = await t.database.db.query<{ failures: number }>("select failures from login_guard where kind = $1 and username = $2", [side, username]);
  return rows[0]?.failures ?? 0;
}
async function addressFailures(side: Side, username: string, address: string): Promise<number> {
  const { rows } = await t.database.db.query<{ failures: number }>(
    "select failures from login_address where kind = $1 and username = $2 and address = $3",
    [side, username, address],
  );
  return rows[0]?.failures ?? 0;
}

let net = 0;
/** A fresh block of client addresses for one test. */
const addresses = (n: number) => {
  net++;
  return Array.from({ length: n }, (_, i) => `10.${100 + net}.${Math.floor(i / 250)}.${(i % 250) + 1}`);
};

describe("failures are counted before the password check", () => {
  it("20 concurrent wrong member logins: exactly 3 password checks, the other 17 must solve the captcha", async () => {
    await account("member", "race_m1", "right-pass-1");
    const from = addresses(20);
    const answers = await Promise.all(from.map((ip, i) => login("member", "race_m1", "wrong-pass", ip, undefined, appFor(i))));
    expect(count(answers, INCORRECT)).toBe(3);
    expect(answers.filter((a) => a.msg === COMPLETE_CAPTCHA && a.data?.captcha === true)).toHaveLength(17);
    expect(await accountFailures("member", "race_m1")).toBe(3);

    // Now the account asks every address for the captcha, the right password too.
    const fresh = addresses(1)[0]!;
    expect((await login("member", "race_m1", "right-pass-1", fresh)).data).toEqual({ captcha: true });
    expect((await login("member", "race_m1", "right-pass-1", fresh, await solved())).code).toBe(1);
    expect(await accountFailures("member", "race_m1")).toBe(0);
  });

  it("20 concurrent wrong logins with captchas from two known addresses: the count is exactly 20 and both addresses lock", async () => {
    await account("member", "race_m2", "right-pass-2");
    const [home, office] = addresses(2) as [string, string];
    for (const ip of [home, office]) expect((await login("member", "race_m2", "right-pass-2", ip)).code).toBe(1);

    const keys = await captchas(20);
    const answers = await Promise.all(keys.map((c, i) => login("member", "race_m2", "wrong-pass", i < 10 ? home : office, c, appFor(i))));
    expect(count(answers, INCORRECT)).toBe(20);
    expect(await accountFailures("member", "race_m2")).toBe(20);
    expect(await addressFailures("member", "race_m2", home)).toBe(10);
    expect(await addressFailures("member", "race_m2", office)).toBe(10);

    // Both addresses are locked out of the account, even with the right password and a captcha.
    for (const ip of [home, office]) {
      expect(await login("member", "race_m2", "right-pass-2", ip, await solved())).toMatchObject({ code: 0, msg: LOCKED });
    }
    // Another address is not locked (and no wait slot was taken: its check comes at once).
    const elsewhere = addresses(1)[0]!;
    expect((await login("member", "race_m2", "right-pass-2", elsewhere, await solved())).code).toBe(1);
  });

  it("20 concurrent wrong logins from one known address: 10 password checks, then the address is locked", async () => {
    await account("member", "race_m3", "right-pass-3");
    const [home] = addresses(1) as [string];
    expect((await login("member", "race_m3", "right-pass-3", home)).code).toBe(1);
    const keys = await captchas(20);
    const answers = await Promise.all(keys.map((c, i) => login("member", "race_m3", "wrong-pass", home, c, appFor(i))));
    expect(count(answers, INCORRECT)).toBe(10);
    expect(count(answers, LOCKED)).toBe(10);
    expect(await addressFailures("member", "race_m3", home)).toBe(10);
    expect(await accountFailures("member", "race_m3")).toBe(10);
    // The lock lasts until LOGIN_LOCK_SECONDS pass without a try from the address.
    await t.database.db.query("update login_address set last_failure = last_failure - 86400 where username = 'race_m3'");
    expect((await login("member", "race_m3", "right-pass-3", home, await solved())).code).toBe(1);
  });
});

describe("an attack on the admin account from many addresses", () => {
  it("gets at most 3 checks without a captcha, one check per growing slot with captchas, and never locks the owner out", async () => {
    await account("admin", "boss", "boss-pass-1");
    const [ownerAddress] = addresses(1) as [string];
    expect((await login("admin", "boss", "boss-pass-1", ownerAddress)).code).toBe(1);

    // 40 concurrent wrong passwords from 40 addresses, no captcha.
    const burst = await Promise.all(addresses(40).map((ip, i) => login("admin", "boss", "wrong-pass", ip, undefined, appFor(i))));
    expect(count(burst, INCORRECT)).toBe(3);
    expect(count(burst, COMPLETE_CAPTCHA)).toBe(37);
    expect(await accountFailures("admin", "boss")).toBe(3);

    // With solved captchas: two more checks, then unknown addresses wait between checks.
    for (const ip of addresses(2)) expect((await login("admin", "boss", "wrong-pass", ip, await solved())).msg).toBe(INCORRECT);
    expect(await accountFailures("admin", "boss")).toBe(DELAY_AFTER_FAILURES);
    const before = Math.floor(Date.now() / 1000);
    expect((await login("admin", "boss", "wrong-pass", addresses(1)[0]!, await solved())).msg).toBe(INCORRECT);
    const slot = await t.database.db.query<{ next_try: number }>("select next_try from login_guard where username = 'boss'");
    expect(slot.rows[0]!.next_try - before).toBeGreaterThanOrEqual(loginDelay(DELAY_AFTER_FAILURES));
    expect(slot.rows[0]!.next_try - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(loginDelay(DELAY_AFTER_FAILURES));

    // Later in the attack (12 failures) the slots are 2 minutes apart.
    await t.database.db.query("update login_guard set failures = 12, next_try = 0 where username = 'boss'");
    const [first, second] = addresses(2) as [string, string];
    expect((await login("admin", "boss", "wrong-pass", first, await solved())).msg).toBe(INCORRECT);
    const waiting = await login("admin", "boss", "wrong-pass", second, await solved());
    expect(waiting.msg).toMatch(/^Too many failed logins for this account: please wait \d+ seconds and try again$/);
    expect(waiting.data?.wait).toBeGreaterThan(loginDelay(12) - 30);
    expect(waiting.data?.wait).toBeLessThanOrEqual(loginDelay(12));
    expect(await accountFailures("admin", "boss")).toBe(13);

    // At 15 failures (the longest wait), 30 concurrent attempts with solved captchas from 30
    // addresses get exactly one password check between them.
    await t.database.db.query("update login_guard set failures = 15, next_try = 0 where username = 'boss'");
    const attackers = addresses(30);
    const attack = await Promise.all((await captchas(30)).map((c, i) => login("admin", "boss", "wrong-pass", attackers[i]!, c, appFor(i))));
    expect(count(attack, INCORRECT)).toBe(1);
    expect(attack.filter((a) => a.msg.startsWith("Too many failed logins for this account") && (a.data?.wait ?? 0) > MAX_LOGIN_DELAY - 60)).toHaveLength(29);
    expect(await accountFailures("admin", "boss")).toBe(16);

    // While the attack goes on, the owner, from the address they logged in from before, gets in
    // with a captcha (and no wait).
    const [ownerCaptcha, ...more] = (await captchas(21)) as [object, ...object[]];
    const [, owner] = await Promise.all([
      Promise.all(more.map((c, i) => login("admin", "boss", "wrong-pass", attackers[i]!, c, appFor(i)))),
      login("admin", "boss", "boss-pass-1", ownerAddress, ownerCaptcha, other.app),
    ]);
    expect(owner).toMatchObject({ code: 1, msg: "Login successful" });
  });

  it("asks the owner for the captcha too while the account is under attack", async () => {
    await account("admin", "boss2", "boss-pass-2");
    const [ownerAddress] = addresses(1) as [string];
    expect((await login("admin", "boss2", "boss-pass-2", ownerAddress)).code).toBe(1);
    for (const ip of addresses(3)) expect((await login("admin", "boss2", "wrong-pass", ip)).msg).toBe(INCORRECT);
    expect(await login("admin", "boss2", "boss-pass-2", ownerAddress)).toMatchObject({ code: 0, msg: COMPLETE_CAPTCHA, data: { captcha: true } });
    expect((await login("admin", "boss2", "boss-pass-2", ownerAddress, await solved())).code).toBe(1);
  });

  it("grows the wait from 1 s to at most 15 minutes", () => {
    expect([4, 5, 6, 7, 10, 14, 15, 40].map(loginDelay)).toEqual([0, 1, 2, 4, 32, 512, MAX_LOGIN_DELAY, MAX_LOGIN_DELAY]);
  });
});

describe("unknown usernames", () => {
  it("answer exactly like a real account, before and after the lock", async () => {
    await account("member", "real_one", "right-pass-9");
    const run = async (username: string) => {
      const [ip] = addresses(1) as [string];
      const answers: Answer[] = [];
      for (let i = 0; i < 4; i++) answers.push(await login("member", username, "wrong-pass", ip));
      for (let i = 0; i < 8; i++) {
        // The per-account wait has passed (it is tested above; here it would only add time).
        await t.database.db.query("update login_guard set next_try = 0 where username = $1", [username]);
        answers.push(await login("member", username, "wrong-pass", ip, await solved()));
      }
      // The real account's right password, from the locked address: the same answer as a guess.
      answers.push(await login("member", username, "right-pass-9", ip, await solved()));
      return answers.map(({ code, msg, data }) => ({ code, msg, data }));
    };
    const real = await run("real_one");
    const unknown = await run("no_such_one");
    expect(unknown).toEqual(real);
    expect(real.map((a) => a.msg)).toEqual([
      ...Array(3).fill(INCORRECT),
      COMPLETE_CAPTCHA,
      ...Array(7).fill(INCORRECT),
      LOCKED,
      LOCKED,
    ]);
  });
});

describe("client addresses", () => {
  it("counts an IPv6 client by its /64 network", async () => {
    expect(addressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::ffff:10.1.2.3")).toBe("10.1.2.3");
    expect(addressKey("10.1.2.3")).toBe("10.1.2.3");

    await account("member", "v6_user", "right-pass-6");
    expect((await login("member", "v6_user", "right-pass-6", "2001:db8:77:1::1")).code).toBe(1);
    for (let i = 0; i < 10; i++) {
      expect((await login("member", "v6_user", "wrong-pass", `2001:db8:77:1::${i + 2}`, await solved())).msg).toBe(INCORRECT);
    }
    expect((await login("member", "v6_user", "right-pass-6", "2001:db8:77:1:ffff::9", await solved())).msg).toBe(LOCKED);
  });
});

describe("a hall of members behind one address", () => {
  it("100 members log in at once from one NAT address with no captcha, and a few typos do not bring one", async () => {
    const hash = await hashPassword("hall-pass-1");
    const names = Array.from({ length: 100 }, (_, i) => `hall_${i}`);
    await t.database.db.query("insert into member (username, password_hash) select unnest($1::text[]), $2", [names, hash]);
    const [hall] = addresses(1) as [string];
    // Attempts in flight are not failures: not one of the 100 is asked for the captcha.
    const answers = await Promise.all(names.map((name, i) => login("member", name, "hall-pass-1", hall, undefined, appFor(i))));
    expect(answers.map((a) => a.code)).toEqual(Array(100).fill(1));
    // Five typos from the same address (more than the 3 a lone address gets) ...
    for (const name of names.slice(0, 5)) expect((await login("member", name, "typo-pass", hall)).msg).toBe(INCORRECT);
    // ... and the next member still logs in without a captcha.
    expect((await login("member", "hall_99", "hall-pass-1", hall)).code).toBe(1);
  });

  it("an address spraying guesses over accounts meets the captcha after 3 failures; an account of its own buys it one more", async () => {
    await account("member", "spray_own", "own-pass-1");
    const [attacker, alone] = addresses(2) as [string, string];
    for (const name of ["spray_a", "spray_b", "spray_c"]) expect((await login("member", name, "guess-1", alone)).msg).toBe(INCORRECT);
    expect(await login("member", "spray_d", "guess-1", alone)).toMatchObject({ msg: COMPLETE_CAPTCHA, data: { captcha: true } });

    expect((await login("member", "spray_own", "own-pass-1", attacker)).code).toBe(1);
    for (const name of ["spray_a", "spray_b", "spray_c", "spray_d"]) expect((await login("member", name, "guess-1", attacker)).msg).toBe(INCORRECT);
    // Logging in to its own account again neither resets the count nor buys another failure.
    expect(await login("member", "spray_own", "own-pass-1", attacker)).toMatchObject({ msg: COMPLETE_CAPTCHA, data: { captcha: true } });
    expect(await login("member", "spray_e", "guess-1", attacker)).toMatchObject({ msg: COMPLETE_CAPTCHA, data: { captcha: true } });
    expect((await login("member", "spray_own", "own-pass-1", attacker, await solved())).code).toBe(1);
    expect(await login("member", "spray_e", "guess-1", attacker)).toMatchObject({ msg: COMPLETE_CAPTCHA, data: { captcha: true } });
  });
});

describe("the login flood guards", () => {
  it("limit one account from one address to LOGIN_RATE_LIMIT a minute and one address to LOGIN_ADDRESS_RATE_LIMIT, in the envelope", async () => {
    const small = await createTestApp({ config: { loginRateLimit: 4, loginAddressRateLimit: 9 } });
    try {
      const attempt = (username: string, address: string) =>
        small.app.inject({ method: "POST", url: "/api/user/checkIn", headers: { "think-lang": "en" }, remoteAddress: address, payload: { tab: "login", username, password: "wrong-pass" } });
      const [one, two] = addresses(2) as [string, string];
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt("flood_a", one)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      // Another account from the same address, and the same account from another address, go on.
      expect((await attempt("flood_b", one)).statusCode).toBe(200);
      expect((await attempt("flood_a", two)).statusCode).toBe(200);
      // The address's own cap counts every account: attempts 6 to 9 pass, the 10th does not.
      for (const name of ["flood_c", "flood_d", "flood_e"]) expect((await attempt(name, one)).statusCode).toBe(200);
      const over = await attempt("flood_f", one);
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ code: 0, msg: "Too many requests, please try again later" });
    } finally {
      await small.close();
    }
  });
});
