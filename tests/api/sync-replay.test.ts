import "fake-indexeddb/auto";
import { i18n } from "@lingui/core";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Op } from "../../src/shared/sync/ops.ts";
import { createHttpClient } from "../../src/client/api/http.ts";
import { deleteMemberDb, openMemberDb, type MemberDb } from "../../src/client/offline/db.ts";
import { answerPractice, pendingCount, rejectedOps } from "../../src/client/offline/repository/index.ts";
import { createSyncEngine } from "../../src/client/offline/sync.ts";
import { createSyncTransport } from "../../src/client/offline/transport.ts";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createBankWithQuestions, createOfficialExam } from "../helpers/factories.ts";

/**
 * The device against a server whose answers get lost: the real app (real database) behind a
 * real local HTTP server that passes the first sync request through and then answers 502 in its
 * place (a proxy that lost the answer), and passes every later request through. The device's
 * real HTTP client, Dexie outbox and sync engine (timers fired by the test) send the batch again:
 * an op the server rejected the first time must reach the member as rejected, with its reason,
 * just as if the first answer had arrived; an applied op is dropped from the outbox as usual.
 */

let t: TestApp;
let front: FastifyInstance;
let baseURL = "";
let memberId = 0;
let token = "";
/** What the real app answered, request after request, op by op. */
const answered: { id: string; status: string; msg?: string }[][] = [];
let lose = 1;

beforeAll(async () => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
  t = await createTestApp();
  const { rows } = await t.database.db.query<{ id: number }>("insert into member (username, password_hash) values ('replay_test', $1) returning id", [
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
    return { status: res.statusCode, body: res.json() as { code: number; data: { results?: { id: string; status: string; msg?: string }[] } } };
  };
  front.post("/api/exam/sync", async (req, reply) => {
    const res = await pass("POST", "/api/exam/sync", req.headers, req.body as { ops: Op[] });
    answered.push(res.body.data?.results ?? []);
    if (lose > 0) {
      lose--;
      return reply.code(502).send("Bad Gateway");
    }
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

describe("a sync answer lost on the way", () => {
  let db: MemberDb;
  afterAll(async () => {
    db?.close();
    await deleteMemberDb(memberId);
  });

  it("still shows the member the op the server rejected, with its reason, and drops the applied one", async () => {
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

    // Two practice answers made on the device: one to a bank's question, one to a question an
    // official exam keeps (the server rejects it).
    db = openMemberDb(memberId);
    const exam = await createOfficialExam(t.database.db, { singles: 1, judges: 0, draw: 1 });
    const bank = await createBankWithQuestions(t.database.db, 1);
    const question = (id: number, classifyId: number) => ({ id, classifyId, type: "single" as const, stem: "", options: [], difficulty: 1 as const, score: 2 });
    let clock = Date.now() - 60_000;
    const now = () => (clock += 10);
    await answerPractice(db, { bankId: bank.id, question: question(bank.questionIds[0]!, bank.id), answer: "Z" }, { now });
    await answerPractice(db, { bankId: exam.bankId, question: question(exam.questionIds[0]!, exam.bankId), answer: "A" }, { now });
    const [applied, refused] = (await db.outbox.orderBy("seq").toArray()).map((row) => row.id);

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
    for (let i = 0; timers.length > 0 && i < 20; i++) {
      timers.shift()!.fn();
      await engine.sync();
    }

    // The server judged the batch twice: the first answer (lost) and the replay's say the same.
    const reason = "This question is kept for an exam and cannot be practised now";
    expect(answered).toEqual([
      [
        { id: applied, status: "applied" },
        { id: refused, status: "rejected", msg: reason },
      ],
      [
        { id: applied, status: "duplicate" },
        { id: refused, status: "rejected", msg: reason },
      ],
    ]);
    // The member sees the refused change with its reason, as after a first answer; nothing waits.
    expect((await rejectedOps(db)).map((row) => [row.id, row.status, row.msg, row.setAside])).toEqual([[refused, "rejected", reason, undefined]]);
    expect(await pendingCount(db)).toBe(0);
    expect(engine.getStatus()).toMatchObject({ state: "idle", pending: 0, rejected: 1 });
    // Applied once on the server.
    const rows = await t.database.db.query<{ question_id: number }>("select question_id from exam_practice_answer where user_id = $1", [memberId]);
    expect(rows.rows).toEqual([{ question_id: bank.questionIds[0] }]);
  });
});
