import { describe, expect, it } from "vitest";
import { replayCard, retrievability } from "../../src/shared/exam/review.ts";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import { saveDownloadedBank } from "../../src/client/offline/questionBook.ts";
import {
  answerPractice,
  deviceMastery,
  dueReviewCount,
  mergeReviewIntoDb,
  readReviewQueue,
  recordReview,
  reviewRetention,
  setFavourite,
  setReviewRetention,
  toOp,
  weakestQuestions,
} from "../../src/client/offline/repository/index.ts";
import { dueDays, formatDue, formatInterval } from "../../src/client/features/exam/reviewApi.ts";
import { memberDbs } from "../helpers/memberDb.ts";

/** Spaced review on the device (fake-indexeddb): the queue, scheduling offline, the outbox, the merge. */

const freshDb = memberDbs(9_300);
const T0 = Date.UTC(2026, 0, 5, 8);
const DAY = 86_400_000;
let ids = 0;
const newId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`;
const at = (ms: number) => ({ now: () => ms, newId });

const question = (id: number, type: ExamQuestion["type"] = "single"): ExamQuestion => ({
  id,
  type,
  classifyId: 7,
  stem: `Stem ${id}`,
  options: [
    { key: "A", text: "a" },
    { key: "B", text: "b" },
  ],
  answer: "A",
  score: 1,
  difficulty: 1,
});

async function withBank() {
  const db = freshDb();
  await saveDownloadedBank(db, { bank: { id: 7, title: "Maths", version: "v1", questionCount: 3 }, questions: [question(1), question(2), question(3)] });
  return db;
}

describe("the review queue on the device", () => {
  it("holds the wrong book and favourites, due at once, with a time estimate; a review schedules the card with FSRS, offline", async () => {
    const db = await withBank();
    expect((await readReviewQueue(db, T0)).queued).toBe(0);
    await answerPractice(db, { bankId: 7, question: question(1), answer: "B" }, at(T0));
    await setFavourite(db, 2, true, at(T0));
    await setFavourite(db, 99, true, at(T0)); // a bank not on this device
    let queue = await readReviewQueue(db, T0);
    expect(queue.due.map((e) => [e.questionId, e.source])).toEqual([
      [1, "wrong"],
      [2, "favourite"],
    ]);
    expect(queue).toMatchObject({ queued: 3, dueElsewhere: 1, estimateSeconds: 40 });
    expect(await dueReviewCount(db, T0)).toBe(3);

    const outcome = await recordReview(db, { bankId: 7, question: question(1), answer: "B", correct: false }, at(T0 + DAY));
    expect(outcome.graduated).toBe(false);
    // Exactly what ts-fsrs gives for this log.
    expect(outcome.card).toEqual(replayCard(1, [{ opId: expect.any(String) as unknown as string, questionId: 1, at: T0 + DAY, correct: false, grade: null, retention: 0.9 }]));
    // Wrong: its short relearning step (10 minutes), then due again.
    expect(new Date(outcome.card.due).toISOString()).toBe("2026-01-06T08:10:00.000Z");
    queue = await readReviewQueue(db, T0 + DAY + 1);
    expect(queue.due.map((e) => e.questionId)).toEqual([2]);
    expect((await readReviewQueue(db, T0 + DAY + 10 * 60_000)).due.map((e) => e.questionId)).toEqual([2, 1]);
    // Never-reviewed cards first, then the most overdue.
    expect((await readReviewQueue(db, T0 + 2 * DAY)).due.map((e) => e.questionId)).toEqual([2, 1]);

    // Queued: the answer (a wrong one counts in the wrong book again) and the review.
    const outbox = (await db.outbox.orderBy("seq").toArray()).map(toOp).slice(-2);
    expect(outbox.map((op) => op.type)).toEqual(["practice.answer", "review.answer"]);
    expect(outbox[1]!.payload).toEqual({ questionId: 1, correct: false, grade: null, retention: 0.9 });
    expect((await db.wrong.get(1))?.count).toBe(2);
  });

  it("sends the member's hard / easy for a right answer only, with their desired retention", async () => {
    const db = await withBank();
    expect(await reviewRetention(db)).toBe(0.9);
    await setReviewRetention(db, 0.95, at(T0));
    expect(await reviewRetention(db)).toBe(0.95);
    await recordReview(db, { bankId: 7, question: question(1), answer: "A", correct: true, grade: "easy" }, at(T0 + 1));
    await recordReview(db, { bankId: 7, question: question(2), answer: "B", correct: false, grade: "easy" }, at(T0 + 2));
    const ops = (await db.outbox.orderBy("seq").toArray()).map(toOp).filter((op) => op.type !== "practice.answer");
    expect(ops.map((op) => [op.type, op.payload])).toEqual([
      ["review.retention", { retention: 0.95 }],
      ["review.answer", { questionId: 1, correct: true, grade: "easy", retention: 0.95 }],
      ["review.answer", { questionId: 2, correct: false, grade: null, retention: 0.95 }],
    ]);
  });

  it("takes a question out of the wrong book after three right reviews in a row; answered wrong again, it comes back", async () => {
    const db = await withBank();
    await answerPractice(db, { bankId: 7, question: question(3), answer: "B" }, at(T0));
    const outcomes = [];
    for (let day = 1; day <= 3; day++) outcomes.push(await recordReview(db, { bankId: 7, question: question(3), answer: "A", correct: true }, at(T0 + day * DAY)));
    expect(outcomes.map((o) => o.graduated)).toEqual([false, false, true]);
    expect((await db.outbox.orderBy("seq").last())?.type).toBe("wrong.remove");
    expect((await readReviewQueue(db, T0 + 100 * DAY)).queued).toBe(0);
    await answerPractice(db, { bankId: 7, question: question(3), answer: "B" }, at(T0 + 4 * DAY));
    const queue = await readReviewQueue(db, T0 + 100 * DAY);
    expect(queue.due.map((e) => e.questionId)).toEqual([3]);
  });

  it("merges the server's logs with the unsent ones, replaying each card; a merge that changes nothing writes nothing", async () => {
    const db = await withBank();
    await recordReview(db, { bankId: 7, question: question(1), answer: "A", correct: true }, at(T0 + DAY));
    const pending = (await db.outbox.toArray()).map(toOp);
    // Another device reviewed question 1 earlier and question 2; the server has those.
    const server = {
      retention: 0.8,
      retentionAt: T0,
      logs: [
        { opId: "10000000-0000-4000-8000-000000000001", questionId: 1, at: T0, correct: false, grade: null, retention: 0.8 },
        { opId: "10000000-0000-4000-8000-000000000002", questionId: 2, at: T0, correct: true, grade: "hard" as const, retention: 0.8 },
      ],
    };
    expect(await mergeReviewIntoDb(db, server, pending)).toBeGreaterThan(0);
    const local = (await db.reviewLogs.toArray()).filter((l) => l.questionId === 1);
    expect(local).toHaveLength(2);
    expect(await db.reviewCards.get(1)).toEqual(replayCard(1, local));
    expect((await db.reviewCards.get(1))?.reps).toBe(2);
    expect(await reviewRetention(db)).toBe(0.8);
    expect(await mergeReviewIntoDb(db, server, pending)).toBe(0);
  });

  it("picks the weakest questions of a topic by retrievability", async () => {
    const db = await withBank();
    await answerPractice(db, { bankId: 7, question: question(2), answer: "A" }, at(T0));
    await recordReview(db, { bankId: 7, question: question(1), answer: "A", correct: true, grade: "easy" }, at(T0));
    await recordReview(db, { bankId: 7, question: question(3), answer: "B", correct: false }, at(T0));
    const picked = await weakestQuestions(db, 7, "single", T0 + 5 * DAY);
    expect(picked.map((p) => p.question.id)).toEqual([3, 1, 2]);
    expect(picked[0]!.recall).toBeLessThan(picked[1]!.recall);
    expect(await weakestQuestions(db, 8, "single", T0)).toEqual([]);
  });

  it("counts mastery by topic from the device alone (offline), by the server's rules", async () => {
    const db = await withBank();
    expect(await deviceMastery(db, T0)).toEqual({ topics: [] });
    // Question 1 wrong, question 2 right (never reviewed: 0 and 1), question 3 reviewed right.
    await answerPractice(db, { bankId: 7, question: question(1), answer: "B" }, at(T0));
    await answerPractice(db, { bankId: 7, question: question(2), answer: "A" }, at(T0));
    await answerPractice(db, { bankId: 7, question: question(3), answer: "B" }, at(T0 - 7 * DAY));
    await recordReview(db, { bankId: 7, question: question(3), answer: "A", correct: true }, at(T0));
    const now = T0 + DAY;
    const { topics } = await deviceMastery(db, now);
    expect(topics).toHaveLength(1);
    const card = replayCard(3, (await db.reviewLogs.toArray()).map((l) => ({ ...l })));
    const recall3 = retrievability(card, now)!;
    // A review is also a practice answer (as on the server): 4 answers, 2 right.
    expect(topics[0]).toMatchObject({ bankId: 7, title: "Maths", type: "single", answered: 4, correct: 2, dueReviews: 1 });
    expect(topics[0]!.mastery).toBeCloseTo((0 + 1 + recall3) / 3, 3);
    // The weeks (Monday, UTC) of the answers: T0 is a Monday.
    expect(topics[0]!.weeks).toEqual([
      { week: "2025-12-29", answered: 1, correct: 0 },
      { week: "2026-01-05", answered: 3, correct: 2 },
    ]);
  });

  it("leaves a short answer waiting for a teacher out of mastery, the correct rate and the weakest questions", async () => {
    const db = freshDb();
    const short: ExamQuestion = { ...question(4, "short"), options: [], answer: undefined };
    await saveDownloadedBank(db, { bank: { id: 7, title: "Maths", version: "v1", questionCount: 2 }, questions: [question(1), short] });
    await answerPractice(db, { bankId: 7, question: short, answer: "my essay" }, at(T0));
    await answerPractice(db, { bankId: 7, question: question(1), answer: "A" }, at(T0));
    expect((await db.answers.toArray()).map((a) => [a.questionId, a.correct])).toEqual([
      [4, null],
      [1, true],
    ]);
    const { topics } = await deviceMastery(db, T0 + DAY);
    expect(topics.map((t) => [t.type, t.answered, t.correct, t.mastery])).toEqual([
      ["short", 0, 0, null],
      ["single", 1, 1, 1],
    ]);
    // Not "the weakest" with 0: unknown, in the middle.
    expect((await weakestQuestions(db, 7, "short", T0 + DAY)).map((w) => [w.question.id, w.recall])).toEqual([[4, 0.5]]);
  });

  it("a wrong answer in review: mastery 0 for it until it is answered right again, as the server counts", async () => {
    const db = await withBank();
    await answerPractice(db, { bankId: 7, question: question(1), answer: "A" }, at(T0 - 3 * DAY));
    await answerPractice(db, { bankId: 7, question: question(2), answer: "A" }, at(T0 - 3 * DAY));
    await recordReview(db, { bankId: 7, question: question(1), answer: "B", correct: false }, at(T0));
    let [topic] = (await deviceMastery(db, T0 + 60_000)).topics;
    expect(topic).toMatchObject({ answered: 3, correct: 2, mastery: 0.5 });
    await recordReview(db, { bankId: 7, question: question(1), answer: "A", correct: true }, at(T0 + 2 * 60_000));
    [topic] = (await deviceMastery(db, T0 + 3 * 60_000)).topics;
    expect(topic).toMatchObject({ answered: 4, correct: 3 });
    expect(topic!.mastery).toBeGreaterThan(0.95);
  });
});

describe("the schedule as the review screen says it", () => {
  const local = (day: number, hour: number, minute = 0) => new Date(2026, 0, day, hour, minute).getTime();
  const MIN = 60_000;

  it("says intervals as Anki does, in the language's own units", () => {
    expect([10 * MIN, 3 * 3_600_000, DAY, 4 * DAY, 60 * DAY, 540 * DAY].map((ms) => formatInterval(ms, "en"))).toEqual(["10m", "3h", "1d", "4d", "2 mths", "1.5y"]);
    expect([10 * MIN, DAY, 4 * DAY].map((ms) => formatInterval(ms, "zh-cn"))).toEqual(["10分钟", "1天", "4天"]);
    // Never "0m": a step due at once still reads as a minute.
    expect(formatInterval(1_000, "en")).toBe("1m");
  });

  it("says when: the time today, tomorrow, else the weekday and date", () => {
    const now = local(5, 8);
    expect(formatDue(local(5, 8, 10), now, "en")).toMatch(/^08:10/);
    expect(formatDue(local(6, 7), now, "en")).toBe("tomorrow");
    expect(formatDue(local(6, 7), now, "zh-cn")).toBe("明天");
    expect(formatDue(local(9, 7), now, "en")).toBe("Fri, Jan 9");
    expect(formatDue(local(9, 7), now, "zh-cn")).toBe("1月9日周五");
  });

  it("groups the session's cards by the local day they come back, earliest first", () => {
    expect(dueDays([local(9, 8), local(6, 9), local(6, 8), local(9, 20)])).toEqual([
      { day: local(6, 0), first: local(6, 8), count: 2 },
      { day: local(9, 0), first: local(9, 8), count: 2 },
    ]);
    expect(dueDays([])).toEqual([]);
  });
});
