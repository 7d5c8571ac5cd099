import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageSender, OutgoingMessage } from "../../src/server/auth/senders.ts";
import { DEMO_MEMBER } from "../../src/server/demo/accounts.ts";
import { memos } from "../../src/server/modules/account/memos.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { solvedCaptcha } from "../helpers/captcha.ts";
import { createAccountLogs, createMember } from "../helpers/factories.ts";

/** Captures what would be sent (the outside edge), so tests can read the codes. */
class Inbox implements MessageSender {
  readonly name = "test";
  readonly sent: OutgoingMessage[] = [];
  async send(message: OutgoingMessage) {
    this.sent.push(message);
  }
  lastCode(target: string): string {
    const m = [...this.sent].reverse().find((s) => s.target === target);
    const code = m?.body.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code sent to ${target}`);
    return code;
  }
}

let t: TestApp;
const inbox = new Inbox();
const en = { "think-lang": "en" };

beforeAll(async () => {
  t = await createTestApp({ config: { seedDemo: true }, deps: { sender: inbox } });
});
afterAll(() => t.close());

let address = 0;
/** Requests come from rotating addresses; the per-address rate limit has its own test. */
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, headers: { ...en, ...headers }, remoteAddress: `10.1.0.${++address % 250}`, payload });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers: { ...en, ...headers } });

let client = 0;
/** Each login from its own address, so per-address failure counting does not leak between tests. */
async function login(username: string, password: string, extra: object = {}) {
  client++;
  const res = await t.app.inject({
    method: "POST",
    url: "/api/user/checkIn",
    headers: en,
    remoteAddress: `10.0.${Math.floor(client / 250)}.${client % 250}`,
    payload: { tab: "login", username, password, keep: true, ...extra },
  });
  return res.json();
}
async function memberCount() {
  return (await t.database.db.query<{ n: number }>("select count(*)::int as n from member")).rows[0]!.n;
}

describe("member login", () => {
  it("says what the login form needs, and 303 'logged in' to a logged-in member", async () => {
    expect((await get("/api/user/checkIn")).json()).toMatchObject({ code: 1, data: { userLoginCaptchaSwitch: false, accountVerificationType: ["email", "mobile"] } });
    const { token } = (await login(DEMO_MEMBER.username, DEMO_MEMBER.password)).data.userInfo;
    expect((await get("/api/user/checkIn", { "ba-user-token": token })).json()).toMatchObject({ code: 303, data: { type: "logged in" } });
  });

  it("logs the demo member in with tokens and the routePath", async () => {
    const body = await login(DEMO_MEMBER.username, DEMO_MEMBER.password);
    expect(body).toMatchObject({ code: 1, msg: "Login successful", data: { routePath: "/user", userInfo: { username: "member", money: "100.00", score: 100 } } });
    expect(body.data.userInfo.refresh_token).toMatch(/^[\w-]{40,}$/);
  });

  it.each([
    ["1abc", "member123456", "A username is 3 to 15 letters, digits or underscores, starting with a letter"],
    ["member", "short", `A password is 6 to 32 characters, without & < > " or '`],
    ["member", "has<angle>", `A password is 6 to 32 characters, without & < > " or '`],
    ["member", "wrong-password", "Incorrect username or password"],
    ["nobody_at_all", "member123456", "Incorrect username or password"],
  ])("refuses %s / %s: %s", async (username, password, message) => {
    expect(await login(username, password)).toMatchObject({ code: 0, msg: message });
  });

  // The account's failures live in login_guard (login.test.ts has the full rules).
  const threeFailures = () =>
    t.database.db.query(
      `insert into login_guard (kind, username, failures, last_failure) values ('member', $1, 3, extract(epoch from now())::bigint)
       on conflict (kind, username) do update set failures = 3, last_failure = excluded.last_failure`,
      [DEMO_MEMBER.username],
    );

  it("asks for the click captcha after 3 failures, and accepts a solved one", async () => {
    await threeFailures();
    expect(await login(DEMO_MEMBER.username, DEMO_MEMBER.password)).toMatchObject({ code: 0, msg: "Please complete the captcha", data: { captcha: true } });
    const wrong = await login(DEMO_MEMBER.username, DEMO_MEMBER.password, { captchaId: "00000000-0000-0000-0000-000000000000", captchaInfo: "1,1-2,2;350;200" });
    expect(wrong.msg).toBe("The captcha is wrong or has expired, please try again");
    const solved = await solvedCaptcha(t.app, t.database.db);
    expect((await login(DEMO_MEMBER.username, DEMO_MEMBER.password, solved)).code).toBe(1);
    // A used captcha cannot be used again.
    await threeFailures();
    expect((await login(DEMO_MEMBER.username, DEMO_MEMBER.password, solved)).code).toBe(0);
    await t.database.db.query("delete from login_guard where username = $1", [DEMO_MEMBER.username]);
  });

  it("asks for the captcha after 3 failures from one address, whatever the account", async () => {
    const from = (username: string) =>
      t.app.inject({ method: "POST", url: "/api/user/checkIn", headers: en, remoteAddress: "10.9.9.9", payload: { tab: "login", username, password: "wrong-pass" } });
    for (const name of ["someone_a", "someone_b", "someone_c"]) expect((await from(name)).json().msg).toBe("Incorrect username or password");
    expect((await from("someone_d")).json()).toMatchObject({ msg: "Please complete the captcha", data: { captcha: true } });
  });

  it("answers in zh-cn by default", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/user/checkIn", payload: { tab: "login", username: "member", password: "wrong-pass" } });
    expect(res.json().msg).toBe("用户名或密码错误");
  });
});

