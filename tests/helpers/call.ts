import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import type { Envelope } from "../../src/shared/envelope.ts";

/** Whoever calls: a test admin or member (their auth headers), or `{ headers: {} }` for no one. */
export interface Caller {
  headers: Record<string, string>;
}

export type Method = "GET" | "POST" | "DELETE";

export interface CallOptions {
  /** Extra headers, over the caller's. */
  headers?: Record<string, string>;
  /** Fail the test on a 5xx answer, naming the route and the start of the body. */
  refuse5xx?: boolean;
}

/**
 * One request through the real app (`inject`, no socket), its body read as the envelope.
 * `T` is the shape of `data` the test reads; it is the test's claim about the answer, checked by
 * its assertions, not by the helper.
 */
export async function call<T = unknown>(
  app: FastifyInstance,
  who: Caller,
  method: Method,
  url: string,
  payload?: object,
  options: CallOptions = {},
): Promise<Envelope<T>> {
  const res = await app.inject({ method, url, headers: { ...who.headers, ...options.headers }, ...(payload ? { payload } : {}) });
  if (options.refuse5xx) expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  return res.json<Envelope<T>>();
}

/**
 * A file the app streams (an export): its name (the `content-disposition` header's), bytes and
 * headers. Fails the test when the answer is not a file download (a refusal comes as the envelope).
 */
export async function download(app: FastifyInstance, who: Caller, url: string, options: CallOptions = {}) {
  const res = await app.inject({ method: "GET", url, headers: { ...who.headers, ...options.headers } });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(String(res.headers["content-type"]), res.body.slice(0, 300)).not.toMatch(/json/);
  const name = /attachment; filename="([^"]+)"/.exec(String(res.headers["content-disposition"]))?.[1] ?? "";
  return { name, data: res.rawPayload, headers: res.headers };
}

/**
 * The calls of one test file's app (`app()` is read on each call, so the app may be made in
 * `beforeAll`), with `defaults` under each call's options. `adminCall` asks for English, as the
 * back office's tests read its messages; `memberCall` and `send` send the caller's headers only.
 */
export function callers(app: () => FastifyInstance, defaults: CallOptions = {}) {
  const send = <T = unknown>(who: Caller, method: Method, url: string, payload?: object, options: CallOptions = {}) =>
    call<T>(app(), who, method, url, payload, { ...defaults, ...options, headers: { ...defaults.headers, ...options.headers } });
  return {
    send,
    memberCall: send,
    adminCall: <T = unknown>(who: Caller, method: Method, url: string, payload?: object, options: CallOptions = {}) =>
      send<T>(who, method, url, payload, { ...options, headers: { "think-lang": "en", ...options.headers } }),
  };
}
