import { Dexie } from "dexie";
import { describe, expect, it } from "vitest";
import { deleteMemberDb, memberDbName, openMemberDb } from "../../src/client/offline/db.ts";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import { replayCards } from "../../src/shared/exam/review.ts";
import type { Op } from "../../src/shared/sync/ops.ts";
import { readBookQuestions, readQuestionBook } from "../../src/client/offline/questionBook.ts";
import { mergeIntoDb } from "../../src/client/offline/sync.ts";
import {
  answerPractice,
  deviceMastery,
  dueReviewCount,
  mergeReviewIntoDb,
  pendingChangeCount,
  questionKinds,
  questionsWithIds,
  readReviewList,
  readReviewQueue,
  removeWrong,
  reviewSummary,
  saveBank,
  setFavourite,
} from "../../src/client/offline/repository/index.ts";
import { memberDbs } from "../helpers/memberDb.ts";

/**
 * The offline reads and writes a heavy device leans on (fake-indexeddb): questions looked up by
 * id through their keys, a large bank saved in slices within one transaction, the header's due
 * count without the queue's questions. Each gives what the simple form gave.
 */

const freshDb = memberDbs(9_400);
const T0 = Date.UTC(2026, 0, 5, 8);
const DAY = 86_400_000;

const question = (id: number, bankId: number): ExamQuestion => ({
  id,
  type: "single",
  classifyId: bankId,
  stem: `Stem ${id} of ${bankId}`,
  options: [
    { key: "A", text: "a" },
    { key: "B", text: "b" },
  ],
  answer: "A",
  score: 1,
  difficulty: 1,
});

/** Bank 1 holds ids 1..200, bank 2 ids 151..300 (151..200 in both), bank 3 ids 301..340. */
async function threeBanks() {
  const db = freshDb();
  const range = (from: number, to: number, bankId: number) => Array.from({ length: to - from + 1 }, (_, i) => question(from + i, bankId));
  await saveBank(db, { id: 1, classifyId: 1, title: "One", version: "1" }, range(1, 200, 1));
  // Some of bank 2's are of another type (151..200 too: bank 1's copy is the one counted).
  await saveBank(db, { id: 2, classifyId: 2, title: "Two", version: "1" }, range(151, 300, 2).map((q) => (q.id % 5 === 0 ? { ...q, type: "judge" as const } : q)));
  await saveBank(db, { id: 3, classifyId: 3, title: "Three", version: "1" }, range(301, 340, 3));
  return db;
}

/** The simple form: a cursor over the `id` index, the first row per id, of one bank if asked. */
async function byCursor(db: ReturnType<typeof freshDb>, ids: number[], bankId?: number) {
  const rows = await db.questions.where("id").anyOf(ids).toArray();
  const first = new Map<number, { id: number; bankId: number }>();
  for (const row of rows) if (!first.has(row.id) && (bankId === undefined || row.bankId === bankId)) first.set(row.id, row);
  return [...first.values()].map((q) => `${q.bankId}:${q.id}`).sort();
}

const keysOf = (rows: { id: number; bankId: number }[]) => rows.map((q) => `${q.bankId}:${q.id}`).sort();

