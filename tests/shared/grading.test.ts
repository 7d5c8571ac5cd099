import { describe, expect, it } from "vitest";
import {
  answerMarks,
  MAX_ANSWER_LENGTH,
  MAX_BLANKS,
  MAX_OPTIONS,
  gradeAnswer,
  isAnswerShape,
  normaliseText,
} from "../../src/shared/exam/grading.ts";
import type { GradableQuestion, GradeResult } from "../../src/shared/exam/grading.ts";
import type { CorrectAnswer, QuestionType } from "../../src/shared/exam/types.ts";

const q = (type: QuestionType, answer: CorrectAnswer, score = 10): GradableQuestion => ({ type, answer, score });
const RIGHT = (score = 10): GradeResult => ({ correct: true, score });
const WRONG: GradeResult = { correct: false, score: 0 };

describe("normaliseText", () => {
  it.each([
    ["  Hello   World ", "hello world"],
    ["１９４９", "1949"], // full-width digits
    ["ＡＢＣ", "abc"], // full-width letters, then lower case
    ["a\u3000\t\n b", "a b"], // ideographic space, tabs and new lines collapse
    ["一九四九", "一九四九"],
    ["", ""],
  ])("normaliseText(%j) = %j", (input, expected) => {
    expect(normaliseText(input)).toBe(expected);
  });
});

describe("gradeAnswer: single and judge", () => {
  it.each<[QuestionType, CorrectAnswer, unknown, GradeResult]>([
    ["single", "B", "B", RIGHT()],
    ["single", "B", " b ", RIGHT()],
    ["single", "B", "A", WRONG],
    ["single", "B", "", WRONG],
    ["single", "B", ["B"], WRONG],
    ["single", "B", 2, WRONG],
    ["single", "B", null, WRONG],
    ["single", "B", undefined, WRONG],
    ["single", "", "", WRONG], // broken key never matches
    ["judge", "T", "T", RIGHT()],
    ["judge", "T", "t", RIGHT()],
    ["judge", "F", "T", WRONG],
    ["judge", "F", true, WRONG],
    ["judge", "F", { value: "F" }, WRONG],
  ])("%s key %j, given %j -> %j", (type, answer, given, expected) => {
    expect(gradeAnswer(q(type, answer), given)).toEqual(expected);
  });
});

describe("gradeAnswer: multiple", () => {
  const key = ["A", "C"];
  it.each<[unknown, GradeResult, GradeResult]>([
    // given, all-or-nothing, partial credit
    [["A", "C"], RIGHT(), RIGHT()],
    [["C", "A"], RIGHT(), RIGHT()],
    [["c", "a", "A"], RIGHT(), RIGHT()], // case and duplicates ignored
    [["A"], WRONG, { correct: false, score: 5 }],
    [["A", "B"], WRONG, WRONG], // a wrong option: nothing
    [["A", "B", "C"], WRONG, WRONG],
    [[], WRONG, WRONG],
    ["AC", WRONG, WRONG],
    [["A", 3], WRONG, WRONG],
    [null, WRONG, WRONG],
  ])("given %j -> %j / partial %j", (given, plain, partial) => {
    expect(gradeAnswer(q("multiple", key), given)).toEqual(plain);
    expect(gradeAnswer(q("multiple", key), given, { partialCredit: true })).toEqual(partial);
  });

  it("rounds partial credit to 2 decimals", () => {
    const three = q("multiple", ["A", "B", "C"], 10);
    expect(gradeAnswer(three, ["A"], { partialCredit: true })).toEqual({ correct: false, score: 3.33 });
    expect(gradeAnswer(three, ["A", "B"], { partialCredit: true })).toEqual({ correct: false, score: 6.67 });
  });

  it("rejects more than 8 options even with duplicates", () => {
    expect(gradeAnswer(q("multiple", key), Array.from({ length: MAX_OPTIONS + 1 }, () => "A"))).toEqual(WRONG);
  });

  it("scores 0 on a broken key", () => {
    expect(gradeAnswer(q("multiple", []), [])).toEqual(WRONG);
    expect(gradeAnswer(q("multiple", "A"), ["A"])).toEqual(WRONG);
  });
});

describe("gradeAnswer: fill", () => {
  it.each<[CorrectAnswer, unknown, GradeResult]>([
    [["1949|一九四九"], ["1949"], RIGHT()],
    [["1949|一九四九"], ["一九四九"], RIGHT()],
    [["1949|一九四九"], ["１９４９"], RIGHT()], // full-width digits
    [["1949|一九四九"], [" 1949 "], RIGHT()],
    [["Beijing"], ["BEIJING"], RIGHT()], // case-insensitive
    [["New  York"], ["new york"], RIGHT()], // inner whitespace collapsed on both sides
    [["ＡＢＣ"], ["abc"], RIGHT()],
    [["a", "b"], ["a", "x"], { correct: false, score: 5 }],
    [["a", "b"], ["a"], { correct: false, score: 5 }], // a missing blank is wrong
    [["a", "b"], ["a", "b", "extra"], RIGHT()], // extra entries ignored
    [["a", "b", "c"], ["a", "", ""], { correct: false, score: 3.33 }],
    [["a|"], [""], WRONG], // an empty alternative never matches
    [["a"], "a", WRONG], // a string, not a list
    [["a"], [1], WRONG],
    [[], [], WRONG], // broken key
  ])("key %j, given %j -> %j", (answer, given, expected) => {
    expect(gradeAnswer(q("fill", answer), given)).toEqual(expected);
  });

  it("accepts up to 20 blanks", () => {
    const answer = Array.from({ length: MAX_BLANKS }, (_, i) => String(i));
    expect(gradeAnswer(q("fill", answer), answer)).toEqual(RIGHT());
    expect(gradeAnswer(q("fill", answer), [...answer, "x"])).toEqual(WRONG);
  });
});

