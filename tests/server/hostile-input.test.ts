import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { DB_INT_MAX } from "../../src/shared/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { secondServer } from "../helpers/second.ts";
import { createBankWithQuestions, createOfficialExam, createPaper } from "../helpers/factories.ts";

/**
 * Hostile values (ids past the int4 range, NUL, unpaired surrogates) get a
 * clear code-0 answer and change nothing, on every route; in `POST /api/exam/sync` each op is
 * judged on its own, so one bad op (or one op whose handler fails) is rejected and never holds
 * back the batch. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */

let t: TestApp;
let bank = 0;
let questions: { id: number; type: string; answer: unknown }[] = [];
let paper = 0;
let room = 0;
const throwing = { sql: "", value: "" };

beforeAll(async () => {
  t = await createTestApp({
    prepare: (app) => {
      // Values PostgreSQL itself refuses, past any schema (the envelope's safety net).
      app.get("/api/test/cast", { config: { auth: "public" } }, async (_req, reply) => {
        const { rows } = await app.db.query(throwing.sql, [throwing.value]);
        return reply.success(rows);
      });
      app.get("/api/test/unavailable", { config: { auth: "public" } }, async () => {
        throw Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
      });
      app.get("/api/test/refused", { config: { auth: "public" } }, async () => {
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
      });
    },
  });
  const db = t.database.db;
  // A practice bank and a mock paper over it, and an official exam open now.
  const made = await createBankWithQuestions(db, 4);
  bank = made.id;
  questions = (await db.query<{ id: number; type: string; answer: unknown }>("select id, type, answer from exam_question where classify_id = $1 order by id", [bank])).rows;
  paper = await createPaper(db, { rows: made.questionIds.map((id) => ({ fixed: id })) });
  room = (await createOfficialExam(db, { singles: 2, judges: 2, draw: 2 })).roomId;
});
afterAll(() => t.close());

let n = 0;
async function member() {
  n++;
  const { rows } = await t.database.db.query<{ id: number }>("insert into member (username, nickname, password_hash) values ($1, 'Before', $2) returning id", [
    `hostile_${n}`,
    await hashPassword("whatever1"),
  ]);
  return { id: rows[0]!.id, token: await issueToken(t.database.db, "user", rows[0]!.id, 3600) };
}

const headers = (token?: string) => ({ "think-lang": "en", ...(token ? { "ba-user-token": token } : {}) });
const get = (url: string, token?: string) => t.app.inject({ method: "GET", url, headers: headers(token) });
const post = (url: string, payload: unknown, token?: string) =>
  t.app.inject({ method: "POST", url, headers: { ...headers(token), "content-type": "application/json" }, payload: JSON.stringify(payload) });

/** HTTP 200, code 0, "Incorrect parameter!"-style message: a clear refusal, not a server error. */
function refused(res: { statusCode: number; json(): unknown }, message = "Incorrect parameter!") {
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ code: 0, msg: message, data: null });
}

async function count(sql: string, params: unknown[]): Promise<number> {
  return (await t.database.db.query<{ n: number }>(sql, params)).rows[0]!.n;
}

