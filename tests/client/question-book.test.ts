import { describe, expect, it } from "vitest";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import { readBookQuestions, readQuestionBook, saveDownloadedBank } from "../../src/client/offline/questionBook.ts";
import { answerPractice, removeWrong, setFavourite } from "../../src/client/offline/repository/index.ts";
import { memberDbs } from "../helpers/memberDb.ts";

const freshDb = memberDbs(9_100);

const question = (id: number, answer?: string): ExamQuestion => ({
  id,
  type: "single",
  classifyId: 7,
  stem: `Stem ${id}`,
  options: [
    { key: "A", text: "a" },
    { key: "B", text: "b" },
  ],
  ...(answer ? { answer } : {}),
  score: 1,
  difficulty: 1,
});

describe("the favourites and wrong book as lists", () => {
  it("are empty lists on a device where nothing was saved (never 'still loading')", async () => {
    const db = freshDb();
    await expect(readQuestionBook(db, "favourites")).resolves.toEqual([]);
    await expect(readQuestionBook(db, "wrong")).resolves.toEqual([]);
  });

  it("carry the bank holding each question (null when none does), and a page's questions are read with their banks", async () => {
    const db = freshDb();
    await setFavourite(db, 1, true, { now: () => 1_000 });
    await setFavourite(db, 2, true, { now: () => 2_000 });
    await setFavourite(db, 3, true, { now: () => 3_000 });
    await setFavourite(db, 3, false, { now: () => 4_000 });
    let book = await readQuestionBook(db, "favourites");
    expect(book.map((e) => [e.questionId, e.bankId])).toEqual([
      [2, null],
      [1, null],
    ]);
    await saveDownloadedBank(db, { bank: { id: 9, title: "Algebra", version: "v1", questionCount: 1 }, questions: [question(1, "A")] });
    await saveDownloadedBank(db, { bank: { id: 7, title: "Maths", version: "v1", questionCount: 1 }, questions: [question(1, "A")] });
    book = await readQuestionBook(db, "favourites");
    // In two banks: the lowest bank id's copy.
    expect(book.map((e) => [e.questionId, e.bankId])).toEqual([
      [2, null],
      [1, 7],
    ]);
    const page = await readBookQuestions(db, book);
    expect([...page.keys()]).toEqual([1]);
    expect(page.get(1)).toMatchObject({ question: { stem: "Stem 1", answer: "A", bankId: 7 }, bank: { title: "Maths" } });
  });

  it("list wrong answers with their count, newest first, without removed ones", async () => {
    const db = freshDb();
    await saveDownloadedBank(db, { bank: { id: 7, title: "Maths", version: "v1", questionCount: 2 }, questions: [question(1, "A"), question(2, "A")] });
    await answerPractice(db, { bankId: 7, question: question(1, "A"), answer: "B" }, { now: () => 1_000 });
    await answerPractice(db, { bankId: 7, question: question(1, "A"), answer: "B" }, { now: () => 2_000 });
    await answerPractice(db, { bankId: 7, question: question(2, "A"), answer: "B" }, { now: () => 3_000 });
    let book = await readQuestionBook(db, "wrong");
    expect(book.map((e) => [e.questionId, e.count, e.at])).toEqual([
      [2, 1, 3_000],
      [1, 2, 2_000],
    ]);
    await removeWrong(db, 2, { now: () => 4_000 });
    book = await readQuestionBook(db, "wrong");
    expect(book.map((e) => e.questionId)).toEqual([1]);
  });
});
