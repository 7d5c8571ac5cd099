import { ApiError } from "../../src/client/api/errors.ts";
import { setTimeout as sleep } from "node:timers/promises";
import axios from "axios";
import Fastify, { type FastifyInstance } from "fastify";
import { i18n } from "@lingui/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpClient, SessionExpiredError, type HttpDeps, type Side } from "../../src/client/api/http.ts";
import { hashPassword } from "../../src/server/auth/password.ts";
import { hashToken, REFRESH_GRACE_SECONDS } from "../../src/server/auth/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * The request layer against a real local HTTP server (no mocked axios): headers, envelope,
 * 409 refresh queue, 302/303, de-duplication, loading counter and the error catalogue.
 */
interface World {
  tokens: Record<Side, { auth: string; refresh: string }>;
  path: string;
  online: boolean;
  navigations: string[];
  errors: string[];
  successes: string[];
  loading: { opened: number; closed: number; count: number; max: number };
}

let server: FastifyInstance;
let baseURL: string;
const hits = new Map<string, number>();
let refreshCalls = 0;
let validToken: Record<Side, string> = { admin: "admin-new", user: "user-new" };

beforeAll(async () => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
  server = Fastify();
  server.get("/api/echo", async (req) => ({ code: 1, msg: "", data: { headers: req.headers, query: req.query } }));
  server.get("/api/ok", async () => ({ code: 1, msg: "All good", data: { n: 1 } }));
  server.get("/api/okSilent", async () => ({ code: 1, msg: "", data: null }));
  server.get("/api/fail", async () => ({ code: 0, msg: "Not enough balance", data: { need: 3 } }));
  server.get("/api/slow", async (req) => {
    await sleep(Number((req.query as { ms?: string }).ms ?? 150));
    return { code: 1, msg: "", data: { q: req.query } };
  });
  server.get("/api/slowFail", async () => {
    await sleep(100);
    return { code: 0, msg: "Slow failure", data: null };
  });
  const protectedRoute = (side: Side) => async (req: { headers: Record<string, unknown>; query: unknown }) => {
    const id = String((req.query as { id?: string }).id);
    hits.set(`${side}:${id}`, (hits.get(`${side}:${id}`) ?? 0) + 1);
    const sent = side === "admin" ? req.headers.batoken : req.headers["ba-user-token"];
    if (sent === validToken[side]) return { code: 1, msg: "", data: { id, token: sent } };
    if (sent === "" || sent === undefined) return { code: 303, msg: "Please log in", data: { type: "need login" } };
    return { code: 409, msg: "Token expired", data: null };
  };
  server.get("/api/protected", protectedRoute("user"));
  server.get("/admin/protected", protectedRoute("admin"));
  server.post("/api/common/refreshToken", async (req) => {
    refreshCalls++;
    await sleep(80); // let concurrent requests pile up behind the refresh
    const { refreshToken } = req.body as { refreshToken: string };
    if (refreshToken === "admin-refresh-ok") return { code: 1, msg: "", data: { type: "admin-refresh", token: validToken.admin } };
    if (refreshToken === "user-refresh-ok") return { code: 1, msg: "", data: { type: "user-refresh", token: validToken.user } };
    return { code: 0, msg: "Invalid token", data: null };
  });
  server.get("/api/redirect", async () => ({ code: 302, msg: "Go elsewhere", data: { routePath: "/exam/myTest" } }));
  server.get("/api/redirectByName", async () => ({ code: 302, msg: "", data: { routeName: "myCourse" } }));
  server.get("/api/needLogin", async () => ({ code: 303, msg: "Please log in", data: { type: "need login" } }));
  server.get("/admin/needLogin", async () => ({ code: 303, msg: "Please log in", data: { type: "need login" } }));
  server.get("/api/loggedIn", async () => ({ code: 303, msg: "Already logged in", data: { type: "logged in" } }));
  server.get("/api/other303", async () => ({ code: 303, msg: "", data: {} }));
  server.get("/admin/other303", async () => ({ code: 303, msg: "", data: {} }));
  server.get("/api/status/:code", async (req, reply) => reply.code(Number((req.params as { code: string }).code)).send({ code: 0, msg: "x", data: null }));
  server.get("/api/hang", async () => {
    await sleep(2000);
    return { code: 1, msg: "", data: null };
  });
  await server.listen({ port: 0, host: "127.0.0.1" });
  const address = server.server.address();
  baseURL = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => server.close());

