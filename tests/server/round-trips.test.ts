import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Queryable } from "../../src/server/db/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
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
