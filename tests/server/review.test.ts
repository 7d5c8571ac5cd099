import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayCard, type ReviewLogEntry } from "../../src/shared/exam/review.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { assign, createBankWithQuestions, createClassroom, createMember, type TestMember } from "../helpers/factories.ts";

/**
 * Spaced review on the server: `review.answer` ops applied once, cards the FSRS replay
 * of their logs whatever order the ops arrive in, due lists per member, another member's cards
 * out of reach, hostile input refused in the envelope (never a 500).
 */

let t: TestApp;
let bank: { id: number; questionIds: number[] };
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  bank = await createBankWithQuestions(t.database.db, 6);
});
afterAll(() => t.close());

const op = (type: string, payload: object, at: number, id = randomUUID()) => ({ id, type, at, payload });
interface ReviewPayload {
  questionId: number;
  correct: boolean;
  grade: "hard" | "easy" | null;
  retention: number;
}
const review = (questionId: number, correct: boolean, at: number, extra: Partial<ReviewPayload> = {}, id = randomUUID()) => ({
  id,
  type: "review.answer",
  at,
  payload: { questionId, correct, grade: null, retention: 0.9, ...extra } as ReviewPayload,
});
const wrongAnswer = (questionId: number, at: number) => op("practice.answer", { questionId, answer: "B", bankId: bank.id }, at);

async function sync(m: TestMember, ops: unknown[]): Promise<{ status: string; msg?: string }[]> {
  const res = await t.app.inject({ method: "POST", url: "/api/exam/sync", headers: m.headers, payload: { ops } });
  expect(res.statusCode).toBe(200);
  return res.json().data.results;
}
async function get<T>(m: TestMember | null, url: string): Promise<{ statusCode: number; body: { code: number; msg: string; data: T } }> {
  const res = await t.app.inject({ method: "GET", url, headers: m ? m.headers : { "think-lang": "en" } });
  return { statusCode: res.statusCode, body: res.json() };
}
const cardsOf = async (userId: number) =>
  (
    await t.database.db.query(
      `select question_id, due::float8 as due, stability, difficulty, state, reps, lapses, scheduled_days, streak
       from exam_review_card where user_id = $1 order by question_id`,
      [userId],
    )
  ).rows;