let world: World;
function client(overrides: Partial<World> = {}) {
  world = {
    tokens: { admin: { auth: "admin-a", refresh: "admin-refresh-ok" }, user: { auth: "user-a", refresh: "user-refresh-ok" } },
    path: "/exam/myTest",
    online: true,
    navigations: [],
    errors: [],
    successes: [],
    loading: { opened: 0, closed: 0, count: 0, max: 0 },
    ...overrides,
  };
  const store = (side: Side) => ({
    getToken: (type: "auth" | "refresh" = "auth") => world.tokens[side][type],
    setToken: (token: string, type: "auth" | "refresh") => {
      world.tokens[side][type] = token;
    },
    removeToken: () => {
      world.tokens[side] = { auth: "", refresh: "" };
    },
  });
  const deps: HttpDeps = {
    baseURL,
    language: () => "en",
    tokens: { admin: store("admin"), user: store("user") },
    currentPath: () => world.path,
    navigate: ({ path, name }) => {
      world.navigations.push(path ?? `name:${name}`);
      if (path) world.path = path;
    },
    online: () => world.online,
    notify: { error: (t) => world.errors.push(t), success: (t) => world.successes.push(t) },
    translate: (m) => i18n._(m),
    loading: {
      open: () => {
        world.loading.opened++;
        world.loading.count++;
        world.loading.max = Math.max(world.loading.max, world.loading.count);
      },
      close: () => {
        world.loading.closed++;
        world.loading.count--;
      },
    },
  };
  return createHttpClient(deps);
}

beforeEach(() => {
  hits.clear();
  refreshCalls = 0;
  validToken = { admin: "admin-new", user: "user-new" };
});

describe("headers and envelope", () => {
  it("sends think-lang, batoken and ba-user-token with every request", async () => {
    const http = client();
    const res = await http.request<{ headers: Record<string, string> }>({ url: "/api/echo" });
    expect(res.data.headers["think-lang"]).toBe("en");
    expect(res.data.headers.batoken).toBe("admin-a");
    expect(res.data.headers["ba-user-token"]).toBe("user-a");
  });

  it("resolves code 1 with the envelope, silently by default", async () => {
    const http = client();
    const res = await http.request({ url: "/api/ok" });
    expect(res).toMatchObject({ code: 1, msg: "All good", data: { n: 1 } });
    expect(world.successes).toEqual([]);
    expect(world.errors).toEqual([]);
  });

  it("shows the server message, or 'Operation successful', when asked", async () => {
    const http = client();
    await http.request({ url: "/api/ok" }, { showSuccessMessage: true });
    await http.request({ url: "/api/okSilent" }, { showSuccessMessage: true });
    expect(world.successes).toEqual(["All good", "Operation successful"]);
  });

  it("returns the whole response when reductDataFormat is false", async () => {
    const http = client();
    const res = await http.request({ url: "/api/ok" }, { reductDataFormat: false });
    expect(res.status).toBe(200);
    expect(res.data.code).toBe(1);
  });

  it("rejects other codes with the envelope and toasts the message (unless switched off)", async () => {
    const http = client();
    await expect(http.request({ url: "/api/fail" })).rejects.toMatchObject({ code: 0, msg: "Not enough balance", data: { need: 3 } });
    expect(world.errors).toEqual(["Not enough balance"]);
    await expect(http.request({ url: "/api/fail" }, { showCodeMessage: false })).rejects.toMatchObject({ code: 0 });
    expect(world.errors).toHaveLength(1);
  });
});

