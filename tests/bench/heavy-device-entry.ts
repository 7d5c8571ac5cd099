// Bundled by tests/bench/member-feel.mjs (as run.mjs bundles dexie-entry.ts) into one script for a
// page of the app's origin: fills a member's offline database as a heavy device holds it, through
// the offline module's own writes (saveBank, the sync engine's merges of pulled state, enqueue),
// queues ops and times a bank download's save on the page.
import { openMemberDb, type MemberDb } from "../../src/client/offline/db.ts";
import { readBookQuestions, readQuestionBook, saveDownloadedBank } from "../../src/client/offline/questionBook.ts";
import { deviceMastery, dueReviewCount, pendingChangeCount, pendingCount, readReviewList, readReviewQueue, saveBank } from "../../src/client/offline/repository/index.ts";
import { mergeReviewIntoDb } from "../../src/client/offline/repository/review.ts";
import { enqueue } from "../../src/client/offline/repository/shared.ts";
import { mergeIntoDb } from "../../src/client/offline/sync.ts";
import type { BankDownload } from "../../src/shared/exam/catalog.ts";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import type { ReviewState } from "../../src/shared/sync/wire.ts";

const DAY = 86_400_000;

function questionsOf(bankId: number, n: number, firstId: number): ExamQuestion[] {
  return Array.from({ length: n }, (_, i) => ({
    id: firstId + i,
    type: "single",
    classifyId: bankId,
    stem: `第 ${i + 1} 题：下列说法中哪一项是正确的？这是一段与真实题目长度相仿的题干文字。`,
    options: ["A", "B", "C", "D"].map((key) => ({ key, text: `选项 ${key}：第 ${i + 1} 题的一个说法` })),
    answer: "B",
    analysis: `解析：第 ${i + 1} 题选 B，因为 B 的说法符合题意。`,
    difficulty: 1,
    score: 2,
  }));
}

/** The heavy banks' ids: 1001..1000+banks; question ids bank*10,000 + position. */
export const HEAVY_BANK = 1001;

interface Seed {
  memberId: number;
  banks: number;
  perBank: number;
  /** Wrong-book entries and review cards, each. */
  marked: number;
  /** Questions the server knows (the demo bank's), marked first and answered by the queued ops. */
  real: number[];
  ops: number;
}

async function seed(s: Seed): Promise<{ ms: number; questions: number; wrong: number; cards: number; outbox: number }> {
  const t0 = performance.now();
  const db = openMemberDb(s.memberId);
  await db.open();
  const ids: number[] = [...s.real];
  for (let b = 0; b < s.banks; b++) {
    const bankId = HEAVY_BANK + b;
    const questions = questionsOf(bankId, s.perBank, bankId * 10_000);
    await saveBank(db, { id: bankId, classifyId: bankId, title: `题库 ${b + 1}`, version: "1", lang: "zh-cn" }, questions);
    for (const q of questions) if (ids.length < s.marked) ids.push(q.id);
  }
  const now = Date.now();
  // The wrong book and favourites as a pull from the server brings them (the outbox is empty yet).
  await mergeIntoDb(db, {
    favourites: ids.filter((_, i) => i % 20 === 0),
    wrong: ids.map((questionId, i) => ({ questionId, count: 1 + (i % 3), lastTime: now - (i % 60) * DAY })),
    progress: [],
  });
  // One review log per question, as the review pull brings them: cards replayed from them, due on
  // days spread over two months around today.
  const review: ReviewState = {
    logs: ids.map((questionId, i) => ({ opId: `seed-${questionId}`, questionId, at: now - (30 + (i % 30)) * DAY, correct: i % 4 !== 0, grade: null, retention: 0.9 })),
    retention: 0.9,
    retentionAt: 0,
  };
  await mergeReviewIntoDb(db, review, []);
  await queue(db, s.real, s.ops);
  const result = { ms: performance.now() - t0, questions: await db.questions.count(), wrong: await db.wrong.count(), cards: await db.reviewCards.count(), outbox: await pendingCount(db) };
  db.close();
  return result;
}