describe("the probe's requests answer code 0 and change nothing", () => {
  it("POST /api/account/profile with a NUL or an unpaired surrogate in the nickname", async () => {
    const m = await member();
    for (const nickname of ["a\u0000b", "a\ud800b", "\udfff"]) {
      refused(await post("/api/account/profile", { nickname, motto: "kept?" }, m.token));
    }
    refused(await post("/api/account/profile", { nickname: "Fine", motto: "m\u0000" }, m.token));
    const row = (await t.database.db.query<{ nickname: string; motto: string }>("select nickname, motto from member where id = $1", [m.id])).rows[0]!;
    expect(row).toEqual({ nickname: "Before", motto: "" });
    // A real emoji (a surrogate pair) is fine.
    expect((await post("/api/account/profile", { nickname: "Ann 😀" }, m.token)).json()).toMatchObject({ code: 1, data: { userInfo: { nickname: "Ann 😀" } } });
  });

  it("GET /api/course/list?keyword=%00 (no login needed)", async () => {
    refused(await get("/api/course/list?keyword=%00"));
    refused(await get("/api/course/list?keyword=a%00b&page=1"));
    expect((await get("/api/course/list?keyword=a")).json().code).toBe(1);
  });

  it("GET /api/exam/bank and /api/exam/paper with an id past 2^31 - 1", async () => {
    const m = await member();
    for (const id of [String(DB_INT_MAX + 1), "9223372036854775808", "-1", "0", "1e400", "NaN"]) {
      refused(await get(`/api/exam/bank?id=${id}`, m.token));
      refused(await get(`/api/exam/paper?id=${id}`, m.token));
    }
    // The largest id is a fine id that names nothing.
    expect((await get(`/api/exam/bank?id=${DB_INT_MAX}`, m.token)).json()).toMatchObject({ code: 0, msg: "This question bank does not exist" });
    expect((await get(`/api/exam/paper?id=${DB_INT_MAX}`, m.token)).json()).toMatchObject({ code: 0, msg: "This paper does not exist" });
  });

  it("POST /api/exam/official/start with a room id past 2^31 - 1 creates no attempt", async () => {
    const m = await member();
    for (const roomId of [DB_INT_MAX + 1, 2 ** 63, -1, 1.5, "1", "\u0000"]) {
      refused(await post("/api/exam/official/start", { roomId }, m.token));
    }
    expect(await count("select count(*)::int as n from exam_attempt where user_id = $1", [m.id])).toBe(0);
  });

  it("POST /api/exam/official/save and /submit refuse only an answer with a NUL or an unpaired surrogate, and take the others", async () => {
    const m = await member();
    const start = (await post("/api/exam/official/start", { roomId: room }, m.token)).json().data;
    const [q1, q2, q3] = start.questions as { id: number }[];
    const uuid = start.attempt.uuid as string;
    expect((await post("/api/exam/official/save", { uuid, answers: { [q1!.id]: "A" } }, m.token)).json().code).toBe(1);
    const held = async () => (await t.database.db.query<{ answers: Record<string, unknown>; status: string }>("select answers, status from exam_attempt where uuid = $1", [uuid])).rows[0]!;
    const unsafe = "This answer holds a character that cannot be saved (a NUL or a broken character): it was not saved";
    // Each bad answer is refused alone, said by its question; the answer held for it stays.
    for (const bad of ["B\u0000", "\ud800", ["A", "x\udc00"], "\u0000"]) {
      const res = await post("/api/exam/official/save", { uuid, answers: { [q2!.id]: "B", [q1!.id]: bad } }, m.token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ code: 1, data: { saved: 1, late: false, rejected: [{ questionId: q1!.id, msg: unsafe }] } });
      expect((await held()).answers).toEqual({ [q1!.id]: "A", [q2!.id]: "B" });
    }
    // What is not an answer's text is still refused as a whole, and changes nothing.
    for (const body of [{ uuid, answers: { [`${q1!.id}\u0000`]: "A" } }, { uuid, answers: { [String(DB_INT_MAX + 1)]: "A" } }, { uuid: `${uuid.slice(0, 35)}\u0000`, answers: { [q1!.id]: "B" } }]) {
      expect((await post("/api/exam/official/save", body, m.token)).json()).toMatchObject({ code: 0, data: null });
      expect((await post("/api/exam/official/submit", body, m.token)).json()).toMatchObject({ code: 0, data: null });
    }
    expect(await held()).toEqual({ answers: { [q1!.id]: "A", [q2!.id]: "B" }, status: "open" });
    // A submission with one bad answer is submitted with the others.
    const submitted = await post("/api/exam/official/submit", { uuid, answers: { [q3!.id]: "A", [q2!.id]: "x\ud800" } }, m.token);
    expect(submitted.json()).toMatchObject({ code: 1, data: { uuid, late: false, rejected: [{ questionId: q2!.id, msg: unsafe }] } });
    expect(await held()).toEqual({ answers: { [q1!.id]: "A", [q2!.id]: "B", [q3!.id]: "A" }, status: "submitted" });
  });

  it("refuses NUL and unpaired surrogates in query, body (keys too, however deep) and path", async () => {
    const m = await member();
    refused(await get("/api/exam/records?page=1&x=%00", m.token));
    refused(await post("/api/course/enrol", { courseId: 1, deep: [{ a: [{ b: "\ud800" }] }] }, m.token));
    refused(await post("/api/course/enrol", { courseId: 1, deep: { "k\u0000": 1 } }, m.token));
    refused(await post("/api/user/checkIn", { tab: "login", username: "member\u0000", password: "member123456" }));
    // A path that is not valid UTF-8 once decoded: 400 in the envelope.
    const bad = await get("/storage/%ED%A0%80");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 0, msg: "Incorrect parameter!" });
  });
});