describe("gradeAnswer: short", () => {
  const key = { keywords: ["photosynthesis", "chlorophyll", "ＣＯ２"], reference: "..." };
  it.each<[unknown, GradeResult]>([
    ["Photosynthesis uses chlorophyll and co2.", { correct: null, score: 10 }],
    ["PHOTOSYNTHESIS", { correct: null, score: 3.33 }],
    ["photosynthesis, chlorophyll", { correct: null, score: 6.67 }],
    ["nothing relevant", { correct: null, score: 0 }],
    ["", { correct: null, score: 0 }],
    [["photosynthesis"], { correct: null, score: 0 }], // malformed: still for review
    [42, { correct: null, score: 0 }],
  ])("given %j -> %j", (given, expected) => {
    expect(gradeAnswer(q("short", key), given)).toEqual(expected);
  });

  it("scores 0 with no keywords", () => {
    expect(gradeAnswer(q("short", { keywords: [], reference: "x" }), "anything")).toEqual({ correct: null, score: 0 });
  });

  it("is never correct or wrong automatically", () => {
    expect(gradeAnswer(q("short", { keywords: ["a"], reference: "" }), "a").correct).toBeNull();
  });
});

describe("gradeAnswer: malformed questions", () => {
  it.each<[string, unknown]>([
    ["unknown type", { type: "essay", answer: "A", score: 10 }],
    ["null question", null],
    ["NaN score", { type: "single", answer: "A", score: Number.NaN }],
    ["negative score", { type: "single", answer: "A", score: -5 }],
  ])("%s scores 0 and does not throw", (_, question) => {
    const result = gradeAnswer(question as GradableQuestion, "A");
    expect(result.score).toBe(0);
  });

  it("survives a throwing getter", () => {
    const hostile = {
      type: "single",
      score: 10,
      get answer(): string {
        throw new Error("boom");
      },
    } as GradableQuestion;
    expect(gradeAnswer(hostile, "A")).toEqual(WRONG);
  });

  it("uses the question's score", () => {
    expect(gradeAnswer(q("single", "A", 2.5), "A")).toEqual(RIGHT(2.5));
    expect(gradeAnswer(q("single", "A", 0), "A")).toEqual(RIGHT(0));
  });
});

describe("isAnswerShape", () => {
  const long = "x".repeat(MAX_ANSWER_LENGTH + 1);
  const sparse: string[] = [];
  sparse[1] = "A";
  it.each<[QuestionType, unknown, boolean]>([
    ["single", "A", true],
    ["single", "", true],
    ["single", ["A"], false],
    ["single", long, false],
    ["judge", "T", true],
    ["judge", true, false],
    ["multiple", ["A", "B"], true],
    ["multiple", [], true],
    ["multiple", Array.from({ length: MAX_OPTIONS }, () => "A"), true],
    ["multiple", Array.from({ length: MAX_OPTIONS + 1 }, () => "A"), false],
    ["multiple", "A", false],
    ["multiple", sparse, false],
    ["fill", Array.from({ length: MAX_BLANKS }, () => "x"), true],
    ["fill", Array.from({ length: MAX_BLANKS + 1 }, () => "x"), false],
    ["fill", [long], false],
    ["fill", [null], false],
    ["short", "x".repeat(MAX_ANSWER_LENGTH), true],
    ["short", long, false],
    ["short", undefined, false],
    ["essay" as QuestionType, "A", false],
  ])("%s #%# -> %j", (type, given, expected) => {
    expect(isAnswerShape(type, given)).toBe(expected);
  });
});

describe("answerMarks", () => {
  it("names the right options by the grader's keys, and each blank right or wrong by its alternatives", () => {
    expect(answerMarks({ type: "single", answer: " b " }, "A")).toEqual({ kind: "options", right: new Set(["B"]) });
    expect(answerMarks({ type: "judge", answer: "T" }, "F")).toEqual({ kind: "options", right: new Set(["T"]) });
    expect(answerMarks({ type: "multiple", answer: ["c", "A", "A"] }, ["A"])).toEqual({ kind: "options", right: new Set(["C", "A"]) });
    expect(answerMarks({ type: "fill", answer: ["one|1", "Two"] }, [" ONE ", "three"])).toEqual({ kind: "blanks", right: [true, false] });
    expect(answerMarks({ type: "fill", answer: ["one", "two"] }, ["one"])).toEqual({ kind: "blanks", right: [true, false] });
    // The same verdict as the grade: every blank right is a correct answer.
    expect(gradeAnswer({ type: "fill", answer: ["one|1", "two"], score: 2 }, ["1", "two"]).correct).toBe(true);
    expect(answerMarks({ type: "fill", answer: ["one|1", "two"] }, ["1", "two"])).toEqual({ kind: "blanks", right: [true, true] });
  });

  it("marks nothing without a usable key or for a short answer", () => {
    expect(answerMarks({ type: "single" }, "A")).toBeNull();
    expect(answerMarks({ type: "single", answer: "  " }, "A")).toBeNull();
    expect(answerMarks({ type: "multiple", answer: [] }, ["A"])).toBeNull();
    expect(answerMarks({ type: "short", answer: { reference: "x", keywords: ["x"] } }, "x")).toBeNull();
    // A malformed given answer marks every blank wrong, as the grader scores it.
    expect(answerMarks({ type: "fill", answer: ["one"] }, "one")).toEqual({ kind: "blanks", right: [false] });
  });
});