describe("409: one refresh, every request replayed", () => {
  it.each(["user", "admin"] as const)("refreshes once for many concurrent %s requests and replays each once", async (side) => {
    const http = client({ path: side === "admin" ? "/admin/dashboard" : "/exam/myTest" });
    const url = side === "admin" ? "/admin/protected" : "/api/protected";
    const ids = [1, 2, 3, 4, 5];
    const results = await Promise.all(ids.map((id) => http.request<{ id: string; token: string }>({ url, params: { id } })));
    expect(refreshCalls).toBe(1);
    expect(results.map((r) => r.data.id)).toEqual(ids.map(String));
    expect(results.every((r) => r.data.token === validToken[side])).toBe(true);
    for (const id of ids) expect(hits.get(`${side}:${id}`)).toBe(2);
    expect(world.tokens[side].auth).toBe(validToken[side]);
    expect(world.errors).toEqual([]);
  });

  it("replays a late 409 with the already refreshed token, without a second refresh", async () => {
    const http = client();
    await http.request({ url: "/api/protected", params: { id: "a" } });
    expect(refreshCalls).toBe(1);
    // A request that was sent with the old token comes back 409 after the refresh.
    world.tokens.user.auth = validToken.user;
    const stale = client({ tokens: { admin: world.tokens.admin, user: { auth: validToken.user, refresh: "user-refresh-ok" } } });
    await stale.request({ url: "/api/protected", params: { id: "b" } });
    expect(refreshCalls).toBe(1);
  });

  it("on refresh failure clears that side's tokens, goes to login and rejects every waiting request", async () => {
    const http = client();
    world.tokens.user.refresh = "bad";
    const results = await Promise.allSettled([1, 2, 3].map((id) => http.request({ url: "/api/protected", params: { id } })));
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    expect(refreshCalls).toBe(1);
    expect(world.tokens.user).toEqual({ auth: "", refresh: "" });
    expect(world.tokens.admin.auth).toBe("admin-a");
    expect(world.navigations).toEqual(["/"]);
  });

  it("posts no refresh without a refresh token: the session is over, straight to login", async () => {
    const http = client();
    world.tokens.user.refresh = "";
    await expect(http.request({ url: "/api/protected", params: { id: 1 } })).rejects.toBeInstanceOf(SessionExpiredError);
    expect(refreshCalls).toBe(0);
    expect(world.tokens.user).toEqual({ auth: "", refresh: "" });
    expect(world.navigations).toEqual(["/"]);
  });

  it("admin refresh failure goes to the admin login", async () => {
    const http = client({ path: "/admin/dashboard" });
    world.tokens.admin.refresh = "bad";
    await expect(http.request({ url: "/admin/protected", params: { id: 1 } })).rejects.toBeTruthy();
    expect(world.tokens.admin).toEqual({ auth: "", refresh: "" });
    expect(world.navigations).toEqual(["/admin/login"]);
  });

  it("already on the login page, waiting requests retry once with an empty token", async () => {
    const http = client({ path: "/admin/login" });
    world.tokens.admin.refresh = "bad";
    const results = await Promise.allSettled([1, 2].map((id) => http.request({ url: "/admin/protected", params: { id } }, { showCodeMessage: false })));
    expect(refreshCalls).toBe(1);
    for (const id of [1, 2]) expect(hits.get(`admin:${id}`)).toBe(2);
    // The replays went with an empty token: the server answered "need login".
    expect(results.map((r) => (r.status === "rejected" ? (r.reason as { code: number }).code : 0))).toEqual([303, 303]);
  });
});

describe("302 and 303", () => {
  it("302 navigates to the route path or the route name", async () => {
    const http = client();
    await expect(http.request({ url: "/api/redirect" })).rejects.toMatchObject({ code: 302 });
    await expect(http.request({ url: "/api/redirectByName" })).rejects.toMatchObject({ code: 302 });
    expect(world.navigations).toEqual(["/exam/myTest", "name:myCourse"]);
  });

  it("303 need login clears the member token and goes to /", async () => {
    const http = client();
    await expect(http.request({ url: "/api/needLogin" })).rejects.toMatchObject({ code: 303 });
    expect(world.tokens.user.auth).toBe("");
    expect(world.tokens.admin.auth).toBe("admin-a");
    expect(world.navigations).toEqual(["/"]);
  });

  it("303 need login on the admin side clears the admin token and goes to /admin/login", async () => {
    const http = client({ path: "/admin/dashboard" });
    await expect(http.request({ url: "/admin/needLogin" })).rejects.toMatchObject({ code: 303 });
    expect(world.tokens.admin.auth).toBe("");
    expect(world.navigations).toEqual(["/admin/login"]);
  });

  it("303 logged in goes to /user/course/my_course; any other 303 to the area's base", async () => {
    const http = client();
    await expect(http.request({ url: "/api/loggedIn" })).rejects.toMatchObject({ code: 303 });
    await expect(http.request({ url: "/api/other303" })).rejects.toMatchObject({ code: 303 });
    await expect(http.request({ url: "/admin/other303" })).rejects.toMatchObject({ code: 303 });
    expect(world.navigations).toEqual(["/user/course/my_course", "/user", "/admin"]);
  });
});