describe("a heavy device's offline data", () => {
  it("questionsWithIds finds what the id cursor found, for few ids and many, in every bank or one", async () => {
    const db = await threeBanks();
    const many = Array.from({ length: 150 }, (_, i) => 1 + ((i * 7) % 400)); // some past every bank, some repeated
    const few = [5, 160, 299, 320, 5000];
    // Many ids, but only a few in bank 1 (read one by one) and most in no bank.
    const sparse = [3, 9, 170, ...Array.from({ length: 120 }, (_, i) => 2_000 + i)];
    for (const ids of [many, few, sparse]) {
      for (const bankId of [undefined, 2, 9]) {
        expect(keysOf(await questionsWithIds(db, ids, bankId))).toEqual(await byCursor(db, ids, bankId));
      }
    }
    // A question in two banks comes from the lower bank id when no bank is asked for.
    expect(keysOf(await questionsWithIds(db, Array.from({ length: 120 }, (_, i) => 151 + i)))).toEqual(Array.from({ length: 120 }, (_, i) => `${i < 50 ? 1 : 2}:${151 + i}`).sort());
    expect(await questionsWithIds(db, [])).toEqual([]);
  });

  it("a bank larger than a save slice is saved whole and in order, and a new version replaces every row", async () => {
    const db = freshDb();
    const questions = Array.from({ length: 734 }, (_, i) => question(10_000 + i, 5));
    await saveBank(db, { id: 5, classifyId: 5, title: "Big", version: "1" }, questions);
    const rows = await db.questions.where("bankId").equals(5).sortBy("position");
    expect(rows.map((r) => r.id)).toEqual(questions.map((q) => q.id));
    expect(rows.map((r) => r.position)).toEqual(questions.map((_, i) => i));
    expect((await db.banks.get(5))?.questionCount).toBe(734);

    const next = questions.slice(0, 300).reverse();
    await saveBank(db, { id: 5, classifyId: 5, title: "Big", version: "2" }, next);
    expect((await db.questions.where("bankId").equals(5).sortBy("position")).map((r) => r.id)).toEqual(next.map((q) => q.id));
    expect(await db.questions.count()).toBe(300);
  });

  it("a failed save leaves the bank as it was (the slices are one transaction)", async () => {
    const db = freshDb();
    const first = Array.from({ length: 600 }, (_, i) => question(20_000 + i, 6));
    await saveBank(db, { id: 6, classifyId: 6, title: "Kept", version: "1" }, first);
    // The same question twice in the new version: its second slice's add fails on the unique key.
    const broken = [...Array.from({ length: 400 }, (_, i) => question(30_000 + i, 6)), question(30_000, 6)];
    await expect(saveBank(db, { id: 6, classifyId: 6, title: "Kept", version: "2" }, broken)).rejects.toThrow();
    expect((await db.questions.where("bankId").equals(6).sortBy("position")).map((r) => r.id)).toEqual(first.map((q) => q.id));
    expect((await db.banks.get(6))?.version).toBe("1");
  });

  it("the header's due count is the queue's due reviews, on this device or not, whatever the cards say", async () => {
    const db = await threeBanks();
    // Wrong-book entries (some removed, some counted 0), favourites (some off), in banks and not.
    const wrong = Array.from({ length: 120 }, (_, i) => ({ questionId: 1 + i * 3, count: i % 7 === 0 ? 0 : 1 + (i % 3), lastTime: T0 - (i % 9) * DAY }));
    await mergeIntoDb(db, { favourites: Array.from({ length: 40 }, (_, i) => 3 + i * 10), wrong, progress: [] });
    await setFavourite(db, 18, false);
    // Review logs for some of them and for questions in no queue, reviewed on days spread around now.
    const logs = Array.from({ length: 120 }, (_, i) => ({
      opId: `log-${i}`,
      questionId: 1 + i * 4,
      at: T0 - (i % 40) * DAY,
      correct: i % 3 !== 0,
      grade: null,
      retention: 0.9,
    }));
    await mergeReviewIntoDb(db, { logs, retention: 0.9, retentionAt: 0 }, []);
    // Practice answers, right and wrong, in every bank (mastery counts them).
    for (const id of [2, 5, 160, 170, 201, 305]) {
      const bankId = id <= 200 ? 1 : id <= 300 ? 2 : 3;
      await answerPractice(db, { bankId, question: question(id, bankId), answer: id % 2 === 0 ? "A" : "B" }, { now: () => T0 - DAY });
    }
    for (const now of [T0 - 30 * DAY, T0, T0 + 3 * DAY, T0 + 60 * DAY]) {
      const queue = await readReviewQueue(db, now);
      expect(queue.due.length + queue.dueElsewhere).toBeGreaterThan(0);
      expect(await dueReviewCount(db, now)).toBe(queue.due.length + queue.dueElsewhere);
      // The home's card: the same figures, no question read.
      expect(await reviewSummary(db, now)).toEqual({ due: queue.due.length, queued: queue.queued, dueElsewhere: queue.dueElsewhere, estimateSeconds: queue.estimateSeconds });
      // The review screen's first look, every bank's and each bank's: the queue's figures and its first due entries.
      for (const bankId of [undefined, 1, 2, 3, 9]) {
        const whole = await readReviewQueue(db, now, bankId);
        const list = await readReviewList(db, now, bankId);
        expect({ ...list, first: list.first.map((e) => `${e.bank.id}:${e.questionId}:${e.source}:${e.card?.due}`) }).toEqual({
          due: whole.due.length,
          queued: whole.queued,
          dueElsewhere: whole.dueElsewhere,
          estimateSeconds: whole.estimateSeconds,
          first: whole.due.slice(0, 5).map((e) => `${e.bank.id}:${e.questionId}:${e.source}:${e.card?.due}`),
        });
        expect(list.first.map((e) => e.question)).toEqual(whole.due.slice(0, 5).map((e) => e.question));
        // One bank's mastery is every bank's, that bank's topics.
        const all = await deviceMastery(db, now);
        if (bankId !== undefined) expect((await deviceMastery(db, now, bankId)).topics).toEqual(all.topics.filter((topic) => topic.bankId === bankId));
      }
    }
    // The book lists every entry with the bank holding it (the lowest of two), as the id cursor finds them.
    await removeWrong(db, 4);
    const book = await readQuestionBook(db, "wrong");
    // The book's index lists the rows in the book, with their counts and times.
    const rows = (await db.wrong.toArray()).filter((w) => !w.removed && w.count > 0);
    expect(book.map((e) => [e.questionId, e.count, e.at]).sort((a, b) => a[0]! - b[0]!)).toEqual(rows.map((w) => [w.questionId, w.count, w.lastTime]));
    expect(book.some((e) => e.questionId === 4)).toBe(false);
    expect(book.filter((e) => e.bankId !== null).length).toBe(rows.filter((w) => w.questionId <= 340).length);
    expect(book.filter((e) => e.bankId === null).length).toBeGreaterThan(0);
    const ids = book.map((e) => e.questionId);
    expect(book.flatMap((e) => (e.bankId === null ? [] : [`${e.bankId}:${e.questionId}`])).sort()).toEqual(await byCursor(db, ids));
    // A page's questions: those of its entries only.
    const page = await readBookQuestions(db, book.slice(0, 20));
    expect([...page.values()].map(({ question: q }) => `${q.bankId}:${q.id}`).sort()).toEqual(await byCursor(db, ids.slice(0, 20)));
  });
});