describe("member registration", () => {
  it("needs a solved captcha and an email code, then creates the member and logs them in", async () => {
    const email = "new.person@example.com";
    const before = await memberCount();
    const noCaptcha = (await post("/api/user/checkIn", { tab: "register", username: "newbie", password: "newbie123", registerType: "email", email, captcha: "123456" })).json();
    expect(noCaptcha).toMatchObject({ code: 0, msg: "The captcha is wrong or has expired, please try again" });

    expect((await post("/api/Ems/send", { email, event: "user_register" })).json()).toMatchObject({ code: 1, msg: "The code has been sent" });
    const code = inbox.lastCode(email);
    const wrongCode = (await post("/api/user/checkIn", { tab: "register", username: "newbie", password: "newbie123", registerType: "email", email, captcha: "000000", ...(await solvedCaptcha(t.app, t.database.db)) })).json();
    expect(wrongCode).toMatchObject({ code: 0, msg: "The verification code is wrong or has expired" });
    expect(await memberCount()).toBe(before);

    const ok = (await post("/api/user/checkIn", { tab: "register", username: "newbie", password: "newbie123", registerType: "email", email, captcha: code, ...(await solvedCaptcha(t.app, t.database.db)) })).json();
    expect(ok).toMatchObject({ code: 1, msg: "Registration successful", data: { userInfo: { username: "newbie", email } } });
    expect(await memberCount()).toBe(before + 1);
    expect((await login("newbie", "newbie123")).code).toBe(1);

    // The code was single use.
    const reuse = (await post("/api/user/checkIn", { tab: "register", username: "newbie2", password: "newbie123", registerType: "email", email: "other@example.com", captcha: code, ...(await solvedCaptcha(t.app, t.database.db)) })).json();
    expect(reuse.code).toBe(0);
  });

  it("refuses duplicate usernames, emails and mobiles and changes nothing", async () => {
    const before = await memberCount();
    const dupUser = (await post("/api/user/checkIn", { tab: "register", username: "member", password: "member123456", registerType: "email", email: "x1@example.com", captcha: "123456", ...(await solvedCaptcha(t.app, t.database.db)) })).json();
    expect(dupUser.msg).toBe("This username is already taken");
    expect((await post("/api/Ems/send", { email: "member@example.com", event: "user_register" })).json().msg).toBe("This email address is already registered");
    expect(await memberCount()).toBe(before);
  });

  it("refuses an expired code and a taken mobile number", async () => {
    const email = "late@example.com";
    await post("/api/Ems/send", { email, event: "user_register" });
    const code = inbox.lastCode(email);
    await t.database.db.query("update verification_code set expire_time = 0 where target = $1", [email]);
    const late = (await post("/api/user/checkIn", { tab: "register", username: "late_one", password: "late-pass-1", registerType: "email", email, captcha: code, ...(await solvedCaptcha(t.app, t.database.db)) })).json();
    expect(late).toMatchObject({ code: 0, msg: "The verification code is wrong or has expired" });

    await t.database.db.query("update member set mobile = '13800138000' where username = $1", [DEMO_MEMBER.username]);
    expect((await post("/api/Sms/send", { mobile: "13800138000", template_code: "user_register" })).json().msg).toBe("This mobile number is already registered");
    const before = await memberCount();
    const dup = (await post("/api/user/checkIn", { tab: "register", username: "mobile_dup", password: "mobile-pass-1", registerType: "mobile", mobile: "13800138000", captcha: "123456", ...(await solvedCaptcha(t.app, t.database.db)) })).json();
    expect(dup.msg).toBe("This mobile number is already registered");
    expect(await memberCount()).toBe(before);
    await t.database.db.query("update member set mobile = null where username = $1", [DEMO_MEMBER.username]);
  });

  it("rate-limits codes per address and rejects bad addresses and events", async () => {
    const email = "limit@example.com";
    expect((await post("/api/Ems/send", { email, event: "user_register" })).json().code).toBe(1);
    expect((await post("/api/Ems/send", { email, event: "user_register" })).json().msg).toBe("Please wait a minute before asking for another code");
    expect((await post("/api/Ems/send", { email: "not-an-email", event: "user_register" })).json().msg).toBe("Please enter a correct email address");
    expect((await post("/api/Sms/send", { mobile: "12345", template_code: "user_register" })).json().msg).toBe("Please enter the correct mobile number");
    expect((await post("/api/Ems/send", { email: "e@example.com", event: "drop_tables" })).json().msg).toBe("Incorrect parameter!");
    expect((await post("/api/Ems/send", { email: "nobody@example.com", event: "user_retrieve_pwd" })).json().msg).toBe("No account uses this address");
  });
});

