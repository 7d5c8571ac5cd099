import "fake-indexeddb/auto";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { i18n } from "@lingui/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import { createHttpClient } from "../../src/client/api/http.ts";
import { MemberDb, deleteMemberDb } from "../../src/client/offline/db.ts";
import { answerPractice, pendingCount, readReviewQueue, recordReview, saveBank, setReviewRetention } from "../../src/client/offline/repository/index.ts";
import { createSyncEngine } from "../../src/client/offline/sync.ts";
import { createSyncTransport } from "../../src/client/offline/transport.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createBankWithQuestions } from "../helpers/factories.ts";

/**
 * Spaced review end to end without a browser: two devices of one member (each its own IndexedDB,
 * fake-indexeddb), the real HTTP client, Dexie outbox and sync engine, against the real server on
 * a real port. Both review the same cards offline; whatever order they sync in, the server holds
 * each review once and both devices end with the server's cards. Then a week of daily reviews
 * on one device, offline between syncs.
 */

const DAY = 86_400_000;
/**
 * The first practice, 10 days ago at 14:00 UTC whenever the test runs: "due" counts whole days,
 * so the simulated days below must open at the same hours of the day on every run.
 */
const T0 = Math.floor(Date.now() / DAY) * DAY - 10 * DAY + 14 * 3_600_000;
let t: TestApp;
let baseURL = "";
let memberId = 0;
let token = "";
let bankId = 0;
let questions: ExamQuestion[] = [];

