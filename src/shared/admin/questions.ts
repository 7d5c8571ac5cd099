import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { MAX_BLANKS, MAX_OPTIONS } from "../exam/grading.ts";
import { textParts } from "../exam/questionText.ts";
import { QUESTION_TYPES, type CorrectAnswer, type QuestionOption, type QuestionType } from "../exam/types.ts";
import { dbId, safeText, withMessage } from "../schema.ts";
import { categoryTree } from "./categoryTree.ts";
import { assignment } from "./org.ts";

/**
 * The exam area of the back office (`exam/...`): question banks (classify), question types and
 * questions. Shared by the server's resources and import, and the client's forms. A question is
 * stored exactly as the grader (shared/exam/grading.ts) reads it:
 * - single: options A..H, answer "B"; multiple: options, answer ["A", "C"] (sorted);
 * - judge: no options, answer "T" or "F";
 * - fill: no options, answer one string per blank, alternatives separated by "|";
 * - short: no options, answer {keywords, reference}.
 * `checkQuestion` refuses an inconsistent question (a shape the schema allows, but the grader
 * could not grade) with the field to blame and a message.
 */

/** Option keys in order: an option's key is its position. */
export const OPTION_KEYS = ["A", "B", "C", "D", "E", "F", "G", "H"] as const;
export const MAX_STEM = 5_000;
export const MAX_OPTION_TEXT = 1_000;
export const MAX_ANALYSIS = 5_000;
export const MAX_BLANK_TEXT = 500;
export const MAX_KEYWORDS = 20;
export const MAX_KEYWORD = 100;
export const MAX_REFERENCE = 5_000;
export const MAX_SCORE = 1_000;

const status = withMessage(z.enum(["enable", "disable"]).optional().default("enable"), msg`Please choose a status`);
const weigh = withMessage(z.number().int().min(-1_000_000).max(1_000_000).optional().default(0), msg`The weight must be a whole number`);
const pid = withMessage(z.preprocess((v) => (v === null ? 0 : v), z.number().int().min(0).max(2_147_483_647).optional().default(0)), msg`Please choose the parent`);

/** Who sees a bank's questions: members practise them, or only exam papers draw from them (answers stay on the server). */
export const BANK_KINDS = ["practice", "exam"] as const;

/** Question banks (exam/classify): a tree; a node's questions are practised or used by exam papers. */
export const questionBankTree = categoryTree({
  rule: "exam/classify",
  table: "exam_classify",
  title: msg`Question banks`,
  labels: { title: msg`Title`, title_en: msg`English title`, parent: msg`Parent bank`, quickSearch: msg`ID, title` },
  choice: { field: "kind", values: BANK_KINDS, label: msg`Kind`, initial: "practice" },
});

/** A question bank (exam_classify): a tree node; its questions are the bank members practise. */
export const examClassifyAdd = z.object({
  pid,
  title: withMessage(safeText(100).trim().min(1), msg`Please enter the title (at most 100 characters)`),
  title_en: withMessage(safeText(100).trim().optional().default(""), msg`The English title is at most 100 characters`),
  // Left out: a new bank is the table's default (practice), an edited one keeps its kind.
  kind: withMessage(z.enum(BANK_KINDS).optional(), msg`Please choose one of the choices`),
  weigh,
  status,
  ...assignment,
});
export const examClassifyEdit = examClassifyAdd.extend({ id: withMessage(dbId, msg`Please choose a row`) });

/** A question type's names and default score (the five kinds are fixed: edit only). */
export const questionTypeEdit = z.object({
  id: withMessage(dbId, msg`Please choose a row`),
  title: withMessage(safeText(50).trim().min(1), msg`Please enter the title (at most 50 characters)`),
  title_en: withMessage(safeText(50).trim().optional().default(""), msg`The English title is at most 50 characters`),
  default_score: withMessage(z.coerce.number().min(0).max(MAX_SCORE).multipleOf(0.01), msg`Enter a score from 0 to 1000, with at most 2 decimals`),
});

const option = z.object({ key: z.enum(OPTION_KEYS), text: safeText(MAX_OPTION_TEXT) });
/** Any answer shape; `checkQuestion` matches it to the question's type. */
const answer = z.union([
  safeText(MAX_BLANK_TEXT),
  z.array(safeText(MAX_BLANK_TEXT)).max(Math.max(MAX_OPTIONS, MAX_BLANKS)),
  z.object({ keywords: z.array(safeText(MAX_KEYWORD)).max(MAX_KEYWORDS), reference: safeText(MAX_REFERENCE).optional().default("") }),
]);

export const questionAdd = z.object({
  classify_id: withMessage(dbId, msg`Please choose a question bank`),
  type: withMessage(z.enum(QUESTION_TYPES), msg`Please choose the question type`),
  stem: withMessage(safeText(MAX_STEM).trim().min(1), msg`Please enter the question (at most 5000 characters)`),
  options: withMessage(z.array(option).max(MAX_OPTIONS).optional().default([]), msg`At most 8 options, each at most 1000 characters`),
  answer: withMessage(answer, msg`Please set the correct answer`),
  analysis: withMessage(safeText(MAX_ANALYSIS).optional().default(""), msg`The analysis is at most 5000 characters`),
  difficulty: withMessage(z.number().int().min(1).max(5).optional().default(1), msg`The difficulty is 1 to 5`),
  score: withMessage(z.coerce.number().min(0).max(MAX_SCORE).multipleOf(0.01), msg`Enter a score from 0 to 1000, with at most 2 decimals`),
  weigh,
  status,
});
export const questionEdit = questionAdd.extend({ id: withMessage(dbId, msg`Please choose a row`) });
export type QuestionAdd = z.infer<typeof questionAdd>;

