/**
 * The exam domain's data shapes, shared by the server (grading, storage) and the client (offline
 * practice, outbox). Pure TypeScript: no runtime dependencies.
 */

export const QUESTION_TYPES = ["single", "multiple", "judge", "fill", "short"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** One choice of a single- or multiple-choice question; `key` is "A".."H". */
export interface QuestionOption {
  key: string;
  text: string;
}

/** The short-answer key: graded by keyword containment, `reference` is shown to reviewers. */
export interface ShortAnswerKey {
  keywords: string[];
  reference: string;
}

/**
 * How the correct answer is stored, by question type:
 * - single: the option key, e.g. "B";
 * - multiple: the option keys, sorted, e.g. ["A", "C"];
 * - judge: "T" or "F";
 * - fill: one entry per blank; an entry may list alternatives separated by "|",
 *   e.g. "1949|一九四九";
 * - short: keywords and a reference answer.
 */
export interface CorrectAnswerByType {
  single: string;
  multiple: string[];
  judge: "T" | "F";
  fill: string[];
  short: ShortAnswerKey;
}
export type CorrectAnswer = CorrectAnswerByType[QuestionType];

/**
 * How a member's answer travels, by question type: single / judge / short -> string,
 * multiple -> option keys, fill -> one string per blank.
 */
export interface GivenAnswerByType {
  single: string;
  multiple: string[];
  judge: string;
  fill: string[];
  short: string;
}
export type GivenAnswer = GivenAnswerByType[QuestionType];

export type Difficulty = 1 | 2 | 3 | 4 | 5;

export interface ExamQuestion {
  id: number;
  type: QuestionType;
  classifyId: number;
  stem: string;
  options: QuestionOption[];
  /** Left out where the member must not see it yet (e.g. during a mock exam). */
  answer?: CorrectAnswer;
  analysis?: string;
  score: number;
  difficulty: Difficulty;
  /** The question's version this copy is: a device's answer names it, and is graded by it. Absent in copies saved before versions. */
  version?: number;
}

export function isQuestionType(value: unknown): value is QuestionType {
  return typeof value === "string" && (QUESTION_TYPES as readonly string[]).includes(value);
}