describe("merging pulled review logs", () => {
  const log = (n: number, questionId: number, dayOffset: number, correct = true) => ({ opId: `log-${n}`, questionId, at: T0 + dayOffset * DAY, correct, grade: null, retention: 0.9 });

  it("replays only the questions whose logs came or went, and ends with every card the replay of all its logs", async () => {
    const db = freshDb();
    // Questions 1..60, one to three logs each.
    const first = Array.from({ length: 120 }, (_, i) => log(i, 1 + (i % 60), -(i % 17), i % 5 !== 0));
    expect(await mergeReviewIntoDb(db, { logs: first, retention: 0.9, retentionAt: 0 }, [])).toBe(first.length + 60);
    expect(new Map((await db.reviewCards.toArray()).map((c) => [c.questionId, c]))).toEqual(replayCards(first));
    // Nothing new: nothing written.
    expect(await mergeReviewIntoDb(db, { logs: first, retention: 0.9, retentionAt: 0 }, [])).toBe(0);

    // Question 7 gets a log (a pending review on this device), question 8 loses one, every log of
    // question 9 goes (its card goes), question 61 is new; a card missing (61 aside) is replayed.
    await db.reviewCards.delete(30);
    const pending: Op = { id: "pending-1", type: "review.answer", at: T0 + DAY, payload: { questionId: 7, correct: false, grade: null, retention: 0.9 } };
    const next = [...first.filter((l) => l.opId !== "log-7" && l.questionId !== 9), log(500, 61, 0)];
    expect(next.some((l) => l.questionId === 8)).toBe(true);
    await mergeReviewIntoDb(db, { logs: next, retention: 0.9, retentionAt: 0 }, [pending]);
    const all = [...next, { opId: "pending-1", questionId: 7, at: T0 + DAY, correct: false, grade: null, retention: 0.9 }];
    expect(new Map((await db.reviewCards.toArray()).map((c) => [c.questionId, c]))).toEqual(replayCards(all));
    expect((await db.reviewLogs.toCollection().primaryKeys()).sort()).toEqual(all.map((l) => l.opId).sort());
    expect(await db.reviewCards.get(9)).toBeUndefined();
  });
});

