import { afterEach, describe, expect, it } from "vitest";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import { deleteMemberDb, openMemberDb, type MemberDb } from "../../src/client/offline/db.ts";
import { answerPractice, questionsOfBanks, recordReview, saveBank, submitMockAttempt } from "../../src/client/offline/repository/index.ts";
import { drawQuestions, parsePaper } from "../../src/client/features/exam/papers.ts";

/**
 * Question versions on the device: a device that saved a bank before staff edited a
 * question keeps practising the version it has, says which version it answered (the server grades
 * by it), and takes the new version at its next bank download without losing its answers, its
 * wrong book or its review cards. A paper row pinning a version brings that version with the paper.
 */

const opened: MemberDb[] = [];
let nextMember = 7_000;
const freshDb = () => {
  const db = openMemberDb(++nextMember);
  opened.push(db);
  return db;
};
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await deleteMemberDb(db.memberId);
  }
});

const question = (id: number, version: number, answer: string, stem = `Q${id} v${version}`): ExamQuestion => ({
  id,
  type: "single",
  classifyId: 3,
  stem,
  options: [
    { key: "A", text: "a" },
    { key: "B", text: "b" },
  ],
  answer,
  analysis: "",
  score: 2,
  difficulty: 1,
  version,
});
const BANK = { id: 3, classifyId: 3, title: "Bank", version: "v1" };

describe("question versions on the device", () => {
  it("answers with the version it has, and keeps answers, wrong book and review cards when the new version arrives", async () => {
    const db = freshDb();
    await saveBank(db, BANK, [question(1, 1, "A"), question(2, 1, "A")]);
    // Offline: question 1 answered wrong (the wrong book counts it), then reviewed; question 2 right.
    await answerPractice(db, { bankId: BANK.id, question: question(1, 1, "A"), answer: "B" });
    await recordReview(db, { bankId: BANK.id, question: question(1, 1, "A"), answer: "B", correct: false });
    await answerPractice(db, { bankId: BANK.id, question: question(2, 1, "A"), answer: "A" });
    const ops = await db.outbox.orderBy("seq").toArray();
    const answers = ops.filter((o) => o.type === "practice.answer");
    expect(answers.map((o) => (o.payload as { version?: number }).version)).toEqual([1, 1, 1]);

    const before = { answers: await db.answers.toArray(), wrong: await db.wrong.toArray(), cards: await db.reviewCards.toArray() };
    expect(before.wrong.map((w) => w.questionId)).toEqual([1]);
    expect(before.cards.map((c) => c.questionId)).toEqual([1]);

    // Staff edited question 1 (version 2, key B): the next download replaces the bank's questions.
    await saveBank(db, { ...BANK, version: "v2" }, [question(1, 2, "B", "Q1 edited"), question(2, 1, "A")]);
    expect((await questionsOfBanks(db, [BANK.id])).map((q) => [q.id, q.version, q.stem])).toEqual([
      [1, 2, "Q1 edited"],
      [2, 1, "Q2 v1"],
    ]);
    expect(await db.answers.toArray()).toEqual(before.answers);
    expect(await db.wrong.toArray()).toEqual(before.wrong);
    expect(await db.reviewCards.toArray()).toEqual(before.cards);
    // The queued answers still name the version they were given.
    expect((await db.outbox.orderBy("seq").toArray()).filter((o) => o.type === "practice.answer").map((o) => (o.payload as { version?: number }).version)).toEqual([1, 1, 1]);
    // Answers from now on name the new version.
    await answerPractice(db, { bankId: BANK.id, question: question(1, 2, "B", "Q1 edited"), answer: "B" });
    const last = (await db.outbox.orderBy("seq").toArray()).filter((o) => o.type === "practice.answer").at(-1)!;
    expect(last.payload).toMatchObject({ questionId: 1, version: 2 });
  });

  it("sends the versions a mock attempt sat, and none for questions saved before versions", async () => {
    const db = freshDb();
    await submitMockAttempt(db, { paperId: 9, questions: [question(1, 3, "A"), { ...question(2, 1, "A"), version: undefined }], answers: { "1": "A", "2": "B" }, startedAt: Date.UTC(2024, 0, 1) });
    await submitMockAttempt(db, { paperId: 9, questions: [{ ...question(2, 1, "A"), version: undefined }], answers: { "2": "A" }, startedAt: Date.UTC(2024, 0, 1) });
    const [withVersions, without] = (await db.outbox.orderBy("seq").toArray()).map((o) => o.payload as { versions?: Record<string, number> });
    expect(withVersions!.versions).toEqual({ "1": 3 });
    expect(without).not.toHaveProperty("versions");
  });

  it("takes a pinned version from the paper rather than the bank's latest", () => {
    const pinned = question(1, 1, "A", "Pinned text");
    const detail = parsePaper({
      paper: { id: 5, title: "P", totalScore: 10, passScore: 6, duration: 600, partialCredit: false, shuffleOptions: false },
      rows: [
        { kind: "fixed", questionId: 1, version: 1, score: 6, question: pinned },
        { kind: "fixed", questionId: 2, version: null, score: 4 },
      ],
      banks: [3],
    });
    expect(detail).not.toBeNull();
    const drawn = drawQuestions(detail!.rows, new Map([[3, [question(1, 2, "B", "Latest text"), question(2, 4, "A")]]]), () => 0.5);
    expect(drawn.questions.map((q) => [q.id, q.stem, q.version, q.score])).toEqual([
      [1, "Pinned text", 1, 6],
      [2, "Q2 v4", 4, 4],
    ]);
    // A copy cached before versions (no `version`, no `question`) still parses and draws from the bank.
    const old = parsePaper({ ...detail, rows: [{ kind: "fixed", questionId: 1, score: 6 }] });
    expect(drawQuestions(old!.rows, new Map([[3, [question(1, 2, "B", "Latest text")]]]), () => 0.5).questions[0]!.stem).toBe("Latest text");
  });
});
