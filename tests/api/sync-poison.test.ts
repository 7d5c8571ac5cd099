import "fake-indexeddb/auto";
import { i18n } from "@lingui/core";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Op } from "../../src/shared/sync/ops.ts";
import { createHttpClient } from "../../src/client/api/http.ts";
import { deleteMemberDb, openMemberDb, type MemberDb } from "../../src/client/offline/db.ts";
import { answerPractice, localState, pendingCount, rejectedOps, setFavourite } from "../../src/client/offline/repository/index.ts";
import { MAX_SOLO_FAILURES, createSyncEngine } from "../../src/client/offline/sync.ts";
import { createSyncTransport } from "../../src/client/offline/transport.ts";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createBankWithQuestions } from "../helpers/factories.ts";

/**
 * The device against a server that keeps failing one batch with HTTP 500 because of one op: the
 * real app (real database) behind a real local HTTP server that answers 500 to any sync request
 * holding the poison op (a server bug the op triggers) and passes everything else through. The
 * device's real HTTP client, Dexie outbox and sync engine (timers fired by the test) must isolate
 * the op, set it aside and sync the rest: each other op applied exactly once, in order.
 */

let t: TestApp;
let front: FastifyInstance;
let baseURL = "";
let memberId = 0;
let token = "";
let poisonId = "";
/** Op ids the real app received, request after request, with the status it answered. */
const delivered: { id: string; status: string }[] = [];
/** Every sync request the front server got, as its op ids. */
const requests: string[][] = [];

beforeAll(async () => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
  t = await createTestApp();
  const { rows } = await t.database.db.query<{ id: number }>("insert into member (username, password_hash) values ('poison_test', $1) returning id", [
    await hashPassword("whatever1"),
  ]);
  memberId = rows[0]!.id;
  token = await issueToken(t.database.db, "user", memberId, 3600);

  front = Fastify();
  const pass = async (method: "GET" | "POST", url: string, headers: Record<string, unknown>, payload?: unknown) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { "ba-user-token": String(headers["ba-user-token"] ?? ""), "think-lang": String(headers["think-lang"] ?? "en") },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json() as { code: number; data: { results?: { id: string; status: string }[] } } };
  };
  front.post("/api/exam/sync", async (req, reply) => {
    const ops = (req.body as { ops: Op[] }).ops;
    requests.push(ops.map((op) => op.id));
    if (ops.some((op) => op.id === poisonId)) {
      return reply.code(500).send({ code: 0, msg: "Server internal error!", time: Math.floor(Date.now() / 1000), data: null });
    }
    const res = await pass("POST", "/api/exam/sync", req.headers, req.body);
    for (const result of res.body.data?.results ?? []) delivered.push({ id: result.id, status: result.status });
    return reply.code(res.status).send(res.body);
  });
  front.get("/api/exam/state", async (req, reply) => {
    const res = await pass("GET", "/api/exam/state", req.headers);
    return reply.code(res.status).send(res.body);
  });
  await front.listen({ port: 0, host: "127.0.0.1" });
  const address = front.server.address();
  baseURL = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  await front?.close();
  await t?.close();
});

describe("a server that keeps failing one batch with HTTP 500", () => {
  let db: MemberDb;
  afterAll(async () => {
    db?.close();
    await deleteMemberDb(memberId);
  });

  it("isolates the op, sets it aside, and applies every other op exactly once, in order", async () => {
    const client = createHttpClient({
      baseURL,
      language: () => "en",
      tokens: {
        admin: { getToken: () => "", setToken: () => undefined, removeToken: () => undefined },
        user: { getToken: (type = "auth") => (type === "auth" ? token : ""), setToken: () => undefined, removeToken: () => undefined },
      },
      currentPath: () => "/exam/myPractice",
      navigate: () => undefined,
      online: () => true,
      notify: { error: () => undefined, success: () => undefined },
      translate: (m) => i18n._(m),
      loading: { open: () => undefined, close: () => undefined },
    });
    const { send, pull } = createSyncTransport((config, options) => client.request<unknown>(config, options));

    // 30 real changes made on the device: favourites and practice answers on a bank's questions.
    db = openMemberDb(memberId);
    const bank = (await createBankWithQuestions(t.database.db, 15)).id;
    const questions = (
      await t.database.db.query<{ id: number; type: "single"; answer: string; score: number }>(
        "select id, type, answer, score from exam_question where classify_id = $1 and type = 'single' order by id limit 15",
        [bank],
      )
    ).rows;
    let clock = Date.now() - 60_000;
    const now = () => (clock += 10);
    for (const q of questions) {
      await setFavourite(db, q.id, true, { now });
      await answerPractice(db, { bankId: bank, question: { ...q, classifyId: bank, stem: "", options: [], difficulty: 1 }, answer: "Z" }, { now });
    }
    const made = (await db.outbox.orderBy("seq").toArray()).map((row) => row.id);
    expect(made.length).toBeGreaterThanOrEqual(30);
    poisonId = made[17]!;

    const timers: { fn: () => void; ms: number }[] = [];
    const engine = createSyncEngine({
      db,
      send,
      pull,
      now: () => Date.now(),
      random: () => 0.5,
      setTimer: (fn, ms) => {
        const timer = { fn, ms };
        timers.push(timer);
        return timer;
      },
      clearTimer: (handle) => {
        const i = timers.indexOf(handle as (typeof timers)[number]);
        if (i >= 0) timers.splice(i, 1);
      },
      online: () => true,
    });
    await engine.sync();
    // The retries the engine schedules (backoff with jitter), fired at once.
    for (let i = 0; timers.length > 0 && i < 100; i++) {
      timers.shift()!.fn();
      await engine.sync();
    }
    expect(timers).toHaveLength(0);

    // The poison op: sent alone MAX_SOLO_FAILURES times, then set aside with its reason.
    expect(requests.filter((ids) => ids.length === 1 && ids[0] === poisonId)).toHaveLength(MAX_SOLO_FAILURES);
    const aside = await rejectedOps(db);
    expect(aside.map((row) => [row.id, row.setAside, row.msg])).toEqual([[poisonId, true, "HTTP 500"]]);
    expect(await pendingCount(db)).toBe(0);
    expect(engine.getStatus()).toMatchObject({ state: "idle", pending: 0, rejected: 1 });

    // The server received every other op exactly once, in the order they were made, and applied each.
    const others = made.filter((id) => id !== poisonId);
    expect(delivered.map((d) => d.id)).toEqual(others);
    expect(delivered.every((d) => d.status === "applied")).toBe(true);
    const recorded = await t.database.db.query<{ op_id: string }>("select op_id from sync_op where user_id = $1", [memberId]);
    expect(recorded.rows.map((r) => r.op_id).sort()).toEqual([...others].sort());
    expect((await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_practice_answer where user_id = $1", [memberId])).rows[0]!.n).toBe(
      questions.length - (made.indexOf(poisonId) % 2 === 1 ? 1 : 0),
    );
    // Device and server agree (the device keeps the set-aside change out of its merge).
    const server = (await t.app.inject({ method: "GET", url: "/api/exam/state", headers: { "ba-user-token": token } })).json().data;
    expect(await localState(db)).toEqual(server);
  });
});