export interface QuestionProblem {
  field: "stem" | "options" | "answer";
  message: MessageDescriptor;
}

export interface QuestionContent {
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  answer: unknown;
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

/** Splits a fill-in blank into its accepted alternatives ("1949|一九四九"). */
export const alternativesOf = (blank: string): string[] => blank.split("|").map((s) => s.trim());

/** A blank in a fill-in stem: a run of two or more underscores ("____"), as the member's screen draws one. */
const BLANK = /_{2,}/g;

/** How many blanks a fill-in stem marks (runs of "__" or more in its text; image addresses do not count). */
export function stemBlankCount(stem: string): number {
  return textParts(stem).reduce((n, p) => n + (p.kind === "text" ? (p.text.match(BLANK) ?? []).length : 0), 0);
}

/**
 * Whether a question is one the grader can grade as staff meant it; the first problem found.
 * Choice options must be keyed A, B, C... in order, with text.
 */
export function checkQuestion(q: QuestionContent): QuestionProblem | null {
  const { type, options, answer } = q;
  if (type === "single" || type === "multiple") {
    if (options.length < 2) return { field: "options", message: msg`A choice question needs at least 2 options` };
    for (const [i, o] of options.entries()) {
      if (o.key !== OPTION_KEYS[i]) return { field: "options", message: msg`The options must be keyed A, B, C... in order` };
      if (o.text.trim() === "") {
        const key = o.key;
        return { field: "options", message: msg`Option ${key} is empty` };
      }
    }
    const keys = new Set(options.map((o) => o.key));
    if (type === "single") {
      if (typeof answer !== "string" || answer === "") return { field: "answer", message: msg`Choose the correct option` };
      if (!keys.has(answer)) return { field: "answer", message: msg`The answer ${answer} is not among the options` };
      return null;
    }
    if (!isStringList(answer) || answer.length === 0) return { field: "answer", message: msg`Choose the correct options` };
    for (const key of answer) if (!keys.has(key)) return { field: "answer", message: msg`The answer ${key} is not among the options` };
    if (new Set(answer).size !== answer.length) return { field: "answer", message: msg`An option is chosen twice` };
    return null;
  }
  if (options.length > 0) return { field: "options", message: msg`This kind of question has no options` };
  if (type === "judge") return answer === "T" || answer === "F" ? null : { field: "answer", message: msg`The answer must be true (T) or false (F)` };
  if (type === "fill") {
    if (!isStringList(answer) || answer.length === 0) return { field: "answer", message: msg`A fill-in question needs at least one blank` };
    if (answer.length > MAX_BLANKS) return { field: "answer", message: msg`At most 20 blanks` };
    for (const [i, blank] of answer.entries()) {
      const n = i + 1;
      if (blank.includes("\n")) return { field: "answer", message: msg`Blank ${n} must be on one line` };
      if (alternativesOf(blank).some((a) => a === "")) return { field: "answer", message: msg`Blank ${n} has an empty accepted answer` };
    }
    // The member gets one input per blank of the text: a key with more or fewer blanks could never be answered right.
    const inStem = stemBlankCount(q.stem);
    const inAnswer = answer.length;
    if (inStem !== inAnswer) return { field: "answer", message: msg`The question text has ${inStem} blanks (____) but the answer has ${inAnswer}: they must match` };
    return null;
  }
  // short
  if (typeof answer !== "object" || answer === null || Array.isArray(answer) || !isStringList((answer as { keywords?: unknown }).keywords)) {
    return { field: "answer", message: msg`Enter the keywords of the short answer` };
  }
  const { keywords } = answer as { keywords: string[] };
  if (keywords.length === 0) return { field: "answer", message: msg`Enter at least one keyword` };
  if (keywords.some((k) => k.trim() === "" || k.includes("\n"))) return { field: "answer", message: msg`A keyword is empty or spans lines` };
  return null;
}

/** The answer in the grader's canonical form (trimmed alternatives, sorted keys, trimmed keywords). */
export function canonicalAnswer(type: QuestionType, answer: unknown): CorrectAnswer {
  if (type === "multiple" && isStringList(answer)) return [...answer].sort();
  if (type === "fill" && isStringList(answer)) return answer.map((b) => alternativesOf(b).join("|"));
  if (type === "short" && answer && typeof answer === "object" && !Array.isArray(answer)) {
    const a = answer as { keywords?: unknown; reference?: unknown };
    return { keywords: isStringList(a.keywords) ? a.keywords.map((k) => k.trim()) : [], reference: typeof a.reference === "string" ? a.reference : "" };
  }
  return answer as CorrectAnswer;
}

/** One version of a question (`GET /admin/exam/question/versions?id=`, newest first), as the history on its form shows it. */
export interface QuestionVersion {
  version: number;
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  answer: CorrectAnswer;
  analysis: string;
  difficulty: number;
  score: number;
  createTime: number;
  /** Who made it (null: before versions were kept, or not in the back office). */
  admin: string | null;
  /** Paper rows that pin this version. */
  pinnedRows: number;
  latest: boolean;
}
