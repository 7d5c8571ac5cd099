import type { CorrectAnswer, QuestionType } from "./types.ts";
import { isQuestionType } from "./types.ts";

/**
 * Grading of one answer, the same code on the server (authoritative) and offline in the client
 * (immediate feedback). It never throws: malformed input scores 0.
 */

/** At most this many option keys in a multiple-choice answer. */
export const MAX_OPTIONS = 8;
/** At most this many blanks in a fill-in answer. */
export const MAX_BLANKS = 20;
/** At most this many characters in any one answer string. */
export const MAX_ANSWER_LENGTH = 10_000;

export interface GradeResult {
  /** null: cannot be decided automatically (short answers wait for an admin's review). */
  correct: boolean | null;
  score: number;
}

export interface GradeOptions {
  /** Multiple choice: a subset of the right options (and no wrong one) earns a share. */
  partialCredit?: boolean;
}

export interface GradableQuestion {
  type: QuestionType;
  answer: CorrectAnswer;
  score: number;
}

const WRONG: GradeResult = { correct: false, score: 0 };
const UNDECIDED: GradeResult = { correct: null, score: 0 };

/**
 * Text for comparison: NFKC (full-width letters, digits and spaces to half-width), whitespace
 * runs collapsed to one space, trimmed, lower-cased.
 */
export function normaliseText(text: string): string {
  return text.normalize("NFKC").replace(/\s+/gu, " ").trim().toLowerCase();
}

/** Two decimals, rounding half up (and immune to 1.005-style binary drift). */
function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_ANSWER_LENGTH;
}

/** A dense array (no holes) of at most `max` strings of at most MAX_ANSWER_LENGTH characters. */
function isTextList(value: unknown, max: number): value is string[] {
  if (!Array.isArray(value) || value.length > max) return false;
  for (let i = 0; i < value.length; i++) {
    if (!isText(value[i])) return false;
  }
  return true;
}

/**
 * Whether `given` is a well-formed answer for a question of `type` (GivenAnswer encoding):
 * single / judge / short -> a string; multiple -> at most 8 strings; fill -> at most 20 strings;
 * every string at most 10,000 characters. Blank answers are well-formed (they score 0).
 */
export function isAnswerShape(type: QuestionType, given: unknown): boolean {
  switch (type) {
    case "single":
    case "judge":
    case "short":
      return isText(given);
    case "multiple":
      return isTextList(given, MAX_OPTIONS);
    case "fill":
      return isTextList(given, MAX_BLANKS);
    default:
      return false;
  }
}

function optionKey(value: string): string {
  return value.trim().toUpperCase();
}

function keySet(values: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const value of values) {
    const key = optionKey(value);
    if (key !== "") keys.add(key);
  }
  return keys;
}

function gradeChoice(answer: unknown, given: string, full: number): GradeResult {
  if (!isString(answer)) return WRONG;
  const expected = optionKey(answer);
  return expected !== "" && optionKey(given) === expected ? { correct: true, score: full } : WRONG;
}

function gradeMultiple(answer: unknown, given: string[], full: number, partialCredit: boolean): GradeResult {
  if (!Array.isArray(answer) || !answer.every(isString)) return WRONG;
  const expected = keySet(answer);
  if (expected.size === 0) return WRONG;
  const chosen = keySet(given);
  let right = 0;
  for (const key of chosen) {
    if (!expected.has(key)) return WRONG; // any wrong option: nothing, with or without partial credit
    right++;
  }
  if (right === expected.size) return { correct: true, score: full };
  return { correct: false, score: partialCredit ? round2((full * right) / expected.size) : 0 };
}

/** Whether one blank's given text is one of its key's "|" alternatives (after `normaliseText`). */
function blankIsRight(blank: string, given: string | undefined): boolean {
  const text = normaliseText(given ?? "");
  return text !== "" && blank.split("|").some((alternative) => normaliseText(alternative) === text);
}

function gradeFill(answer: unknown, given: string[], full: number): GradeResult {
  if (!Array.isArray(answer) || answer.length === 0 || !answer.every(isString)) return WRONG;
  const right = answer.filter((blank, i) => blankIsRight(blank, given[i])).length;
  return { correct: right === answer.length, score: round2((full * right) / answer.length) };
}

/**
 * What to mark on a graded question, by the same rules as `gradeAnswer`: the right option keys
 * of a single, multiple or true/false question (upper-cased), or whether each blank of a fill-in
 * is right. null when there is nothing to mark: a short answer, or no usable answer key.
 */
export type AnswerMarks = { kind: "options"; right: ReadonlySet<string> } | { kind: "blanks"; right: readonly boolean[] };

export function answerMarks(q: Pick<GradableQuestion, "type"> & { answer?: CorrectAnswer }, given: unknown): AnswerMarks | null {
  const { type, answer } = q;
  if ((type === "single" || type === "judge") && isString(answer) && optionKey(answer) !== "") return { kind: "options", right: new Set([optionKey(answer)]) };
  if (type === "multiple" && Array.isArray(answer) && answer.every(isString) && answer.length > 0) return { kind: "options", right: keySet(answer) };
  if (type === "fill" && Array.isArray(answer) && answer.every(isString) && answer.length > 0) {
    const blanks = isTextList(given, MAX_BLANKS) ? given : [];
    return { kind: "blanks", right: answer.map((blank, i) => blankIsRight(blank, blanks[i])) };
  }
  return null;
}

function gradeShort(answer: unknown, given: string, full: number): GradeResult {
  if (typeof answer !== "object" || answer === null || !("keywords" in answer)) return UNDECIDED;
  const { keywords } = answer;
  if (!Array.isArray(keywords) || keywords.length === 0 || !keywords.every(isString)) return UNDECIDED;
  const text = normaliseText(given);
  let matched = 0;
  for (const keyword of keywords) {
    const needle = normaliseText(keyword);
    if (needle !== "" && text.includes(needle)) matched++;
  }
  return { correct: null, score: round2((full * matched) / keywords.length) };
}

/**
 * Grades `given` against `q.answer`:
 * - single / judge: exact match after trim and upper-case;
 * - multiple: same set of keys (order, case and duplicates ignored), all or nothing; with
 *   `partialCredit`, a subset with no wrong key earns score * chosen / total (2 decimals);
 * - fill: each blank matches any of its "|" alternatives after `normaliseText`;
 *   score * right blanks / blanks (2 decimals), correct when every blank is right;
 * - short: score * matched keywords / keywords (normalised containment, 2 decimals), and
 *   `correct` is null because an admin reviews it (also when the input is malformed).
 * Malformed input (wrong shape, over the length limits, a broken answer key) scores 0 and, except
 * for short answers, is not correct. A non-finite or negative `q.score` counts as 0.
 */
export function gradeAnswer(q: GradableQuestion, given: unknown, opts?: GradeOptions): GradeResult {
  try {
    const type: unknown = q?.type;
    if (!isQuestionType(type)) return WRONG;
    const full = typeof q.score === "number" && Number.isFinite(q.score) && q.score > 0 ? q.score : 0;
    if (!isAnswerShape(type, given)) return type === "short" ? UNDECIDED : WRONG;
    switch (type) {
      case "single":
      case "judge":
        return gradeChoice(q.answer, given as string, full);
      case "multiple":
        return gradeMultiple(q.answer, given as string[], full, opts?.partialCredit === true);
      case "fill":
        return gradeFill(q.answer, given as string[], full);
      case "short":
        return gradeShort(q.answer, given as string, full);
    }
  } catch {
    // A hostile object (throwing getters, proxies): treat as malformed.
    return WRONG;
  }
}