/** Queues `n` practice answers to `questions` (the server knows them) through the outbox's own enqueue. */
async function queue(db: MemberDb, questions: number[], n: number): Promise<void> {
  const at = Date.now();
  await db.transaction("rw", db.outbox, async () => {
    for (let i = 0; i < n; i++) {
      const questionId = questions[i % questions.length]!;
      await enqueue(db, { id: crypto.randomUUID(), type: "practice.answer", at: at + i, payload: { questionId, answer: "A", bankId: 2 } }, { correct: false });
    }
  });
}

/** Empties the member's outbox and queues `n` answers to `questions` (the replay's starting point). */
async function requeue(memberId: number, questions: number[], n: number): Promise<number> {
  const db = openMemberDb(memberId);
  await db.outbox.clear();
  await queue(db, questions, n);
  const count = await pendingCount(db);
  db.close();
  return count;
}

/** Resolves with the ms (page clock) when the member's outbox has no pending op left. */
async function outboxEmptyAt(memberId: number, timeoutMs: number): Promise<number | null> {
  const db = openMemberDb(memberId);
  const until = performance.now() + timeoutMs;
  try {
    while (performance.now() < until) {
      if ((await pendingCount(db)) === 0) return performance.now();
      await new Promise((r) => setTimeout(r, 5));
    }
    return null;
  } finally {
    db.close();
  }
}

/**
 * A bank of `n` questions as the server sends it (JSON text), parsed and saved as the app saves a
 * download (saveDownloadedBank), with the page's long tasks observed meanwhile.
 */
async function download(memberId: number, n: number): Promise<{ ms: number; parseMs: number; longestTask: number; longestSaveTask: number; longTasks: number; kib: number }> {
  const body: BankDownload = { bank: { id: 9_001, title: "大题库", version: "1", questionCount: n }, questions: questionsOf(9_001, n, 90_010_000) };
  const text = JSON.stringify({ code: 1, msg: "", data: body });
  const tasks: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ type: "longtask" });
  const db = openMemberDb(memberId);
  await db.open();
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  const parsed = (JSON.parse(text) as { data: BankDownload }).data;
  const parsedAt = performance.now();
  await saveDownloadedBank(db, parsed, "zh-cn");
  const ms = performance.now() - t0;
  // The last long task is reported after it ends.
  await new Promise((r) => setTimeout(r, 100));
  observer.disconnect();
  await db.banks.delete(9_001);
  await db.questions.where("bankId").equals(9_001).delete();
  db.close();
  // The parse's own task (JSON.parse, as axios parses a response) apart from the save's.
  const saving = tasks.filter((task) => task.start >= parsedAt - 1);
  return {
    ms,
    parseMs: parsedAt - t0,
    longestTask: Math.max(0, ...tasks.map((task) => task.duration)),
    longestSaveTask: Math.max(0, ...saving.map((task) => task.duration)),
    longTasks: tasks.length,
    kib: text.length / 1024,
  };
}

/**
 * ms of each read the heavy pages make of the device (outside a live query, in a fresh
 * connection): where a page's time goes, apart from drawing it.
 */
async function reads(memberId: number, bankId: number): Promise<Record<string, number>> {
  const db = openMemberDb(memberId);
  await db.open();
  const now = Date.now();
  const timed: [string, () => Promise<unknown>][] = [
    ["header: due reviews", () => dueReviewCount(db, now)],
    ["header: changes waiting", () => pendingChangeCount(db)],
    ["wrong book (list)", () => readQuestionBook(db, "wrong")],
    ["wrong book (a page)", async () => readBookQuestions(db, (await readQuestionBook(db, "wrong")).slice(0, 20))],
    [`review list of bank ${bankId}`, () => readReviewList(db, now, bankId)],
    ["review list, every bank", () => readReviewList(db, now)],
    [`review queue of bank ${bankId} (a review starts)`, () => readReviewQueue(db, now, bankId)],
    ["review queue, every bank (a review starts)", () => readReviewQueue(db, now)],
    [`mastery on the device, bank ${bankId}`, () => deviceMastery(db, now, bankId)],
    ["mastery on the device, every bank", () => deviceMastery(db, now)],
  ];
  const out: Record<string, number> = {};
  try {
    for (const [name, read] of timed) {
      const t0 = performance.now();
      await read();
      out[name] = Math.round(performance.now() - t0);
    }
    return out;
  } finally {
    db.close();
  }
}

(globalThis as unknown as { heavyDevice: unknown }).heavyDevice = { seed, requeue, outboxEmptyAt, download, reads, HEAVY_BANK };
