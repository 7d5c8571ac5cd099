import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Queryable } from "../../src/server/db/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { answerOpAlone } from "../../src/server/modules/exam/attempts/official.repository.ts";
import { createBankWithQuestions, createMember, createOfficialExam, type TestMember } from "../helpers/factories.ts";

/**
 * The hot paths' round trips to the database (what bounds the takers figure), counted
 * on the app's own database handle, with the behaviour the merged statements must keep: a
 * practice answer to a question an exam withholds is still refused, a wrong answer still counts
 * in the wrong book once per op, and a refused op still rolls back alone.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Counts every statement sent through the app's database, in and out of transactions. */
async function roundTrips<T>(fn: () => Promise<T>): Promise<{ result: T; count: number }> {
  let count = 0;
  const db = t.app.db;
  const counting = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      count++;
      return q.query(sql, params);
    },
    exec: (sql) => {
      count++;
      return q.exec(sql);
    },
  });
  const transaction = db.transaction.bind(db);
  const query = db.query.bind(db);
  const spies = [
    vi.spyOn(db, "query").mockImplementation((sql, params) => {
      count++;
      return query(sql, params);
    }),
    // begin + commit: two more round trips around the transaction's own.
    vi.spyOn(db, "transaction").mockImplementation((fn) => {
      count += 2;
      return transaction((tx) => fn(counting(tx)));
    }),
  ];
  try {
    return { result: await fn(), count };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

const post = (m: TestMember, url: string, payload: object) => t.app.inject({ method: "POST", url, headers: m.headers, payload }).then((r) => r.json());

describe("round trips of the hot paths", () => {
  it("an official save: the token with its member, then one UPDATE merging the answers with the deadline and status checks (2; 5 with a read-modify-write, 6 with a statement per step)", async () => {
    const exam = await createOfficialExam(t.database.db, { singles: 4, judges: 0, draw: 3 });
    const m = await createMember(t.database.db);
    const started = (await post(m, "/api/exam/official/start", { roomId: exam.roomId })).data;
    const q = started.questions[0].id as number;
    const { result, count } = await roundTrips(() => post(m, "/api/exam/official/save", { uuid: started.attempt.uuid, answers: { [q]: "A" } }));
    expect(result).toMatchObject({ code: 1, data: { saved: 1 } });
    expect(count).toBe(2);
    const { rows } = await t.database.db.query<{ answers: Record<string, unknown> }>("select answers from exam_attempt where uuid = $1", [started.attempt.uuid]);
    expect(rows[0]!.answers).toEqual({ [q]: "A" });
  });

  it("an official start: one statement for the paper and its rows, one draw per row that reads only the questions it keeps, the new attempt written with its last-seen time; a resumed start reads the same questions back in the same order", async () => {
    const exam = await createOfficialExam(t.database.db, { singles: 12, judges: 12, draw: 4 });
    const m = await createMember(t.database.db);
    const { result, count } = await roundTrips(() => post(m, "/api/exam/official/start", { roomId: exam.roomId }));
    expect(result.code).toBe(1);
    const questions = result.data.questions as { id: number; type: string; answer?: unknown; analysis?: unknown }[];
    // token with member; begin, member lock, expired attempts, room, face rule, attempts in the room, paper with rows, 2 draws, insert, commit
    expect(count).toBe(1 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 2 + 1);
    expect(questions.map((q) => q.type)).toEqual([...Array(4).fill("single"), ...Array(4).fill("judge")]);
    expect(new Set(questions.map((q) => q.id)).size).toBe(8);
    for (const q of questions) {
      expect(exam.questionIds).toContain(q.id);
      expect(q.answer).toBeUndefined();
      expect(q.analysis).toBeUndefined();
    }
    const stored = await t.database.db.query<{ questions: { id: number; score: number }[]; last_seen_at: number | null }>(
      "select questions, last_seen_at from exam_attempt where uuid = $1",
      [result.data.attempt.uuid],
    );
    expect(stored.rows[0]!.questions.map((q) => q.id)).toEqual(questions.map((q) => q.id));
    expect(Number(stored.rows[0]!.last_seen_at)).toBeGreaterThan(Date.now() - 60_000);
    // Again: the same attempt, its questions read back in paper order, the last-seen time moved on.
    await t.database.db.query("update exam_attempt set last_seen_at = 1 where uuid = $1", [result.data.attempt.uuid]);
    const again = await post(m, "/api/exam/official/start", { roomId: exam.roomId });
    expect(again.data.attempt.uuid).toBe(result.data.attempt.uuid);
    expect(again.data.questions).toEqual(result.data.questions);
    const seen = await t.database.db.query<{ last_seen_at: number }>("select last_seen_at from exam_attempt where uuid = $1", [result.data.attempt.uuid]);
    expect(Number(seen.rows[0]!.last_seen_at)).toBeGreaterThan(1);
  });

  it("a 20-op practice sync: the op ids in one statement, the questions in one, the 20 answers with the wrong book in one, and 3 around them (token with member, begin, commit); 144 with a statement per step, 64 with a savepoint and a question read per op, 25 with a statement per answer", async () => {
    const bank = await createBankWithQuestions(t.database.db, 5);
    const m = await createMember(t.database.db);
    const ops = Array.from({ length: 20 }, (_, i) => ({
      id: randomUUID(),
      type: "practice.answer",
      at: Date.now() - 1000 + i,
      payload: { questionId: bank.questionIds[i % 5], bankId: bank.id, answer: "WRONG" },
    }));
    const { result, count } = await roundTrips(() => post(m, "/api/exam/sync", { ops }));
    expect(result.data.results.map((r: { status: string }) => r.status)).toEqual(Array(20).fill("applied"));
    expect(count).toBe(1 + 2 + 1 + 1 + 1);
    // Every wrong answer counted once per op, and a replay counts nothing.
    const wrong = async () =>
      (await t.database.db.query<{ n: number }>("select coalesce(sum(count), 0)::int as n from exam_wrong where user_id = $1", [m.id])).rows[0]!.n;
    expect(await wrong()).toBe(20);
    // Written together, the answers keep their op order (the review's latest answer is by time,
    // then id) and each question's latest wrong answer is its time in the wrong book.
    const answered = await t.database.db.query<{ op_id: string }>("select op_id from exam_practice_answer where user_id = $1 order by id", [m.id]);
    expect(answered.rows.map((r) => r.op_id)).toEqual(ops.map((o) => o.id));
    const book = await t.database.db.query<{ question_id: number; count: number; last_time: string }>(
      "select question_id, count, last_time from exam_wrong where user_id = $1 order by question_id",
      [m.id],
    );
    expect(book.rows.map((r) => ({ q: r.question_id, count: r.count, last: Number(r.last_time) }))).toEqual(
      [...bank.questionIds].sort((a, b) => a - b).map((q) => ({ q, count: 4, last: Math.max(...ops.filter((o) => o.payload.questionId === q).map((o) => o.at)) })),
    );
    const replay = await post(m, "/api/exam/sync", { ops });
    expect(replay.data.results.map((r: { status: string }) => r.status)).toEqual(Array(20).fill("duplicate"));
    expect(await wrong()).toBe(20);
    // An op twice in one batch: applied once, then a duplicate.
    const twice = { ...ops[0]!, id: randomUUID() };
    const both = await post(m, "/api/exam/sync", { ops: [twice, twice] });
    expect(both.data.results.map((r: { status: string }) => r.status)).toEqual(["applied", "duplicate"]);
    expect(await wrong()).toBe(21);
  });

  it("still refuses a practice answer to a question an exam withholds, alone, and a right answer leaves the wrong book alone", async () => {
    const exam = await createOfficialExam(t.database.db, { singles: 2, judges: 0, draw: 1 });
    const bank = await createBankWithQuestions(t.database.db, 2);
    const m = await createMember(t.database.db);
    const right = (await t.database.db.query<{ answer: unknown }>("select answer from exam_question where id = $1", [bank.questionIds[0]])).rows[0]!.answer;
    const ops = [
      { id: randomUUID(), type: "practice.answer", at: Date.now() - 20, payload: { questionId: bank.questionIds[1], bankId: bank.id, answer: "WRONG" } },
      { id: randomUUID(), type: "practice.answer", at: Date.now() - 10, payload: { questionId: exam.questionIds[0], bankId: exam.bankId, answer: "A" } },
      { id: randomUUID(), type: "practice.answer", at: Date.now() - 5, payload: { questionId: bank.questionIds[0], bankId: bank.id, answer: right } },
    ];
    // The refusal in the middle aborts the quick pass: the careful pass applies the others once.
    const { result, count } = await roundTrips(() => post(m, "/api/exam/sync", { ops }));
    const results = result.data.results;
    expect(results[0]).toMatchObject({ status: "applied" });
    expect(results[1]).toMatchObject({ status: "rejected", msg: "This question is kept for an exam and cannot be practised now" });
    expect(results[2]).toMatchObject({ status: "applied" });
    // token; quick pass: begin, op ids, questions, (first answer judged, second refused, both in memory), rollback; careful pass: begin, op ids, questions, 3 savepoints, 2 answers, 1 rollback to savepoint, the refusal's reason recorded (for a replay), commit
    expect(count).toBe(1 + (2 + 1 + 1) + (2 + 1 + 1 + 3 + 2 + 1 + 1));
    const rows = await t.database.db.query<{ question_id: number; correct: boolean }>("select question_id, correct from exam_practice_answer where user_id = $1 order by at", [m.id]);
    expect(rows.rows).toEqual([
      { question_id: bank.questionIds[1], correct: false },
      { question_id: bank.questionIds[0], correct: true },
    ]);
    // The quick pass's wrong answer was rolled back with it: counted once.
    expect((await t.database.db.query("select question_id, count from exam_wrong where user_id = $1", [m.id])).rows).toEqual([{ question_id: bank.questionIds[1], count: 1 }]);
  });

  it("an answer as the app sends it: a sync of one official.answer op is the token and one statement merging it and recording its id (2; 5 with begin, the op id, the UPDATE and commit apart), and each pull the token and one statement (2 and 2; 4 and 3 with a statement per list)", async () => {
    const exam = await createOfficialExam(t.database.db, { singles: 4, judges: 0, draw: 3 });
    const m = await createMember(t.database.db);
    const started = (await post(m, "/api/exam/official/start", { roomId: exam.roomId })).data;
    const [q, other] = started.questions.map((x: { id: number }) => x.id) as number[];
    const op = (questionId: number, answer: string, answeredAt: number) => ({ id: randomUUID(), type: "official.answer", at: answeredAt, payload: { uuid: started.attempt.uuid, questionId, answer, answeredAt } });
    const answer = op(q!, "A", Date.now() - 5_000);
    const { result, count } = await roundTrips(() => post(m, "/api/exam/sync", { ops: [answer] }));
    expect(result.data.results).toEqual([{ id: answer.id, status: "applied" }]);
    expect(count).toBe(2);
    expect((await t.database.db.query("select type from sync_op where user_id = $1 and op_id = $2", [m.id, answer.id])).rows).toEqual([{ type: "official.answer" }]);
    const stored = async () =>
      (await t.database.db.query<{ answers: Record<string, unknown>; answer_times: Record<string, number> }>("select answers, answer_times from exam_attempt where uuid = $1", [started.attempt.uuid])).rows[0]!;
    expect((await stored()).answers).toEqual({ [q!]: "A" });
    expect(Number((await stored()).answer_times[q!])).toBe(answer.payload.answeredAt);
    // Sent again: a duplicate, nothing changes. An older answer to the question (reordered) is taken as held: the later stays.
    expect((await post(m, "/api/exam/sync", { ops: [answer] })).data.results).toEqual([{ id: answer.id, status: "duplicate" }]);
    const older = op(q!, "B", answer.payload.answeredAt - 1_000);
    expect((await post(m, "/api/exam/sync", { ops: [older] })).data.results).toEqual([{ id: older.id, status: "applied" }]);
    expect((await stored()).answers).toEqual({ [q!]: "A" });
    // A question of another exam is still refused, alone; the other answer of the batch is taken.
    const foreign = op(exam.questionIds.find((id) => !started.questions.some((x: { id: number }) => x.id === id)) ?? 999_999, "A", Date.now());
    const both = await post(m, "/api/exam/sync", { ops: [foreign, op(other!, "C", Date.now())] });
    expect(both.data.results.map((r: { status: string }) => r.status)).toEqual(["rejected", "applied"]);
    expect(both.data.results[0].msg).toBe("This question is not part of this exam");
    expect((await stored()).answers).toEqual({ [q!]: "A", [other!]: "C" });

    // The pulls: one statement each after the token, with what the lists hold.
    const get = (url: string) => t.app.inject({ method: "GET", url, headers: m.headers }).then((r) => r.json());
    const state = await roundTrips(() => get("/api/exam/state"));
    expect(state.count).toBe(2);
    expect(state.result.data).toEqual({ favourites: [], wrong: [], progress: [] });
    const review = await roundTrips(() => get("/api/exam/review/state"));
    expect(review.count).toBe(2);
    expect(review.result.data).toMatchObject({ logs: [] });
  });
});

/**
 * Answers and token lookups arriving together share their statements (db/batch.ts): the answer
 * ops of many members in one statement (official.repository.ts `answerOpsTogether`), their tokens
 * in one `token_hash = any($1)` lookup; each request is answered as it would be alone.
 */
describe("answers arriving together", () => {
  type Started = { m: TestMember; uuid: string; questions: number[] };
  let exam: Awaited<ReturnType<typeof createOfficialExam>>;
  beforeAll(async () => {
    exam = await createOfficialExam(t.database.db, { singles: 4, judges: 0, draw: 3 });
  });
  const takers = async (n: number): Promise<Started[]> =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const m = await createMember(t.database.db);
        const data = (await post(m, "/api/exam/official/start", { roomId: exam.roomId })).data;
        return { m, uuid: data.attempt.uuid as string, questions: (data.questions as { id: number }[]).map((q) => q.id) };
      }),
    );
  const answerOp = (s: Started, questionId: number, answer: string, answeredAt = Date.now() - 1_000) => ({
    id: randomUUID(),
    type: "official.answer",
    at: answeredAt,
    payload: { uuid: s.uuid, questionId, answer, answeredAt },
  });
  const sync = (s: Started, op: object) => post(s.m, "/api/exam/sync", { ops: [op] });
  const stored = async (uuid: string) =>
    (await t.database.db.query<{ answers: Record<string, unknown> }>("select answers from exam_attempt where uuid = $1", [uuid])).rows[0]!.answers;
  const recorded = async (memberId: number) =>
    (await t.database.db.query<{ op_id: string }>("select op_id from sync_op where user_id = $1 order by op_id", [memberId])).rows.map((r) => r.op_id);

  it("N answers sent at once: fewer statements than N (the tokens in one lookup, the answers in one statement), each applied and recorded once", async () => {
    const all = await takers(8);
    const ops = all.map((s, i) => answerOp(s, s.questions[0]!, ["A", "B", "C", "D"][i % 4]!));
    const { result, count } = await roundTrips(() => Promise.all(all.map((s, i) => sync(s, ops[i]!))));
    expect(result.map((r) => r.data.results)).toEqual(ops.map((op) => [{ id: op.id, status: "applied" }]));
    expect(count).toBeLessThan(all.length);
    for (const [i, s] of all.entries()) {
      expect(await stored(s.uuid)).toEqual({ [s.questions[0]!]: ops[i]!.payload.answer });
      expect(await recorded(s.m.id)).toEqual([ops[i]!.id]);
    }
    // Sent again together: each a duplicate, nothing changes.
    const again = await Promise.all(all.map((s, i) => sync(s, ops[i]!)));
    expect(again.map((r) => r.data.results)).toEqual(ops.map((op) => [{ id: op.id, status: "duplicate" }]));
  });

  it("the same op sent twice at once is applied once (the other a duplicate), and two answers of one member at once are both taken", async () => {
    const [a, b, c] = await takers(3);
    const twice = answerOp(a!, a!.questions[0]!, "A");
    const first = answerOp(b!, b!.questions[0]!, "B", Date.now() - 2_000);
    const second = answerOp(b!, b!.questions[1]!, "C", Date.now() - 1_000);
    const other = answerOp(c!, c!.questions[0]!, "D");
    const [r1, r2, r3, r4, r5] = await Promise.all([sync(a!, twice), sync(a!, twice), sync(b!, first), sync(b!, second), sync(c!, other)]);
    expect([r1.data.results[0].status, r2.data.results[0].status].sort()).toEqual(["applied", "duplicate"]);
    expect([r3, r4, r5].map((r) => r.data.results[0].status)).toEqual(["applied", "applied", "applied"]);
    expect(await recorded(a!.m.id)).toEqual([twice.id]);
    expect(await stored(a!.uuid)).toEqual({ [a!.questions[0]!]: "A" });
    expect(await stored(b!.uuid)).toEqual({ [b!.questions[0]!]: "B", [b!.questions[1]!]: "C" });
    expect(await recorded(b!.m.id)).toEqual([first.id, second.id].sort());
    expect(await stored(c!.uuid)).toEqual({ [c!.questions[0]!]: "D" });
  });

  it("one refused answer among accepted ones: refused alone, with its reason; an older answer sent with a newer one keeps the newer", async () => {
    const all = await takers(4);
    const foreignQuestion = exam.questionIds.find((id) => !all[0]!.questions.includes(id))!;
    const refused = answerOp(all[0]!, foreignQuestion, "A");
    const newer = answerOp(all[1]!, all[1]!.questions[0]!, "B", Date.now() - 1_000);
    const older = answerOp(all[1]!, all[1]!.questions[0]!, "C", Date.now() - 5_000);
    const fine = [answerOp(all[2]!, all[2]!.questions[0]!, "A"), answerOp(all[3]!, all[3]!.questions[0]!, "B")];
    const results = await Promise.all([sync(all[0]!, refused), sync(all[1]!, newer), sync(all[1]!, older), sync(all[2]!, fine[0]!), sync(all[3]!, fine[1]!)]);
    expect(results[0].data.results[0]).toMatchObject({ id: refused.id, status: "rejected", msg: "This question is not part of this exam" });
    expect(results.slice(1).map((r) => r.data.results[0].status)).toEqual(["applied", "applied", "applied", "applied"]);
    expect(await stored(all[0]!.uuid)).toEqual({});
    expect(await stored(all[1]!.uuid)).toEqual({ [all[1]!.questions[0]!]: "B" });
    expect(await stored(all[2]!.uuid)).toEqual({ [all[2]!.questions[0]!]: "A" });
    // The refusal is recorded with its reason: sent again, the same answer.
    expect((await sync(all[0]!, refused)).data.results[0]).toMatchObject({ status: "rejected", msg: "This question is not part of this exam" });
  });

  it("a statement that fails for one answer fails none of the others: each is then taken alone", async () => {
    const all = await takers(3);
    const give = (s: Started, answer: string) => answerOpAlone(t.app.db, s.m.id, randomUUID(), Date.now(), { uuid: s.uuid, answers: { [s.questions[0]!]: answer }, answeredAt: { [s.questions[0]!]: Date.now() } });
    // A NUL the op schema refuses on the way in: here it reaches the statement, which PostgreSQL refuses.
    const results = await Promise.allSettled([give(all[0]!, "A"), give(all[1]!, "bad\u0000"), give(all[2]!, "C")]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : null))).toEqual(["applied", null, "applied"]);
    expect(await stored(all[0]!.uuid)).toEqual({ [all[0]!.questions[0]!]: "A" });
    expect(await stored(all[1]!.uuid)).toEqual({});
    expect(await stored(all[2]!.uuid)).toEqual({ [all[2]!.questions[0]!]: "C" });
  });

  it("an attempt another transaction holds keeps no one else's answer waiting: the others are taken, its own after the lock (PostgreSQL; PGlite has one connection)", async () => {
    const all = await takers(3);
    const give = (s: Started) => answerOpAlone(t.app.db, s.m.id, randomUUID(), Date.now(), { uuid: s.uuid, answers: { [s.questions[0]!]: "A" }, answeredAt: { [s.questions[0]!]: Date.now() } });
    if (t.database.kind === "postgres") {
      let held!: Promise<"applied" | null>;
      await t.database.db.transaction(async (tx) => {
        await tx.query("select id from exam_attempt where uuid = $1 for update", [all[0]!.uuid]);
        held = give(all[0]!);
        expect(await Promise.all([give(all[1]!), give(all[2]!)])).toEqual(["applied", "applied"]);
        expect(await Promise.race([held.then(() => "answered"), new Promise((r) => setTimeout(() => r("waiting"), 300))])).toBe("waiting");
      });
      expect(await held).toBe("applied");
    } else {
      expect(await Promise.all(all.map(give))).toEqual(["applied", "applied", "applied"]);
    }
    for (const s of all) expect(await stored(s.uuid)).toEqual({ [s.questions[0]!]: "A" });
  });

  it("a token revoked by logout is refused at once, also among valid tokens looked up together", async () => {
    const all = await takers(3);
    const out = await t.app.inject({ method: "POST", url: "/api/user/logout", headers: all[0]!.m.headers, payload: {} });
    expect(out.json().code).toBe(1);
    const results = await Promise.all(all.map((s) => sync(s, answerOp(s, s.questions[0]!, "A"))));
    expect(results[0]).toMatchObject({ code: 303 });
    expect(results.slice(1).map((r) => r.data.results[0].status)).toEqual(["applied", "applied"]);
    expect(await stored(all[0]!.uuid)).toEqual({});
    expect(await recorded(all[0]!.m.id)).toEqual([]);
  });
});