describe("de-duplication", () => {
  it("cancels the earlier identical request, silently", async () => {
    const http = client();
    const first = http.request({ url: "/api/slow", params: { a: 1 } });
    const second = http.request({ url: "/api/slow", params: { a: 1 } });
    await expect(first).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.cancelled && !e.network);
    await expect(second).resolves.toMatchObject({ code: 1 });
    expect(world.errors).toEqual([]);
    expect(http.pending.size).toBe(0);
  });

  it("keeps requests that differ in params, method, token or body", async () => {
    const http = client();
    const a = http.request({ url: "/api/slow", params: { a: 1 } });
    const b = http.request({ url: "/api/slow", params: { a: 2 } });
    await expect(Promise.all([a, b])).resolves.toHaveLength(2);
  });

  it("can be switched off per request", async () => {
    const http = client();
    const a = http.request({ url: "/api/slow" }, { cancelDuplicateRequest: false });
    const b = http.request({ url: "/api/slow" }, { cancelDuplicateRequest: false });
    await expect(Promise.all([a, b])).resolves.toHaveLength(2);
  });
});

describe("loading overlay counter", () => {
  it("is off by default and counts concurrent requests, closing after the last (also on failure and cancel)", async () => {
    const http = client();
    await http.request({ url: "/api/ok" });
    expect(world.loading.opened).toBe(0);

    const ok = http.request({ url: "/api/slow", params: { ms: 50 } }, { loading: true });
    const fail = http.request({ url: "/api/slowFail" }, { loading: true });
    const cancelled = http.request({ url: "/api/slow", params: { ms: 300 } }, { loading: true });
    const replacing = http.request({ url: "/api/slow", params: { ms: 300 } }, { loading: true });
    await Promise.allSettled([ok, fail, cancelled, replacing]);
    expect(world.loading.max).toBe(4);
    expect(world.loading.opened).toBe(4);
    expect(world.loading.closed).toBe(4);
    expect(world.loading.count).toBe(0);
  });
});

describe("HTTP and network errors", () => {
  it.each([
    [400, "Incorrect parameter!"],
    [401, "You do not have permission to operate!"],
    [403, "You do not have permission to operate!"],
    [404, "Error requesting address: /api/status/404"],
    [500, "Server internal error!"],
    [502, "Gateway error!"],
    [503, "Service unavailable!"],
    [418, "Abnormal problem, please contact the website administrator!"],
  ])("status %i toasts %s", async (status, message) => {
    const http = client();
    await expect(http.request({ url: `/api/status/${status}` })).rejects.toBeTruthy();
    expect(world.errors).toEqual([message]);
  });

  it("says 'Server exception!' online and 'You are disconnected!' offline when the server is unreachable", async () => {
    const online = client();
    const closed = "http://127.0.0.1:1";
    await expect(online.request({ url: `${closed}/api/x` })).rejects.toBeTruthy();
    expect(world.errors).toEqual(["Server exception!"]);
    const offline = client({ online: false });
    await expect(offline.request({ url: `${closed}/api/x` })).rejects.toBeTruthy();
    expect(world.errors).toEqual(["You are disconnected!"]);
  });

  it("rejects with one typed error: ApiError with code, msg, data, HTTP status and whether it was the network", async () => {
    const http = client();
    const caught = async (p: Promise<unknown>) => p.then(() => expect.unreachable("resolved"), (e: unknown) => e);
    const refused = await caught(http.request({ url: "/api/fail" }));
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ name: "ApiError", code: 0, msg: "Not enough balance", data: { need: 3 }, status: 200, network: false, cancelled: false, isServerAnswer: true });
    const status = await caught(http.request({ url: "/api/status/503" }));
    expect(status).toMatchObject({ code: null, msg: "Service unavailable!", data: null, status: 503, network: false, isServerAnswer: false });
    const unreachable = await caught(client({ online: false }).request({ url: "http://127.0.0.1:1/api/x" }));
    expect(unreachable).toMatchObject({ code: null, msg: "You are disconnected!", status: null, network: true, cancelled: false, isServerAnswer: false });
    expect((unreachable as ApiError).cause).toBeTruthy();
    const timedOut = await caught(http.request({ url: "/api/hang", timeout: 100 }));
    expect(timedOut).toMatchObject({ msg: "Network request timeout!", status: null, network: true });
  });

  it("says 'Network request timeout!' on a timeout", async () => {
    const http = client();
    await expect(http.request({ url: "/api/hang", timeout: 100 })).rejects.toBeTruthy();
    expect(world.errors).toEqual(["Network request timeout!"]);
  });

  it("can keep quiet about errors", async () => {
    const http = client();
    await expect(http.request({ url: "/api/status/500" }, { showErrorMessage: false })).rejects.toBeTruthy();
    expect(world.errors).toEqual([]);
  });
});

/**
 * The same request layer against the real API server: refresh tokens rotate, the
 * client keeps the new one, and two tabs refreshing at once both stay logged in.
 */