describe("the member's database, version 6 to 8", () => {
  it("keeps every row of a device's version-6 database, indexes them (the questions by type, the outbox by status and type) and writes each bank's directory", async () => {
    const memberId = 9_499;
    // The schema as version 6 left it (db.ts), written by an older app.
    const old = new Dexie(memberDbName(memberId));
    old.version(6).stores({
      banks: "id, classifyId",
      questions: "[bankId+id], &[bankId+position], id, bankId",
      progress: "bankId",
      answers: "++localId, &opId, questionId, bankId, at",
      favourites: "questionId",
      wrong: "questionId, lastTime",
      attempts: "attemptId, paperId, status",
      outbox: "++seq, &id, status, [status+seq]",
      lessonProgress: "lessonId, courseId",
      officialAttempts: "uuid",
      faceChecks: "checkId, uuid, takenAt",
      reviewLogs: "opId, questionId, at",
      reviewCards: "questionId, due",
      reviewSettings: "key",
      certificates: "serial, issuedAt",
    });
    const questions = [question(1, 1), { ...question(2, 1), type: "judge" as const }, question(2, 2)].map((q, i) => ({ ...q, bankId: q.classifyId, position: i }));
    await old.table("questions").bulkAdd(questions);
    await old.table("banks").bulkAdd([1, 2].map((id) => ({ id, classifyId: id, title: `Bank ${id}`, version: "1", questionCount: 2, downloadedAt: T0 })));
    const op = (id: string, type: string, status: string) => ({ id, type, at: T0, payload: { questionId: 1, answer: "A", bankId: 1 }, status, tries: 0 });
    await old.table("outbox").bulkAdd([op("a", "practice.answer", "pending"), op("b", "progress.set", "pending"), op("c", "practice.answer", "rejected")]);
    const wrongRows = [
      { questionId: 2, count: 1, lastTime: T0, removed: false, removedAt: 0 },
      { questionId: 3, count: 2, lastTime: T0 - 5, removed: true, removedAt: T0 },
      { questionId: 4, count: 0, lastTime: 0, removed: false, removedAt: T0 },
    ];
    await old.table("wrong").bulkPut(wrongRows);
    old.close();

    const db = openMemberDb(memberId);
    try {
      await db.open();
      expect(db.verno).toBe(8);
      expect(await db.questions.count()).toBe(3);
      expect(await db.questions.toArray()).toEqual(questions);
      expect(await db.outbox.toArray()).toMatchObject([{ id: "a" }, { id: "b" }, { id: "c" }]);
      // The wrong book's rows say whether they are in it; its index lists those that are.
      expect(await db.wrong.toArray()).toEqual([{ ...wrongRows[0], book: -T0 }, wrongRows[1], wrongRows[2]]);
      expect(await readQuestionBook(db, "wrong")).toEqual([{ questionId: 2, count: 1, at: T0, bankId: 1 }]);
      // Every bank keeps its fields and gains its directory: its question ids in bank order, their types.
      expect(await db.banks.toArray()).toEqual([
        { id: 1, classifyId: 1, title: "Bank 1", version: "1", questionCount: 2, downloadedAt: T0, questionIds: [1, 2], questionTypes: ["single", "judge"] },
        { id: 2, classifyId: 2, title: "Bank 2", version: "1", questionCount: 2, downloadedAt: T0, questionIds: [2], questionTypes: ["single"] },
      ]);
      // The new indexes hold the rows already there.
      expect(await db.questions.where("type").equals("judge").primaryKeys()).toEqual([[1, 2]]);
      expect(await questionKinds(db)).toEqual(new Map([[1, { bankId: 1, type: "single" }], [2, { bankId: 1, type: "judge" }]]));
      expect(await db.outbox.where("[status+type]").equals(["pending", "practice.answer"]).count()).toBe(1);
      expect(await pendingChangeCount(db)).toBe(1);
    } finally {
      db.close();
      await deleteMemberDb(memberId);
    }
  });
});