describe("abuse limits", () => {
  it("answers 429 in the envelope after 10 code requests a minute from one address", async () => {
    const send = (i: number) =>
      t.app.inject({ method: "POST", url: "/api/Ems/send", headers: en, remoteAddress: "10.7.7.7", payload: { email: `flood${i}@example.com`, event: "user_register" } });
    for (let i = 0; i < 10; i++) expect((await send(i)).statusCode).toBe(200);
    const res = await send(10);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 0, msg: "Too many requests, please try again later" });
  });
});

describe("member account", () => {
  /** A member of this test's own with a story: two recharges make 100.00, a welcome bonus and an administrator's gift 100 points. */
  const OWNER = { username: "owner_mia", password: "owner-pass-1", email: "owner.mia@example.com" };
  let token = "";
  beforeAll(async () => {
    const owner = await createMember(t.database.db, OWNER);
    await createAccountLogs(t.database.db, owner.id, {
      money: [
        [6, 8_000, memos.recharge()],
        [3, 2_000, memos.recharge()],
      ],
      score: [
        [6, 50, memos.signup()],
        [2, 50, memos.adminAdjust()],
      ],
    });
    token = (await login(OWNER.username, OWNER.password)).data.userInfo.token;
  });
  const auth = () => ({ "ba-user-token": token });

  it("needs a member token", async () => {
    for (const url of ["/api/account/overview", "/api/account/profile", "/api/account/balance", "/api/account/integral"]) {
      expect((await get(url)).json().code, url).toBe(303);
    }
  });

  it("gives a 7-day overview of points and balance changes", async () => {
    const body = (await get("/api/account/overview", auth())).json();
    expect(body.data.days).toHaveLength(7);
    expect(body.data.days[6]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.data.score.reduce((a: number, b: number) => a + b, 0)).toBe(100);
    expect(body.data.money.map(Number).reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(100);
    expect(body.data.money.every((m: string) => /^-?\d+\.\d{2}$/.test(m))).toBe(true);
  });

  it("counts the overview's days in the member's time zone, and refuses one that does not exist", async () => {
    const traveller = await createMember(t.database.db, { username: "zone_tao", password: "zone-pass-1", email: "zone.tao@example.com" });
    await createAccountLogs(t.database.db, traveller.id, { score: [[0, 7, memos.signup()]] });
    const headers = { "ba-user-token": (await login("zone_tao", "zone-pass-1")).data.userInfo.token };
    // UTC+14 and UTC-12 are always on different dates: the points just earned are on "today" in each.
    const east = (await get("/api/account/overview?tz=Etc%2FGMT-14", headers)).json().data;
    const west = (await get("/api/account/overview?tz=Etc%2FGMT%2B12", headers)).json().data;
    expect(east.days[6] > west.days[6]).toBe(true);
    expect(east.score).toEqual([0, 0, 0, 0, 0, 0, 7]);
    expect(west.score).toEqual([0, 0, 0, 0, 0, 0, 7]);
    for (const tz of ["Mars/Olympus", "x".repeat(65), ""]) {
      const body = (await get(`/api/account/overview?tz=${encodeURIComponent(tz)}`, headers)).json();
      if (tz === "") expect(body.code).toBe(1);
      else expect(body).toMatchObject({ code: 0, msg: "Incorrect parameter!" });
    }
  });

  it("pages the balance and points logs, newest first, money with 2 decimals", async () => {
    const page1 = (await get("/api/account/balance?page=1&limit=1", auth())).json().data;
    expect(page1.total).toBe(2);
    expect(page1.list).toEqual([expect.objectContaining({ money: "20.00", before: "80.00", after: "100.00", memo: "Recharge" })]);
    const page2 = (await get("/api/account/balance?page=2&limit=1", auth())).json().data;
    expect(page2.list).toEqual([expect.objectContaining({ money: "80.00", before: "0.00", after: "80.00" })]);
    const points = (await get("/api/account/integral?page=1&limit=10", auth())).json().data;
    expect(points.total).toBe(2);
    expect(points.list.map((r: { memo: string }) => r.memo)).toEqual(["Changed by an administrator", "Welcome bonus for joining"]);
    expect((await get("/api/account/balance?page=0", auth())).json().msg).toBe("Incorrect parameter!");
  });

  it("edits the profile, refusing bad values without changing anything", async () => {
    const ok = (await post("/api/account/profile", { nickname: "Mia", gender: 2, birthday: "2001-02-03", motto: "Keep going", avatar: "/storage/avatar/x.png" }, auth())).json();
    expect(ok).toMatchObject({ code: 1, msg: "Profile saved", data: { userInfo: { nickname: "Mia", gender: 2, birthday: "2001-02-03", motto: "Keep going" } } });
    for (const [payload, message] of [
      [{ nickname: "" }, "Please enter a nickname of at most 50 characters"],
      [{ nickname: "x".repeat(51) }, "Please enter a nickname of at most 50 characters"],
      [{ nickname: "A", birthday: "2001-13-45" }, "Please enter a correct birthday"],
      [{ nickname: "A", gender: 7 }, "Incorrect parameter!"],
      [{ nickname: "A", avatar: "javascript:alert(1)" }, "Incorrect parameter!"],
    ] as const) {
      expect((await post("/api/account/profile", payload, auth())).json().msg).toBe(message);
    }
    const profile = (await get("/api/account/profile", auth())).json().data.userInfo;
    expect(profile).toMatchObject({ nickname: "Mia", gender: 2 });
  });

  it("changes the password, ending every session", async () => {
    const other = (await login(OWNER.username, OWNER.password)).data.userInfo.token;
    expect((await post("/api/account/changePassword", { oldPassword: "nope-nope", newPassword: "brand-new-1" }, { "ba-user-token": other })).json().msg).toBe("The old password is wrong");
    expect((await post("/api/account/changePassword", { oldPassword: OWNER.password, newPassword: "bad&" }, { "ba-user-token": other })).json().msg).toBe(`A password is 6 to 32 characters, without & < > " or '`);
    const ok = (await post("/api/account/changePassword", { oldPassword: OWNER.password, newPassword: "brand-new-1" }, { "ba-user-token": other })).json();
    expect(ok.code).toBe(1);
    expect((await get("/api/account/profile", { "ba-user-token": other })).json().code).toBe(303);
    expect((await get("/api/account/profile", auth())).json().code).toBe(303);
    expect((await login(OWNER.username, OWNER.password)).code).toBe(0);
    token = (await login(OWNER.username, "brand-new-1")).data.userInfo.token;
  });

  it("retrieves a forgotten password with an email code", async () => {
    await post("/api/Ems/send", { email: OWNER.email, event: "user_retrieve_pwd" });
    const code = inbox.lastCode(OWNER.email);
    expect((await post("/api/account/retrievePassword", { type: "email", account: OWNER.email, captcha: "999999", password: "recovered-1" })).json().msg).toBe(
      "The verification code is wrong or has expired",
    );
    // An address locked out of the account (10 failures) is let in again once the owner proved the email.
    await t.database.db.query("insert into login_address (kind, username, address, failures, last_failure) values ('member', $1, '10.0.0.99', 10, extract(epoch from now())::bigint)", [OWNER.username]);
    expect((await post("/api/account/retrievePassword", { type: "email", account: OWNER.email, captcha: code, password: "recovered-1" })).json().code).toBe(1);
    expect((await t.database.db.query("select failures from login_address where username = $1 and address = '10.0.0.99'", [OWNER.username])).rows).toEqual([{ failures: 0 }]);
    expect((await login(OWNER.username, "recovered-1")).code).toBe(1);
  });

  it("changes the bound email only through verification of the old and the new address", async () => {
    token = (await login(OWNER.username, "recovered-1")).data.userInfo.token;
    const newEmail = "mia@example.com";
    // Without proving the current address first:
    await post("/api/Ems/send", { email: newEmail, event: "user_change_email" }, auth());
    const direct = (await post("/api/account/changeBind", { type: "email", email: newEmail, captcha: inbox.lastCode(newEmail) }, auth())).json();
    expect(direct.msg).toBe("Please verify your current account first");

    await t.database.db.query("delete from verification_code"); // let the resend limit pass
    await post("/api/Ems/send", { email: OWNER.email, event: "user_email_verify" }, auth());
    const proof = (await post("/api/account/verification", { type: "email", captcha: inbox.lastCode(OWNER.email) }, auth())).json();
    expect(proof.code).toBe(1);
    await post("/api/Ems/send", { email: newEmail, event: "user_change_email" }, auth());
    const bound = (await post("/api/account/changeBind", { type: "email", email: newEmail, captcha: inbox.lastCode(newEmail), accountVerificationToken: proof.data.accountVerificationToken }, auth())).json();
    expect(bound).toMatchObject({ code: 1 });
    expect((await get("/api/account/profile", auth())).json().data.userInfo.email).toBe(newEmail);
  });
});