beforeAll(async () => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  baseURL = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const { rows } = await t.database.db.query<{ id: number }>("insert into member (username, password_hash) values ('review_devices', 'x') returning id");
  memberId = rows[0]!.id;
  token = await issueToken(t.database.db, "user", memberId, 3600);
  const bank = await createBankWithQuestions(t.database.db, 5);
  bankId = bank.id;
  const q = await t.database.db.query<{ id: number; answer: string; stem: string; options: { key: string; text: string }[] }>(
    "select id, answer, stem, options from exam_question where classify_id = $1 order by id",
    [bankId],
  );
  questions = q.rows.map((r) => ({ id: r.id, type: "single", classifyId: bankId, stem: r.stem, options: r.options, answer: r.answer, score: 1, difficulty: 1 }));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

function device(indexedDB: IDBFactory) {
  const db = new MemberDb(memberId, { indexedDB, IDBKeyRange });
  const client = createHttpClient({
    baseURL,
    language: () => "en",
    tokens: {
      admin: { getToken: () => "", setToken: () => undefined, removeToken: () => undefined },
      user: { getToken: (type = "auth") => (type === "auth" ? token : ""), setToken: () => undefined, removeToken: () => undefined },
    },
    currentPath: () => "/exam/examTab/review",
    navigate: () => undefined,
    online: () => true,
    notify: { error: () => undefined, success: () => undefined },
    translate: (m) => i18n._(m),
    loading: { open: () => undefined, close: () => undefined },
  });
  const transport = createSyncTransport((config, options) => client.request<unknown>(config, options));
  const engine = createSyncEngine({
    db,
    ...transport,
    now: () => Date.now(),
    random: () => 0.5,
    setTimer: () => null,
    clearTimer: () => undefined,
    online: () => true,
  });
  return { db, sync: () => engine.sync() };
}

const cardsOf = async (db: MemberDb) => (await db.reviewCards.orderBy("questionId").toArray()).map(({ questionId, due, reps, lapses, stability }) => ({ questionId, due, reps, lapses, stability }));
const serverCards = async () =>
  (
    await t.database.db.query<{ question_id: number; due: string; reps: number; lapses: number; stability: number }>(
      "select question_id, due, reps, lapses, stability from exam_review_card where user_id = $1 order by question_id",
      [memberId],
    )
  ).rows.map((r) => ({ questionId: r.question_id, due: Number(r.due), reps: r.reps, lapses: r.lapses, stability: r.stability }));

describe("two devices reviewing the same cards offline", () => {
  let a: ReturnType<typeof device>;
  let b: ReturnType<typeof device>;
  beforeAll(() => {
    a = device(new IDBFactory());
    b = device(new IDBFactory());
  });
  afterAll(async () => {
    a.db.close();
    b.db.close();
    await deleteMemberDb(memberId).catch(() => undefined);
  });

  it("end with the server's cards, each review applied once, whatever order they sync in", async () => {
    for (const d of [a, b]) await saveBank(d.db, { id: bankId, classifyId: bankId, title: "Bank", version: "v1" }, questions);
    // Five questions answered wrong on device A, synced; device B pulls them.
    for (const [i, q] of questions.entries()) await answerPractice(a.db, { bankId, question: q, answer: "B" }, { now: () => T0 + i });
    await a.sync();
    await b.sync();
    const queueB = await readReviewQueue(b.db, T0 + DAY);
    expect(queueB.due.map((e) => e.questionId)).toEqual(questions.map((q) => q.id));
    expect(queueB.estimateSeconds).toBe(5 * 20);

    // A day later, both offline: A reviews q1-q3 right, B reviews q2-q5 (q4 wrong), q2 and q3 on both.
    const day1 = T0 + DAY;
    await setReviewRetention(b.db, 0.95, { now: () => day1 });
    for (const [i, q] of questions.slice(0, 3).entries()) await recordReview(a.db, { bankId, question: q, answer: "A", correct: true }, { now: () => day1 + 60_000 * i });
    for (const [i, q] of questions.slice(1).entries()) {
      const right = i !== 2;
      await recordReview(b.db, { bankId, question: q, answer: right ? "A" : "C", correct: right, grade: i === 0 ? "easy" : null }, { now: () => day1 + 30_000 + 60_000 * i });
    }
    expect(await pendingCount(a.db)).toBe(6); // 3 x (practice.answer + review.answer)
    // The device scheduled them itself: not due the same day any more.
    expect((await readReviewQueue(a.db, day1 + 3_600_000)).due.map((e) => e.questionId)).toEqual(questions.slice(3).map((q) => q.id));

    // B syncs first, then A, then B again.
    await b.sync();
    await a.sync();
    await b.sync();
    expect(await pendingCount(a.db)).toBe(0);
    expect(await pendingCount(b.db)).toBe(0);
    const logs = await t.database.db.query<{ n: number; ops: number }>("select count(*)::int as n, count(distinct op_id)::int as ops from exam_review_log where user_id = $1", [memberId]);
    expect(logs.rows[0]).toEqual({ n: 7, ops: 7 });
    const server = await serverCards();
    expect(server.map((c) => c.reps)).toEqual([1, 2, 2, 1, 1]);
    expect(server[3]).toMatchObject({ lapses: 0 });
    expect(await cardsOf(a.db)).toEqual(server);
    expect(await cardsOf(b.db)).toEqual(server);
    // B's desired retention reached A through the server.
    expect((await a.db.reviewSettings.get("retention"))?.value).toBe(0.95);
  });

  it("lives on daily reviews for a week of simulated days, offline between syncs", async () => {
    const start = T0 + 2 * DAY;
    let reviewed = 0;
    const dueByDay: number[][] = [];
    const queuedByDay: number[] = [];
    for (let day = 0; day < 7; day++) {
      // The member opens the app a little later each day (9:00, 10:00, ...).
      const now = start + day * DAY + (9 + day) * 3_600_000;
      const queue = await readReviewQueue(a.db, now);
      dueByDay.push(queue.due.map((e) => e.questionId));
      queuedByDay.push(queue.queued);
      // Offline: every due question reviewed, the fourth question always answered wrong.
      for (const [i, entry] of queue.due.entries()) {
        const right = entry.questionId !== questions[3]!.id;
        await recordReview(a.db, { bankId, question: entry.question, answer: right ? "A" : "B", correct: right }, { now: () => now + i * 1000 });
        reviewed += 1;
      }
      // Back online at the end of the day.
      await a.sync();
      expect(await pendingCount(a.db)).toBe(0);
    }
    const [q1, q2, q3, q4, q5] = questions.map((q) => q.id) as [number, number, number, number, number];
    // The one answered wrong comes back every day (its 10-minute relearning step is past by the
    // next day); the ones answered right are spaced out (FSRS), each on its own day.
    expect(dueByDay).toEqual([[q4, q5], [q4, q1], [q4, q3], [q4, q5], [q4], [q4], [q4]]);
    // q3 (day 2) and q5 (day 3), answered right a third time in a row, left the wrong book and the
    // queue, on the device and on the server; q2 (right twice) and the others stay.
    expect(queuedByDay).toEqual([5, 5, 5, 4, 3, 3, 3]);
    expect(reviewed).toBe(11);
    const state = await t.app.inject({ method: "GET", url: "/api/exam/state", headers: { "ba-user-token": token } });
    expect((state.json().data.wrong as { questionId: number }[]).map((w) => w.questionId)).toEqual([q1, q2, q4]);
    const logs = await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_review_log where user_id = $1", [memberId]);
    expect(logs.rows[0]!.n).toBe(7 + reviewed);
    expect(await cardsOf(a.db)).toEqual(await serverCards());
    await b.sync();
    expect(await cardsOf(b.db)).toEqual(await serverCards());
  });
});
