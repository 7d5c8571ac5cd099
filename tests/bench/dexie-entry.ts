// Bundled by tests/bench/run.mjs into one script for a real Chromium page: the offline module's
// own write path (answerPractice: the answer row and its outbox op in one transaction).
import { openMemberDb } from "../../src/client/offline/db.ts";
import { answerPractice, saveBank } from "../../src/client/offline/repository/index.ts";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";

async function run(n: number): Promise<{ saveBankMs: number; latencies: number[]; outbox: number }> {
  const db = openMemberDb(987_654);
  await db.delete();
  await db.open();
  const questions: ExamQuestion[] = Array.from({ length: 1000 }, (_, i) => ({
    id: i + 1,
    type: "single",
    classifyId: 1,
    stem: `Question ${i + 1}: which option is right?`,
    options: ["A", "B", "C", "D"].map((key) => ({ key, text: `Option ${key} of question ${i + 1}` })),
    answer: "B",
    analysis: "Because B.",
    difficulty: 1,
    score: 2,
  }));
  const t0 = performance.now();
  await saveBank(db, { id: 1, classifyId: 1, title: "Bench", version: "1" }, questions);
  const saveBankMs = performance.now() - t0;
  const latencies: number[] = [];
  for (let i = 0; i < n; i++) {
    const q = questions[i % questions.length]!;
    const t = performance.now();
    await answerPractice(db, { question: q, bankId: 1, answer: i % 2 ? "B" : "C" });
    latencies.push(performance.now() - t);
  }
  const outbox = await db.outbox.count();
  await db.delete();
  return { saveBankMs, latencies, outbox };
}

(globalThis as unknown as { dexieBench: typeof run }).dexieBench = run;