describe("values PostgreSQL refuses are a code-0 answer, never a 500", () => {
  it.each([
    ["an int4 out of range (22003)", "select $1::int as v", String(DB_INT_MAX + 1)],
    ["not a number (22P02)", "select $1::int as v", "twelve"],
    ["NUL in JSON (22P05)", "select $1::jsonb as v", '"a\\u0000b"'],
    ["an unpaired surrogate in JSON (22P02 / 22P05)", "select $1::jsonb as v", '"\\ud800"'],
  ])("%s", async (_name, sql, value) => {
    throwing.sql = sql;
    throwing.value = value;
    const res = await get("/api/test/cast");
    refused(res);
    // The value is not logged: PostgreSQL's message would quote it.
    expect(t.logs.text).toContain("database refused a value");
    expect(t.logs.text).not.toContain("twelve");
  });

  it("answers 503 (try again later) when the database is unreachable or shutting down", async () => {
    for (const url of ["/api/test/unavailable", "/api/test/refused"]) {
      const res = await get(url);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 0, msg: "The service is busy, please try again later", data: null });
    }
  });
});

// ---------------------------------------------------------------- sync

const base = Date.UTC(2026, 0, 1);
const op = (type: string, payload: object, at = base, id: string = randomUUID()) => ({ id, type, at, payload });
const sync = async (token: string, ops: unknown[], extra: object = {}) => {
  const res = await post("/api/exam/sync", { ops, ...extra }, token);
  expect(res.statusCode).toBe(200);
  return res.json() as { code: number; msg: string; data: { results: { id: string; status: string; msg?: string }[] } };
};
const statuses = (body: Awaited<ReturnType<typeof sync>>) => body.data.results.map((r) => r.status);

