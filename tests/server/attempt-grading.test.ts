import { describe, expect, it } from "vitest";
import type { QuestionRow } from "../../src/server/modules/exam/questions.ts";
import { gradeAttempt } from "../../src/server/modules/exam/attempts/grading.ts";
import type { PaperQuestion } from "../../src/server/modules/exam/attempts/papers.ts";

/** The pure scoring of an attempt (modules/exam/attempts/grading.ts), shared by mock and official attempts. */

const question = (id: number, type: QuestionRow["type"], answer: unknown, score: number): [number, PaperQuestion] => [
  id,
  { row: { id, classify_id: 1, type, stem: `q${id}`, options: [], answer: answer as QuestionRow["answer"], analysis: "", difficulty: 1, score: 99 }, score },
];

const paper = new Map<number, PaperQuestion>([
  question(1, "single", "A", 2),
  question(2, "judge", "T", 2),
  question(3, "multiple", ["A", "B", "C"], 3),
  question(4, "short", { keywords: ["school", "teacher"], reference: "" }, 4),
  question(5, "fill", ["0.1"], 0.1),
  question(6, "fill", ["0.1"], 0.1),
  question(7, "fill", ["0.1"], 0.1),
]);
const rules = { partialCredit: false, passScore: 4 };

describe("gradeAttempt", () => {
  it("grades the answered questions with the paper's scores (not the question's own) and ignores questions outside the paper", () => {
    const graded = gradeAttempt(paper, { "1": "A", "2": "F", "99": "A" }, rules);
    expect(graded.results).toEqual({ "1": { correct: true, score: 2 }, "2": { correct: false, score: 0 } });
    expect(graded).toMatchObject({ score: 2, passed: false, needsReview: false });
  });

  it("grades every listed question when told which (an unanswered or malformed one scores 0)", () => {
    const graded = gradeAttempt(paper, { "1": "A", "2": ["T"] }, rules, [1, 2, 3, 42]);
    expect(graded.results).toEqual({ "1": { correct: true, score: 2 }, "2": { correct: false, score: 0 }, "3": { correct: false, score: 0 } });
    expect(graded.score).toBe(2);
  });

  it("gives partial credit for a multiple-choice subset only when the paper allows it", () => {
    expect(gradeAttempt(paper, { "3": ["A", "B"] }, rules).score).toBe(0);
    expect(gradeAttempt(paper, { "3": ["A", "B"] }, { ...rules, partialCredit: true }).results["3"]).toEqual({ correct: false, score: 2 });
  });

  it("marks an attempt with a short answer as waiting for review", () => {
    const graded = gradeAttempt(paper, { "4": "my school" }, rules);
    expect(graded.results["4"]).toEqual({ correct: null, score: 2 });
    expect(graded.needsReview).toBe(true);
  });

  it("rounds the total to cents and passes at the pass mark exactly", () => {
    expect(gradeAttempt(paper, { "5": ["0.1"], "6": ["0.1"], "7": ["0.1"] }, rules).score).toBe(0.3);
    expect(gradeAttempt(paper, { "1": "A", "2": "T" }, rules)).toMatchObject({ score: 4, passed: true });
    expect(gradeAttempt(paper, { "1": "A", "2": "T" }, { ...rules, passScore: 4.01 })).toMatchObject({ score: 4, passed: false });
  });

  it("leaves its input as it was and answers the same every time", () => {
    const answers = { "1": "A", "3": ["C", "A"] };
    const copy = structuredClone(answers);
    const first = gradeAttempt(paper, answers, rules, [3, 1]);
    expect(gradeAttempt(paper, answers, rules, [3, 1])).toEqual(first);
    expect(answers).toEqual(copy);
    expect(paper.get(3)!.row.answer).toEqual(["A", "B", "C"]);
  });
});
