import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/server/errors.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

describe("envelope and error mapping", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { bodyLimit: 1024 },
      prepare: (app) => {
        app.post("/api/test/echo", { config: { auth: "public" } }, async (req, reply) => reply.success(req.body, "echoed"));
        app.get("/api/test/boom", { config: { auth: "public" } }, async () => {
          throw new Error("secret internal detail at /srv/app/db.ts:42");
        });
        app.get("/api/test/business", { config: { auth: "public" } }, async () => {
          throw new ApiError("Not enough balance", 0, { need: 5 });
        });
        app.get("/api/test/expired", { config: { auth: "public" } }, async () => {
          throw new ApiError("Token expired", 409);
        });
      },
    });
  });
  afterAll(() => t.close());

  it("wraps success as {code: 1, msg, time, data}", async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await t.app.inject({ method: "POST", url: "/api/test/echo", payload: { a: 1 } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 1, msg: "echoed", data: { a: 1 } });
    expect(body.time).toBeGreaterThanOrEqual(before);
    expect(String(body.time)).toHaveLength(10);
  });

  it("answers an unknown API path with 404 in the envelope, in the requested language", async () => {
    const zh = await t.app.inject({ method: "GET", url: "/api/no/such/thing?x=1" });
    expect(zh.statusCode).toBe(404);
    expect(zh.json()).toMatchObject({ code: 0, data: null, msg: "接口 /api/no/such/thing 不存在" });

    const en = await t.app.inject({ method: "GET", url: "/api/no/such/thing", headers: { "think-lang": "en" } });
    expect(en.json().msg).toBe("The API endpoint /api/no/such/thing does not exist");
  });

  it("answers unknown admin API calls with 404 too (no client is served here)", async () => {
    const res = await t.app.inject({ method: "GET", url: "/admin/nothing/index" });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(0);
  });

  it("rejects malformed JSON with 400 and a clear message", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/test/echo",
      headers: { "content-type": "application/json", "think-lang": "en" },
      payload: '{"a": 1,',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 0, msg: "The request body is not valid JSON", data: null });
  });

  it("rejects an oversized body with 413", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/test/echo",
      headers: { "think-lang": "en" },
      payload: { big: "x".repeat(2000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 0, msg: "The request body is too large (at most 1,024 bytes)" });
  });

  it("turns a thrown error into a generic 500 without stack or detail, and logs it", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/test/boom", headers: { "think-lang": "en" } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 0, msg: "Server internal error!", data: null });
    expect(res.body).not.toContain("secret internal detail");
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    expect(t.logs.text).toContain("secret internal detail");
  });

  it("answers business failures with HTTP 200 and their code", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/api/test/business" });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({ code: 0, msg: "Not enough balance", data: { need: 5 } });
    const expired = await t.app.inject({ method: "GET", url: "/api/test/expired" });
    expect(expired.statusCode).toBe(200);
    expect(expired.json().code).toBe(409);
  });

  it("never logs tokens, passwords or secret query values", async () => {
    await t.app.inject({
      method: "POST",
      url: "/api/test/echo?refreshToken=rt-SECRET-1&page=2",
      headers: { batoken: "admin-SECRET-2", "ba-user-token": "user-SECRET-3", cookie: "s=SECRET-4" },
      payload: { password: "pw-SECRET-5" },
    });
    expect(t.logs.text).toContain("/api/test/echo");
    expect(t.logs.text).toContain("page=2");
    expect(t.logs.text).not.toMatch(/SECRET/);
  });
});