describe("POST /api/exam/sync judges each op on its own", () => {
  it("rejects ops with huge ids, NUL and unpaired surrogates, applies the others once, and a replay is duplicates", async () => {
    const m = await member();
    const [q1, q2, q3] = questions;
    const good1 = op("favourite.set", { questionId: q1!.id, on: true }, base + 1);
    const hugeQuestion = op("favourite.set", { questionId: DB_INT_MAX + 1, on: true }, base + 2);
    const hugeBank = op("progress.set", { bankId: 2 ** 63, position: 1 }, base + 3);
    const hugePosition = op("progress.set", { bankId: bank, position: DB_INT_MAX + 1 }, base + 4);
    const nulAnswer = op("practice.answer", { questionId: q2!.id, bankId: bank, answer: "A\u0000" }, base + 5);
    const surrogateAnswer = op("practice.answer", { questionId: q2!.id, bankId: bank, answer: ["A", "\ud800"] }, base + 6);
    const hugeKey = op("attempt.submit", { attemptId: randomUUID(), paperId: paper, startedAt: base, submittedAt: base + 7, answers: { [String(DB_INT_MAX + 1)]: "A" } }, base + 7);
    const nulKey = op("attempt.submit", { attemptId: randomUUID(), paperId: paper, startedAt: base, submittedAt: base + 8, answers: { [`${q1!.id}\u0000`]: "A" } }, base + 8);
    const good2 = op("practice.answer", { questionId: q3!.id, bankId: bank, answer: "Z" }, base + 9);
    const good3 = op("progress.set", { bankId: bank, position: 4 }, base + 10);
    const batch = [good1, hugeQuestion, hugeBank, hugePosition, nulAnswer, surrogateAnswer, hugeKey, nulKey, good2, good3];

    // A NUL elsewhere in the body does not refuse the batch either.
    const first = await sync(m.token, batch, { note: "x\u0000" });
    expect(first.code).toBe(1);
    expect(statuses(first)).toEqual(["applied", "rejected", "rejected", "rejected", "rejected", "rejected", "rejected", "rejected", "applied", "applied"]);
    expect(first.data.results.map((r) => r.id)).toEqual(batch.map((o) => o.id));
    for (const r of first.data.results.filter((x) => x.status === "rejected")) expect(r.msg).toBeTruthy();
    expect(first.data.results[4]!.msg).toContain("NUL");

    const replay = await sync(m.token, batch);
    expect(statuses(replay)).toEqual(["duplicate", "rejected", "rejected", "rejected", "rejected", "rejected", "rejected", "rejected", "duplicate", "duplicate"]);

    const state = (await get("/api/exam/state", m.token)).json().data;
    expect(state.favourites).toEqual([q1!.id]);
    expect(state.progress).toEqual([{ bankId: bank, position: 4, updatedAt: base + 10 }]);
    expect(await count("select count(*)::int as n from exam_practice_answer where user_id = $1", [m.id])).toBe(1);
    expect(await count("select count(*)::int as n from exam_attempt where user_id = $1", [m.id])).toBe(0);
  });

  it("rejects an op whose handler fails unexpectedly (a constraint, an exception), records it, and logs its id without the answer", async () => {
    const m = await member();
    const [q1, q2, q3, q4] = questions;
    // Test-only database rules that make one question's answers and one favourite fail.
    await t.database.db.exec(`alter table exam_practice_answer add constraint test_poison_answer check (question_id <> ${q2!.id})`);
    await t.database.db.exec(`
      create function test_poison_favourite() returns trigger language plpgsql as $$
      begin
        if new.question_id = ${q3!.id} then raise exception 'poisoned favourite'; end if;
        return new;
      end $$;
      create trigger test_poison_favourite before insert on exam_favourite for each row execute function test_poison_favourite();`);
    try {
      const good1 = op("favourite.set", { questionId: q1!.id, on: true }, base + 1);
      const checkFails = op("practice.answer", { questionId: q2!.id, bankId: bank, answer: "SECRET-ANSWER-TEXT" }, base + 2);
      const triggerFails = op("favourite.set", { questionId: q3!.id, on: true }, base + 3);
      const good2 = op("practice.answer", { questionId: q4!.id, bankId: bank, answer: "Z" }, base + 4);
      const batch = [good1, checkFails, triggerFails, good2];
      const first = await sync(m.token, batch);
      expect(statuses(first)).toEqual(["applied", "rejected", "rejected", "applied"]);
      expect(first.data.results[1]!.msg).toBe("The server could not apply this change");
      // Recorded with its answer: a replay never runs it again, and is answered the same.
      const replay = await sync(m.token, batch);
      expect(replay.data.results.map((r) => [r.status, r.msg])).toEqual([
        ["duplicate", undefined],
        ["rejected", "The server could not apply this change"],
        ["rejected", "The server could not apply this change"],
        ["duplicate", undefined],
      ]);

      const state = (await get("/api/exam/state", m.token)).json().data;
      expect(state.favourites).toEqual([q1!.id]);
      expect(await count("select count(*)::int as n from exam_practice_answer where user_id = $1", [m.id])).toBe(1);
      expect(await count("select count(*)::int as n from sync_op where user_id = $1", [m.id])).toBe(4);

      const lines = t.logs.lines.filter((line) => line.includes("sync op failed"));
      expect(lines.filter((line) => line.includes(checkFails.id))).toHaveLength(1);
      expect(lines.some((line) => line.includes(checkFails.id) && line.includes("23514"))).toBe(true);
      expect(lines.some((line) => line.includes(triggerFails.id) && line.includes("P0001"))).toBe(true);
      expect(t.logs.text).not.toContain("SECRET-ANSWER-TEXT");
    } finally {
      await t.database.db.exec("alter table exam_practice_answer drop constraint test_poison_answer");
      await t.database.db.exec("drop trigger test_poison_favourite on exam_favourite; drop function test_poison_favourite()");
    }
  });

  it("applies each op of a batch sent at once to two servers exactly once (one batch transaction each; on PostgreSQL truly concurrent)", async () => {
    const m = await member();
    const second = await secondServer(t);
    try {
      for (let round = 0; round < 4; round++) {
        const batch = [
          ...questions.map((q, i) => op("favourite.set", { questionId: q.id, on: round % 2 === 0 }, base + 100 * round + i)),
          op("favourite.set", { questionId: DB_INT_MAX, on: true }, base + 100 * round + 9),
        ];
        const send = (app: typeof t.app) =>
          app.inject({ method: "POST", url: "/api/exam/sync", headers: { ...headers(m.token), "content-type": "application/json" }, payload: JSON.stringify({ ops: batch }) });
        const answers = await Promise.all([send(t.app), send(second.app), send(t.app)]);
        const results = answers.map((a) => {
          expect(a.statusCode).toBe(200);
          return (a.json() as { data: { results: { status: string }[] } }).data.results.map((r) => r.status);
        });
        for (let i = 0; i < batch.length - 1; i++) {
          // Applied by exactly one of the three requests, a duplicate for the others.
          expect(results.map((r) => r[i]).sort(), `round ${round} op ${i}`).toEqual(["applied", "duplicate", "duplicate"]);
        }
        expect(await count("select count(*)::int as n from sync_op where user_id = $1 and op_id = any($2::text[])", [m.id, batch.map((o) => o.id)])).toBe(batch.length);
        const favourites = (await get("/api/exam/state", m.token)).json().data.favourites as number[];
        expect(favourites).toEqual(round % 2 === 0 ? questions.map((q) => q.id).sort((a, b) => a - b) : []);
      }
    } finally {
      await second.close();
    }
  });

  it("fails the whole request with 503 when the database gives up for a passing reason, and loses nothing", async () => {
    const m = await member();
    const [q1, q2, q3] = questions;
    await t.database.db.exec(`
      create function test_busy_favourite() returns trigger language plpgsql as $$
      begin
        if new.question_id = ${q2!.id} then raise exception 'could not serialize access' using errcode = '40001'; end if;
        return new;
      end $$;
      create trigger test_busy_favourite before insert on exam_favourite for each row execute function test_busy_favourite();`);
    const batch = [
      op("favourite.set", { questionId: q1!.id, on: true }, base + 1),
      op("favourite.set", { questionId: q2!.id, on: true }, base + 2),
      op("favourite.set", { questionId: q3!.id, on: true }, base + 3),
    ];
    try {
      const res = await post("/api/exam/sync", { ops: batch }, m.token);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 0, msg: "The service is busy, please try again later" });
      // Nothing of the batch is committed (one transaction): every op is sent again and applied once the database is back.
      for (const o of batch) expect(await count("select count(*)::int as n from sync_op where user_id = $1 and op_id = $2", [m.id, o.id])).toBe(0);
      expect((await get("/api/exam/state", m.token)).json().data.favourites).toEqual([]);
    } finally {
      await t.database.db.exec("drop trigger test_busy_favourite on exam_favourite; drop function test_busy_favourite()");
    }
    expect(statuses(await sync(m.token, batch))).toEqual(["applied", "applied", "applied"]);
    expect(statuses(await sync(m.token, batch))).toEqual(["duplicate", "duplicate", "duplicate"]);
    expect((await get("/api/exam/state", m.token)).json().data.favourites).toEqual([q1!.id, q2!.id, q3!.id].sort((a, b) => a - b));
  });
});