describe("refresh token rotation against the real API server", () => {
  let real: TestApp;
  let realURL: string;
  beforeAll(async () => {
    real = await createTestApp({ config: { loginRateLimit: 10_000 } });
    await real.database.db.query("insert into member (username, password_hash) values ('tab_member', $1)", [await hashPassword("tab-pass-1")]);
    await real.app.listen({ port: 0, host: "127.0.0.1" });
    const address = real.app.server.address();
    realURL = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(() => real.close());

  async function logIn(): Promise<{ auth: string; refresh: string }> {
    const res = await real.app.inject({ method: "POST", url: "/api/user/checkIn", payload: { tab: "login", username: "tab_member", password: "tab-pass-1", keep: true } });
    const info = res.json().data.userInfo;
    return { auth: info.token, refresh: info.refresh_token };
  }

  /** A browser tab: its own client and its own copy of the member's tokens. */
  function tab(tokens: { auth: string; refresh: string }) {
    const state = { user: { ...tokens }, admin: { auth: "", refresh: "" }, navigations: [] as string[] };
    const store = (side: Side) => ({
      getToken: (type: "auth" | "refresh" = "auth") => state[side][type],
      setToken: (token: string, type: "auth" | "refresh") => {
        state[side][type] = token;
      },
      removeToken: () => {
        state[side] = { auth: "", refresh: "" };
      },
    });
    const http = createHttpClient({
      baseURL: realURL,
      language: () => "en",
      tokens: { admin: store("admin"), user: store("user") },
      currentPath: () => "/user/account/overview",
      navigate: ({ path }) => void state.navigations.push(path ?? ""),
      online: () => true,
      notify: { error: () => {}, success: () => {} },
      translate: (m) => i18n._(m),
      loading: { open: () => {}, close: () => {} },
    });
    return { http, state };
  }

  const expire = (token: string) => real.database.db.query("update token set expire_time = 0 where token_hash = $1", [hashToken(token)]);
  const pastGrace = (token: string) =>
    real.database.db.query("update token set rotated_at = rotated_at - $2 where token_hash = $1", [hashToken(token), REFRESH_GRACE_SECONDS + 1]);
  const overview = (http: ReturnType<typeof tab>["http"]) => http.request<{ days: string[] }>({ url: "/api/account/overview" }, { cancelDuplicateRequest: false });

  it("stores the rotated refresh token and uses it for the next refresh", async () => {
    const first = await logIn();
    const { http, state } = tab(first);
    await expire(first.auth);
    expect((await overview(http)).data.days).toHaveLength(7);
    const second = { ...state.user };
    expect(second.auth).not.toBe(first.auth);
    expect(second.refresh).not.toBe(first.refresh);
    expect(second.refresh).toMatch(/^[\w-]{40,}$/);

    // The exchanged refresh token is dead once the grace is over; the stored one still works.
    await pastGrace(first.refresh);
    await expire(second.auth);
    expect((await overview(http)).code).toBe(1);
    expect(state.user.refresh).not.toBe(second.refresh);
    expect(state.navigations).toEqual([]);
  });

  it("two tabs whose tokens expire together both refresh with the same token and both stay logged in", async () => {
    const tokens = await logIn();
    const a = tab(tokens);
    const b = tab(tokens);
    await expire(tokens.auth);
    const results = await Promise.all([overview(a.http), overview(b.http), overview(a.http), overview(b.http)]);
    expect(results.every((r) => r.code === 1)).toBe(true);
    // One rotation: both tabs hold the same new pair.
    expect(a.state.user).toEqual(b.state.user);
    expect(a.state.user.refresh).not.toBe(tokens.refresh);
    expect([...a.state.navigations, ...b.state.navigations]).toEqual([]);

    // The session goes on: the next expiry is refreshed with the pair both tabs hold.
    await pastGrace(tokens.refresh);
    await expire(a.state.user.auth);
    expect((await overview(a.http)).code).toBe(1);
  });

  it("a stolen refresh token used after the member's own refresh ends the session for both", async () => {
    const tokens = await logIn();
    const member = tab(tokens);
    await expire(tokens.auth);
    await overview(member.http);
    await pastGrace(tokens.refresh);
    const thief = await axios.post(`${realURL}/api/common/refreshToken`, { refreshToken: tokens.refresh });
    expect(thief.data.code).toBe(0);
    // The member's session was ended with it: the next call goes to the login page.
    await expect(overview(member.http)).rejects.toMatchObject({ code: 303 });
    expect(member.state.navigations).toEqual(["/"]);
  });
});