describe("review.answer", () => {
  it("is applied exactly once: a replayed op is a duplicate and logs nothing more", async () => {
    const m = await createMember(t.database.db);
    const now = Date.now();
    const once = review(bank.questionIds[0]!, false, now - DAY);
    expect(await sync(m, [once])).toEqual([{ id: once.id, status: "applied" }]);
    expect(await sync(m, [once, once])).toEqual([
      { id: once.id, status: "duplicate" },
      { id: once.id, status: "duplicate" },
    ]);
    const logs = await t.database.db.query("select count(*)::int as n from exam_review_log where user_id = $1", [m.id]);
    expect(logs.rows[0]).toEqual({ n: 1 });
    const [card] = await cardsOf(m.id);
    expect(card).toMatchObject({ question_id: bank.questionIds[0], reps: 1, lapses: 0 });
    // The server's card is the shared replay of the one log.
    const expected = replayCard(bank.questionIds[0]!, [{ opId: once.id, questionId: bank.questionIds[0]!, at: once.at, correct: false, grade: null, retention: 0.9 }]);
    expect(Number(card!.due)).toBe(expected.due);

    const state = await get<{ retention: number; logs: unknown[] }>(m, "/api/exam/review/state");
    expect(state.body.data).toEqual({
      retention: 0.9,
      retentionAt: 0,
      logs: [{ opId: once.id, questionId: bank.questionIds[0], at: once.at, correct: false, grade: null, retention: 0.9 }],
    });
  });

  it("ends in the same cards whatever order and batches two devices' ops arrive in (property)", async () => {
    const base = Date.now() - 30 * DAY;
    const logArb = fc.record({
      q: fc.integer({ min: 0, max: 2 }),
      at: fc.integer({ min: 0, max: 20 }).map((n) => base + n * (DAY / 2)),
      correct: fc.boolean(),
      grade: fc.constantFrom(null, "hard", "easy"),
      retention: fc.constantFrom(0.8, 0.9, 0.95),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(logArb, { minLength: 1, maxLength: 12 }), fc.integer(), fc.integer({ min: 1, max: 5 }), async (specs, seed, batch) => {
        const ops = specs.map((s) => review(bank.questionIds[s.q]!, s.correct, s.at, { grade: s.correct ? (s.grade as ReviewPayload["grade"]) : null, retention: s.retention }));
        const a = await createMember(t.database.db);
        const b = await createMember(t.database.db);
        await sync(a, ops);
        // Device order scrambled, sent in small batches, some sent twice.
        const shuffled = fc.sample(fc.shuffledSubarray(ops, { minLength: ops.length, maxLength: ops.length }), { numRuns: 1, seed })[0]!;
        for (let i = 0; i < shuffled.length; i += batch) await sync(b, shuffled.slice(i, i + batch + 1));
        const cardsA = await cardsOf(a.id);
        expect(await cardsOf(b.id)).toEqual(cardsA);
        // And both equal what a device computes from the logs.
        const logs: ReviewLogEntry[] = ops.map((o) => ({ opId: o.id, questionId: o.payload.questionId, at: o.at, correct: o.payload.correct, grade: o.payload.grade, retention: o.payload.retention }));
        for (const card of cardsA) expect(Number(card.due)).toBe(replayCard(Number(card.question_id), logs).due);
      }),
      { numRuns: 12 },
    );
  });

  it("refuses a question the member may not see, and hostile payloads, op by op (never a 500)", async () => {
    const m = await createMember(t.database.db);
    const closed = await createBankWithQuestions(t.database.db, 1);
    await assign(t.database.db, "bank", closed.id, { classrooms: [await createClassroom(t.database.db)] });
    const now = Date.now();
    const results = await sync(m, [
      review(closed.questionIds[0]!, true, now),
      review(2_000_000_000, true, now),
      op("review.answer", { questionId: bank.questionIds[0], correct: "yes", grade: null, retention: 0.9 }, now),
      op("review.answer", { questionId: bank.questionIds[0], correct: true, grade: "again", retention: 0.9 }, now),
      op("review.answer", { questionId: bank.questionIds[0], correct: true, grade: null, retention: 5 }, now),
      op("review.answer", { questionId: bank.questionIds[0], correct: true, grade: null, retention: 0.9 }, now + 3 * DAY),
      op("review.retention", { retention: "0.9\u0000" }, now),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected", "rejected", "rejected", "rejected", "rejected"]);
    expect(results[0]!.msg).toBe("Unknown question");
    expect(results[1]!.msg).toBe("Unknown question");
    expect(await cardsOf(m.id)).toEqual([]);
    // A request that is not a batch: a clear code-0 envelope.
    const bad = await t.app.inject({ method: "POST", url: "/api/exam/sync", headers: m.headers, payload: { ops: "review.answer" } });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toMatchObject({ code: 0 });
    // Without a token, the review routes answer the envelope's login code, not data.
    for (const url of ["/api/exam/review/due", "/api/exam/review/state", "/api/exam/review/mastery"]) {
      const res = await get(null, url);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body.code).not.toBe(1);
    }
  });

  it("keeps the member's desired retention, last writer wins by time", async () => {
    const m = await createMember(t.database.db);
    const now = Date.now();
    expect((await sync(m, [op("review.retention", { retention: 0.95 }, now), op("review.retention", { retention: 0.8 }, now - 1000)])).map((r) => r.status)).toEqual(["applied", "applied"]);
    expect((await get<{ retention: number; retentionAt: number }>(m, "/api/exam/review/state")).body.data).toMatchObject({ retention: 0.95, retentionAt: now });
  });
});

describe("due lists", () => {
  it("hold the member's own wrong book and favourites, due ones only; a question leaving the wrong book leaves, answered wrong again comes back", async () => {
    const a = await createMember(t.database.db);
    const b = await createMember(t.database.db);
    const now = Date.now();
    const [q1, q2, q3] = bank.questionIds as [number, number, number];
    await sync(a, [wrongAnswer(q1, now - 2 * DAY), wrongAnswer(q2, now - 2 * DAY), op("favourite.set", { questionId: q3, on: true }, now - 2 * DAY)]);
    await sync(b, [wrongAnswer(q3, now - 2 * DAY)]);

    type Due = { queued: number; due: { questionId: number; bankId: number; source: string; reps: number }[]; estimateSeconds: number };
    const dueA = (await get<Due>(a, "/api/exam/review/due")).body.data;
    expect(dueA.queued).toBe(3);
    expect(dueA.due.map((d) => [d.questionId, d.source, d.bankId])).toEqual([
      [q1, "wrong", bank.id],
      [q2, "wrong", bank.id],
      [q3, "favourite", bank.id],
    ]);
    expect(dueA.estimateSeconds).toBe(60);
    // Nothing of the other member's.
    expect((await get<Due>(b, "/api/exam/review/due")).body.data.due.map((d) => d.questionId)).toEqual([q3]);
    // Content never travels with a due list.
    expect(JSON.stringify(dueA)).not.toMatch(/"answer"|"stem"|"analysis"/);

    // Reviewed right now: not due until FSRS says so.
    await sync(a, [review(q1, true, now)]);
    expect((await get<Due>(a, "/api/exam/review/due")).body.data.due.map((d) => d.questionId)).toEqual([q2, q3]);
    // Out of the wrong book: out of the queue.
    await sync(a, [op("wrong.remove", { questionId: q2 }, now)]);
    let due = (await get<Due>(a, "/api/exam/review/due")).body.data;
    expect(due.queued).toBe(2);
    expect(due.due.map((d) => d.questionId)).toEqual([q3]);
    // Answered wrong again: back.
    await sync(a, [wrongAnswer(q2, now + 1000)]);
    due = (await get<Due>(a, "/api/exam/review/due")).body.data;
    expect(due.due.map((d) => d.questionId)).toEqual([q2, q3]);
    // The other member's reviews never touch this member's cards.
    await sync(b, [review(q2, false, now)]);
    expect((await cardsOf(a.id)).map((c) => c.question_id)).toEqual([q1]);
  });

  it("mastery by topic and type: answered, correct, due reviews and an estimate in [0, 1]", async () => {
    const m = await createMember(t.database.db);
    const now = Date.now();
    const [q1, q2] = bank.questionIds as [number, number];
    await sync(m, [wrongAnswer(q1, now - DAY), op("practice.answer", { questionId: q2, answer: "A", bankId: bank.id }, now - DAY), review(q1, true, now - 1000)]);
    type M = { topics: { bankId: number; type: string; answered: number; correct: number; dueReviews: number; mastery: number; weeks: { answered: number; correct: number }[] }[] };
    const { topics } = (await get<M>(m, "/api/exam/review/mastery")).body.data;
    expect(topics).toHaveLength(1);
    const topic = topics[0]!;
    expect(topic).toMatchObject({ bankId: bank.id, type: "single", answered: 2, correct: 1, dueReviews: 0 });
    expect(topic.mastery).toBeGreaterThan(0.5);
    expect(topic.mastery).toBeLessThanOrEqual(1);
    expect(topic.weeks.reduce((n, w) => n + w.answered, 0)).toBe(2);
    // Another member sees none of it.
    expect((await get<M>(await createMember(t.database.db), "/api/exam/review/mastery")).body.data.topics).toEqual([]);
  });
});
