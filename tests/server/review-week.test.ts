import "fake-indexeddb/auto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_OPS_PER_SYNC } from "../../src/shared/sync/protocol.ts";
import { replayCard, type ReviewLogEntry } from "../../src/shared/exam/review.ts";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import { saveDownloadedBank } from "../../src/client/offline/questionBook.ts";
import { answerPractice, readReviewQueue, recordReview, setFavourite, toOp } from "../../src/client/offline/repository/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createBankWithQuestions, createMember, type TestMember } from "../helpers/factories.ts";
import { memberDbs } from "../helpers/memberDb.ts";

/**
 * Spaced review's promise, that a member can live on daily reviews offline for a week of simulated days.
 * The device (Dexie on fake-indexeddb, the app's own repository) gets 5 questions wrong and saves
 * a favourite, then every day reviews what is due — no network all week — and brings its
 * outbox to the real server (PGlite / PostgreSQL) at the end. Every day's queue is what FSRS
 * says is due; nothing leaves the queue except a question answered right enough times; the
 * server ends with every review once and the same cards as the device.
 */

const DAY = 86_400_000;
const freshDb = memberDbs(9_700);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ids = 0;
const newId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`;
const at = (ms: number) => ({ now: () => ms, newId });

async function sync(m: TestMember, ops: unknown[]): Promise<string[]> {
  const statuses: string[] = [];
  for (let i = 0; i < ops.length; i += MAX_OPS_PER_SYNC) {
    const res = await t.app.inject({ method: "POST", url: "/api/exam/sync", headers: m.headers, payload: { ops: ops.slice(i, i + MAX_OPS_PER_SYNC) } });
    const body = res.json() as { code: number; msg: string; data: { results: { status: string; msg?: string }[] } };
    expect(body.code, body.msg).toBe(1);
    for (const r of body.data.results) statuses.push(r.msg ? `${r.status}: ${r.msg}` : r.status);
  }
  return statuses;
}

describe("a week of daily reviews, offline", () => {
  it("reviews what is due each day on the device, and the server ends with every review once and the same cards", async () => {
    const bank = await createBankWithQuestions(t.database.db, 8);
    const m = await createMember(t.database.db);
    const questions: ExamQuestion[] = bank.questionIds.map((id) => ({
      id,
      type: "single",
      classifyId: bank.id,
      stem: `Question ${id}`,
      options: ["one", "two", "three", "four"].map((text, k) => ({ key: String.fromCharCode(65 + k), text })),
      answer: "A",
      score: 1,
      difficulty: 1,
    }));
    const db = freshDb();
    await saveDownloadedBank(db, { bank: { id: bank.id, title: "Week bank", version: "v1", questionCount: questions.length }, questions });

    // Day 0 (ten days ago, so no op is in the server's future): 5 wrong answers and a favourite.
    const day0 = Date.now() - 10 * DAY;
    for (const [k, q] of questions.slice(0, 5).entries()) await answerPractice(db, { bankId: bank.id, question: q, answer: "B" }, at(day0 + k * 1000));
    await setFavourite(db, questions[5]!.id, true, at(day0 + 10_000));
    const inQueue = new Set(questions.slice(0, 6).map((q) => q.id));
    expect((await readReviewQueue(db, day0 + 60_000)).due.map((e) => e.questionId).sort()).toEqual([...inQueue].sort());

    let reviews = 0;
    const reviewedOn: number[][] = [];
    for (let day = 0; day < 7; day++) {
      // Each day at 8:00 of the simulated morning, offline: what is due now is reviewed.
      const morning = day0 + day * DAY + 3_600_000;
      const queue = await readReviewQueue(db, morning);
      // What the queue calls due is exactly what FSRS schedules by now (never reviewed: due at once).
      for (const entry of queue.entries) {
        expect(queue.due.includes(entry), `question ${entry.questionId} on day ${day}`).toBe(entry.card === null || entry.card.due <= morning);
      }
      // Nothing leaves the queue except a question that graduated from the wrong book.
      expect(new Set(queue.entries.map((e) => e.questionId))).toEqual(inQueue);
      const today: number[] = [];
      for (const [k, entry] of queue.due.entries()) {
        // Mostly right; each question is answered wrong on one day of the week.
        const correct = (entry.questionId + day) % 4 !== 0;
        const outcome = await recordReview(db, { bankId: bank.id, question: questions.find((q) => q.id === entry.questionId)!, answer: correct ? "A" : "B", correct }, at(morning + k * 60_000));
        reviews++;
        today.push(entry.questionId);
        // Reviewed: due again on a later day, not again this morning.
        expect(outcome.card.due).toBeGreaterThan(morning + k * 60_000);
        if (outcome.graduated) inQueue.delete(entry.questionId);
      }
      reviewedOn.push(today);
    }
    // Cards came back on later days (spaced, not all at once), and the week had reviews every few days.
    expect(reviewedOn[0]!.length).toBe(6);
    expect(reviews).toBeGreaterThan(6);
    expect(reviewedOn.slice(1).some((d) => d.length > 0)).toBe(true);

    // Back online at the end of the week: the outbox, as the sync engine sends it.
    const ops = (await db.outbox.orderBy("seq").toArray()).map(toOp);
    expect(ops.filter((op) => op.type === "review.answer")).toHaveLength(reviews);
    expect(await sync(m, ops)).toEqual(ops.map(() => "applied"));
    // Sent again (a lost answer): every op a duplicate, nothing counted twice.
    expect(await sync(m, ops)).toEqual(ops.map(() => "duplicate"));

    const state = (await t.app.inject({ method: "GET", url: "/api/exam/review/state", headers: m.headers })).json().data as { logs: ReviewLogEntry[] };
    const deviceLogs = await db.reviewLogs.toArray();
    expect(state.logs.map((l) => l.opId).sort()).toEqual(deviceLogs.map((l) => l.opId).sort());
    expect(new Set(state.logs.map((l) => l.opId)).size).toBe(reviews);
    // The server's logs replay to the device's cards, question by question.
    for (const card of await db.reviewCards.toArray()) {
      expect(replayCard(card.questionId, state.logs.filter((l) => l.questionId === card.questionId))).toEqual(replayCard(card.questionId, deviceLogs.filter((l) => l.questionId === card.questionId)));
    }
    // The wrong book agrees: the questions still in it on the device are in it on the server.
    const examState = (await t.app.inject({ method: "GET", url: "/api/exam/state", headers: m.headers })).json().data as { wrong: { questionId: number; count: number; removed?: boolean }[] };
    const deviceWrong = (await db.wrong.toArray()).filter((w) => !w.removed && w.count > 0).map((w) => w.questionId).sort();
    const serverWrong = examState.wrong.filter((w) => !w.removed && w.count > 0).map((w) => w.questionId).sort();
    expect(serverWrong).toEqual(deviceWrong);
  });
});
