import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { dbId, dbInt, safeText, withMessage } from "../schema.ts";

/**
 * Back-office wire shapes of papers, their question rows and marking (rooms: rooms.ts):
 * the add/edit bodies the server checks and the client's forms validate with.
 */

/** Largest score of a paper, a row or a room's pass mark (numeric(8, 2)). */
export const MAX_SCORE = 100_000;
/** Longest exam (seconds): 24 hours. */
export const MAX_DURATION = 86_400;

export const status = withMessage(z.enum(["enable", "disable"]).optional().default("enable"), msg`Please choose a status`);
export const rowId = withMessage(dbId, msg`Please choose a row`);
/** A score with at most two decimals, 0 .. MAX_SCORE. */
export const score = (message: Parameters<typeof withMessage>[1]) =>
  withMessage(
    z
      .number()
      .min(0)
      .max(MAX_SCORE)
      .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6),
    message,
  );

export const paperAdd = z.object({
  title: withMessage(safeText(100).trim().min(1), msg`Please enter the paper's title (at most 100 characters)`),
  total_score: score(msg`Enter a total score from 0 to 100000, with at most 2 decimals`),
  pass_score: score(msg`Enter a pass score from 0 to 100000, with at most 2 decimals`),
  duration: withMessage(dbInt(60, MAX_DURATION), msg`Enter a duration from 1 minute to 24 hours`),
  shuffle_options: withMessage(z.boolean().optional().default(false), msg`Please choose yes or no`),
  partial_credit: withMessage(z.boolean().optional().default(false), msg`Please choose yes or no`),
  status,
});
export const paperEdit = paperAdd.extend({ id: rowId });
export type PaperAdd = z.infer<typeof paperAdd>;

export const QUESTION_TYPES = ["single", "multiple", "judge", "fill", "short"] as const;

/** A fixed question (`question_id`) or a draw rule (`count` questions of a type and, optionally, a difficulty 1..5 from a classify; null: any). */
const paperRowBase = z.object({
    paper_id: withMessage(dbId, msg`Please choose the paper`),
    kind: withMessage(z.enum(["fixed", "draw"]), msg`Please choose fixed question or draw rule`),
    question_id: withMessage(dbId.nullable().optional().default(null), msg`Please choose a question`),
    /** A fixed row's pinned version of its question; null: always its latest. */
    question_version: withMessage(dbId.nullable().optional().default(null), msg`Please choose a version of the question, or its latest`),
    classify_id: withMessage(dbId.nullable().optional().default(null), msg`Please choose a classify`),
    question_type: withMessage(z.enum(QUESTION_TYPES).nullable().optional().default(null), msg`Please choose a question type`),
    /** A draw rule's difficulty, 1..5; null (or absent): any difficulty. */
    difficulty: withMessage(dbInt(1, 5).nullable().optional().default(null), msg`Choose a difficulty from 1 to 5, or any`),
    count: withMessage(dbInt(1, 500).optional().default(1), msg`Enter a count from 1 to 500`),
    score: score(msg`Enter a score from 0 to 100000, with at most 2 decimals`),
    weigh: withMessage(dbInt(-1_000_000, 1_000_000).optional().default(0), msg`Enter a whole number`),
    remark: withMessage(safeText(100).optional().default(""), msg`The note is at most 100 characters`),
  });
function checkRow(row: z.infer<typeof paperRowBase>, ctx: z.RefinementCtx) {
  if (row.kind === "fixed" && row.question_id === null) ctx.addIssue({ code: "custom", path: ["question_id"], message: "required" });
  if (row.kind === "draw" && row.classify_id === null) ctx.addIssue({ code: "custom", path: ["classify_id"], message: "required" });
  if (row.kind === "draw" && row.question_type === null) ctx.addIssue({ code: "custom", path: ["question_type"], message: "required" });
}
export const paperRowAdd = paperRowBase.superRefine(checkRow);
export const paperRowEdit = paperRowBase.extend({ id: rowId }).superRefine(checkRow);
export type PaperRowAdd = z.infer<typeof paperRowAdd>;

/** `POST /admin/exam/marking/mark`: a marker's score and comment on one short answer. */
export const markBody = z.object({
  id: rowId,
  score: withMessage(z.number().min(0).max(MAX_SCORE), msg`Enter a score from 0 to the question's score`),
  comment: withMessage(safeText(2000).optional().default(""), msg`The comment is at most 2000 characters`),
});

/** `POST /admin/exam/lateAnswer/decide`: accept or reject a late official answer. */
export const decideBody = z.object({
  id: rowId,
  decision: withMessage(z.enum(["accepted", "rejected"]), msg`Please choose accept or reject`),
});
