import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/server/auth/password.ts";
import { hashToken, openSuccessor, REFRESH_GRACE_SECONDS } from "../../src/server/auth/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { secondServer } from "../helpers/second.ts";

/**
 * Sessions: a login's access and refresh tokens form one session; logout with
 * either ends both; refresh rotates the refresh token, a reuse after the grace ends the session.
 */

let t: TestApp;
let other: { app: FastifyInstance; close(): Promise<void> };
beforeAll(async () => {
  t = await createTestApp({ config: { loginRateLimit: 100_000 } });
  other = await secondServer(t, { loginRateLimit: 100_000 });
  await t.database.db.query("insert into member (username, password_hash) values ('sess_member', $1)", [await hashPassword("member-pass-1")]);
  await t.database.db.query("insert into admin (username, password_hash, is_super) values ('sess_admin', $1, true)", [await hashPassword("admin-pass-1")]);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

type Side = "admin" | "user";
interface Session {
  token: string;
  refresh: string;
}

let device = 0;
async function logIn(side: Side, keep = true): Promise<Session> {
  device++;
  const res = await t.app.inject({
    method: "POST",
    url: side === "admin" ? "/admin/index/login" : "/api/user/checkIn",
    remoteAddress: `10.60.0.${device % 250}`,
    payload:
      side === "admin"
        ? { username: "sess_admin", password: "admin-pass-1", keep }
        : { tab: "login", username: "sess_member", password: "member-pass-1", keep },
  });
  const info = res.json().data.userInfo;
  return { token: info.token, refresh: info.refresh_token };
}

/** A call that needs a valid access token: its envelope code (1 ok, 303 unknown, 409 expired). */
async function use(side: Side, token: string): Promise<number> {
  const res =
    side === "admin"
      ? await t.app.inject({ method: "GET", url: "/admin/index/index", headers: { batoken: token } })
      : await t.app.inject({ method: "GET", url: "/api/index/index?requiredLogin=1", headers: { "ba-user-token": token } });
  return res.json().code;
}

async function refresh(refreshToken: string, app = t.app, side?: Side) {
  const res = await app.inject({ method: "POST", url: "/api/common/refreshToken", headers: { "think-lang": "en" }, payload: { refreshToken, side } });
  return res.json() as { code: number; msg: string; data: { type: string; token: string; refreshToken: string } | null };
}

const logout = (side: Side, token: string | undefined, payload: object) =>
  t.app.inject({
    method: "POST",
    url: side === "admin" ? "/admin/index/logout" : "/api/user/logout",
    headers: token ? { [side === "admin" ? "batoken" : "ba-user-token"]: token } : {},
    payload,
  });

const expire = (token: string) => t.database.db.query("update token set expire_time = 0 where token_hash = $1", [hashToken(token)]);
/** Moves a rotation back in time (the grace has passed). */
const ageRotation = (token: string, seconds: number) =>
  t.database.db.query("update token set rotated_at = rotated_at - $2 where token_hash = $1", [hashToken(token), seconds]);

describe.each(["user", "admin"] as const)("%s logout", (side) => {
  it("with the access token only (body {}) ends the refresh token too", async () => {
    const s = await logIn(side);
    expect((await logout(side, s.token, {})).json().code).toBe(1);
    expect(await use(side, s.token)).toBe(303);
    expect((await refresh(s.refresh)).code).toBe(0);
  });

  it("with the refresh token only (the access token expired and not sent) ends the access token too", async () => {
    const s = await logIn(side);
    expect((await logout(side, undefined, { refreshToken: s.refresh })).json().code).toBe(1);
    expect(await use(side, s.token)).toBe(303);
    expect((await refresh(s.refresh)).code).toBe(0);
  });

  it("with an expired access token still ends the session", async () => {
    const s = await logIn(side);
    await expire(s.token);
    expect(await use(side, s.token)).toBe(409);
    expect((await logout(side, s.token, {})).json().code).toBe(1);
    expect((await refresh(s.refresh)).code).toBe(0);
  });

  it("leaves the account's other sessions (other devices) alone", async () => {
    const phone = await logIn(side);
    const laptop = await logIn(side);
    await logout(side, phone.token, {});
    expect(await use(side, laptop.token)).toBe(1);
    const renewed = await refresh(laptop.refresh);
    expect(renewed.code).toBe(1);
    expect(await use(side, renewed.data!.token)).toBe(1);
  });

  it("ends a rotated session whichever of its tokens is sent", async () => {
    const s = await logIn(side);
    const renewed = (await refresh(s.refresh)).data!;
    // The first access token of the session, still valid until it expires, logs the session out.
    expect((await logout(side, s.token, {})).json().code).toBe(1);
    expect(await use(side, renewed.token)).toBe(303);
    expect((await refresh(renewed.refreshToken)).code).toBe(0);
  });
});

describe("logout sides", () => {
  it("a member token does not end an admin session, nor the other way round", async () => {
    const admin = await logIn("admin");
    const member = await logIn("user");
    await logout("user", undefined, { refreshToken: admin.refresh });
    await logout("admin", undefined, { refreshToken: member.refresh });
    expect(await use("admin", admin.token)).toBe(1);
    expect(await use("user", member.token)).toBe(1);
  });
});

describe.each(["user", "admin"] as const)("%s refresh token rotation", (side) => {
  it("answers a new access token and a new refresh token, which rotates in turn", async () => {
    const s = await logIn(side);
    await expire(s.token);
    const first = await refresh(s.refresh);
    expect(first).toMatchObject({ code: 1, data: { type: `${side}-refresh` } });
    const pair = first.data!;
    expect(pair.refreshToken).toMatch(/^[\w-]{40,}$/);
    expect(pair.refreshToken).not.toBe(s.refresh);
    expect(await use(side, pair.token)).toBe(1);

    // The new refresh token works (and rotates in turn).
    const second = (await refresh(pair.refreshToken)).data!;
    expect(await use(side, second.token)).toBe(1);
    expect(second.refreshToken).not.toBe(pair.refreshToken);
  });

  it("exchanges the token for the side the request names, and refuses it for the other side without spending it", async () => {
    const s = await logIn(side);
    const wrong = side === "admin" ? "user" : "admin";
    expect(await refresh(s.refresh, t.app, wrong)).toMatchObject({ code: 0, msg: "Invalid token, please log in again", data: null });
    // Nothing was spent: the token still rotates once, for its own side.
    const pair = await refresh(s.refresh, t.app, side);
    expect(pair).toMatchObject({ code: 1, data: { type: `${side}-refresh` } });
    expect(await use(side, pair.data!.token)).toBe(1);
    const bad = await t.app.inject({ method: "POST", url: "/api/common/refreshToken", headers: { "think-lang": "en" }, payload: { refreshToken: pair.data!.refreshToken, side: "both" } });
    expect(bad.json()).toMatchObject({ code: 0, msg: "Invalid token, please log in again" });
    expect((await refresh(pair.data!.refreshToken, t.app, side)).code).toBe(1);
  });

  it("treats a reuse of an exchanged refresh token after the grace as theft: the whole session ends", async () => {
    const s = await logIn(side);
    const elsewhere = await logIn(side);
    const pair = (await refresh(s.refresh)).data!;
    await ageRotation(s.refresh, REFRESH_GRACE_SECONDS + 1);

    const stolen = await refresh(s.refresh);
    expect(stolen).toMatchObject({ code: 0, msg: "Invalid token, please log in again" });
    expect(await use(side, pair.token)).toBe(303);
    expect(await use(side, s.token)).toBe(303);
    expect((await refresh(pair.refreshToken)).code).toBe(0);
    expect(t.logs.text).toContain("an exchanged refresh token was used again");
    // Another device's session is not touched.
    expect(await use(side, elsewhere.token)).toBe(1);
    expect((await refresh(elsewhere.refresh)).code).toBe(1);
  });

  it("within the grace answers the same pair again (two tabs, a lost answer), without a second branch", async () => {
    const s = await logIn(side);
    const a = (await refresh(s.refresh)).data!;
    const b = (await refresh(s.refresh)).data!;
    expect(b).toEqual(a);
    const { rows } = await t.database.db.query<{ n: number }>(
      "select count(*)::int as n from token where session_id = (select session_id from token where token_hash = $1) and rotated_at is null and type = $2",
      [hashToken(s.refresh), `${side}-refresh`],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it("once the new refresh token was exchanged in turn, the old one gets nothing", async () => {
    const s = await logIn(side);
    const a = (await refresh(s.refresh)).data!;
    const b = (await refresh(a.refreshToken)).data!;
    expect((await refresh(s.refresh)).code).toBe(0);
    expect(await use(side, b.token)).toBe(1);
  });
});

describe("concurrent refreshes", () => {
  it("10 at once with the same refresh token (two server instances) all get the same pair; one rotation", async () => {
    const s = await logIn("user");
    await expire(s.token);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => refresh(s.refresh, i % 2 === 0 ? t.app : other.app)));
    expect(answers.every((a) => a.code === 1)).toBe(true);
    const pairs = new Set(answers.map((a) => JSON.stringify(a.data)));
    expect(pairs.size).toBe(1);
    const { rows } = await t.database.db.query<{ type: string; n: number }>(
      "select type, count(*)::int as n from token where session_id = (select session_id from token where token_hash = $1) group by type order by type",
      [hashToken(s.refresh)],
    );
    // The login's pair and the one rotation's pair.
    expect(rows).toEqual([
      { type: "user", n: 2 },
      { type: "user-refresh", n: 2 },
    ]);
    expect(await use("user", answers[0]!.data!.token)).toBe(1);
  });
});

describe("storage", () => {
  it("keeps the new pair only sealed with the old refresh token, which is itself stored as a hash", async () => {
    const s = await logIn("user");
    const pair = (await refresh(s.refresh)).data!;
    const { rows } = await t.database.db.query<{ successor: string }>("select successor from token where token_hash = $1", [hashToken(s.refresh)]);
    const sealed = rows[0]!.successor;
    const dump = JSON.stringify((await t.database.db.query("select * from token")).rows);
    for (const secret of [s.token, s.refresh, pair.token, pair.refreshToken]) expect(dump).not.toContain(secret);
    expect(openSuccessor(s.refresh, sealed)).toEqual({ token: pair.token, refreshToken: pair.refreshToken });
    expect(openSuccessor(hashToken(s.refresh), sealed)).toBeNull();
    expect(openSuccessor(pair.refreshToken, sealed)).toBeNull();
  });

  it("refuses junk refresh tokens with code 0", async () => {
    for (const refreshToken of ["", "x".repeat(201), 42, null, "\u0000", "not-a-token"]) {
      const res = await t.app.inject({ method: "POST", url: "/api/common/refreshToken", payload: { refreshToken } });
      expect(res.statusCode).toBe(200);
      expect(res.json().code).toBe(0);
    }
  });

  it("no refresh token without 'keep me logged in'; the access token still ends with logout", async () => {
    const s = await logIn("user", false);
    expect(s.refresh).toBe("");
    await logout("user", s.token, { refreshToken: "" });
    expect(await use("user", s.token)).toBe(303);
  });
});
