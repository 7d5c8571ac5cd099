import Fastify from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbIdParam, jsonBody, withMessage } from "../../src/shared/schema.ts";
import { memberAccessPlugin } from "../../src/server/plugins/auth.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createMember } from "../helpers/factories.ts";

/**
 * Server layers: route schemas answer in the envelope with the refused field's own
 * message; member-side routes declare who may call them, checked before the handler.
 */

describe("member-side auth declarations", () => {
  it("refuses to start with an /api/ route that declares no auth, naming it", async () => {
    const app = Fastify();
    await app.register(memberAccessPlugin);
    await app.register(async (child) => {
      child.get("/api/report/export", async () => "ok");
      child.get("/api/report/ok", { config: { auth: "public" } }, async () => "ok");
    });
    await expect(app.ready()).rejects.toThrow("GET /api/report/export");
    await app.close().catch(() => {});
  });

  it("refuses a declaration that is not one of member, optional, public", async () => {
    const app = Fastify();
    await app.register(memberAccessPlugin);
    app.get("/api/report/x", { config: { auth: "admin" as never } }, async () => "ok");
    await expect(app.ready()).rejects.toThrow("GET /api/report/x");
    await app.close().catch(() => {});
  });
});

describe("route validation and auth in the real server", () => {
  let t: TestApp;
  let headers: Record<string, string>;
  const seen: (number | null)[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      prepare: (app) => {
        const api = app.withTypeProvider<ZodTypeProvider>();
        const body = withMessage(
          jsonBody(z.object({ courseId: withMessage(dbIdParam, msg`Please choose a course`), note: z.string().max(5).optional() })),
          msg`Incorrect list parameters: page from 1, limit from 1 to 50, keyword at most 50 characters`,
        );
        api.post("/api/test/member", { config: { auth: "member" }, schema: { body } }, async (req, reply) => {
          seen.push(req.member?.id ?? null);
          return reply.success({ courseId: req.body.courseId });
        });
        api.get("/api/test/optional", { config: { auth: "optional" } }, async (req, reply) => reply.success({ member: req.member?.id ?? null }));
      },
    });
    headers = (await createMember(t.database.db)).headers;
  });
  afterAll(() => t.close());

  const post = (payload: unknown, extra: Record<string, string> = {}) =>
    t.app.inject({ method: "POST", url: "/api/test/member", headers: { ...headers, ...extra }, payload: payload as object });

  it("passes typed, coerced values to the handler", async () => {
    const res = await post({ courseId: "12" });
    expect(res.json()).toMatchObject({ code: 1, data: { courseId: 12 } });
  });

  it("answers a refused field with its own message, HTTP 200 code 0, in the reader's language", async () => {
    for (const courseId of [0, -1, 2_147_483_648, "abc", null, { a: 1 }, "1e99"]) {
      const res = await post({ courseId });
      expect(res.statusCode, String(courseId)).toBe(200);
      expect(res.json(), JSON.stringify(courseId)).toMatchObject({ code: 0, msg: "Please choose a course", data: null });
    }
    const zh = await post({ courseId: 0 }, { "think-lang": "zh-cn" });
    expect(zh.json().code).toBe(0);
    expect(zh.json().msg).not.toBe("Please choose a course");
    expect(zh.json().msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it("answers a field without a message of its own with the message of the object above it", async () => {
    const res = await post({ courseId: 1, note: "far too long" });
    expect(res.json()).toMatchObject({ code: 0, msg: "Incorrect list parameters: page from 1, limit from 1 to 50, keyword at most 50 characters" });
  });

  it("checks the member before the handler runs: 303 without a token, the member on req.member with one", async () => {
    const before = seen.length;
    const anonymous = await t.app.inject({ method: "POST", url: "/api/test/member", payload: { courseId: 1 } });
    expect(anonymous.json()).toMatchObject({ code: 303 });
    expect(seen.length).toBe(before);
    expect((await post({ courseId: 1 })).json().code).toBe(1);
    expect(seen.at(-1)).toEqual(expect.any(Number));
    const optional = await t.app.inject({ method: "GET", url: "/api/test/optional" });
    expect(optional.json()).toMatchObject({ code: 1, data: { member: null } });
    const withMember = await t.app.inject({ method: "GET", url: "/api/test/optional", headers });
    expect(withMember.json().data.member).toBe(seen.at(-1));
  });

  it("keeps the per-field messages of the profile form", async () => {
    const profile = (payload: object) => t.app.inject({ method: "POST", url: "/api/account/profile", headers, payload }).then((r) => r.json());
    expect(await profile({ nickname: "" })).toMatchObject({ code: 0, msg: "Please enter a nickname of at most 50 characters" });
    expect(await profile({ nickname: "ok", birthday: "2020-13-45" })).toMatchObject({ code: 0, msg: "Please enter a correct birthday" });
    expect(await profile({ nickname: "ok", motto: "x".repeat(251) })).toMatchObject({ code: 0, msg: "The motto can have at most 250 characters" });
    expect(await profile({ nickname: "ok", gender: 7 })).toMatchObject({ code: 0, msg: "Incorrect parameter!" });
  });
});
