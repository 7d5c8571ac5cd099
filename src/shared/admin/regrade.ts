import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { dbId, withMessage } from "../schema.ts";

/**
 * Regrading a room, an explicit action: staff see the questions whose current row
 * differs from what the room's finished attempts sat (`GET /admin/exam/room/regradeCandidates`),
 * pick those whose current version should count, preview each attempt's old and new score
 * (`GET regradePreview`, nothing saved) and apply (`POST regrade`: the chosen questions in the
 * attempts' snapshots replaced by their current rows, the attempts graded again, one admin log row).
 */

/** Most questions one regrade names (a paper's questions; the engine reads each chosen row once). */
export const MAX_REGRADE_QUESTIONS = 500;

const roomId = withMessage(z.coerce.number().int().min(1).max(2_147_483_647), msg`Please choose a room`);
const pickMessage = msg`Choose from 1 to ${MAX_REGRADE_QUESTIONS} questions to regrade`;

/** `GET regradeCandidates?id=`. */
export const regradeCandidatesQuery = z.object({ id: roomId });

/** `GET regradePreview?id=&questionIds=1,2,3`: the question ids as one comma-separated list. */
export const regradePreviewQuery = z.object({
  id: roomId,
  questionIds: withMessage(
    z
      .string()
      .max(MAX_REGRADE_QUESTIONS * 11)
      .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/)
      .transform((s) => [...new Set(s.split(",").map(Number))])
      .refine((ids) => ids.length <= MAX_REGRADE_QUESTIONS && ids.every((n) => n <= 2_147_483_647)),
    pickMessage,
  ),
});

/** `POST regrade {id, questionIds}`. */
export const regradeBody = z.object({
  id: withMessage(dbId, msg`Please choose a room`),
  questionIds: withMessage(z.array(dbId).min(1).max(MAX_REGRADE_QUESTIONS), pickMessage),
});

/** What of a question differs between its current row and what attempts sat. */
export type RegradeChange = "type" | "stem" | "options" | "answer" | "analysis";

/** One candidate: a question some finished attempt of the room sat in a version other than its current row. */
export interface RegradeCandidate {
  questionId: number;
  /** The current row's stem and type. */
  stem: string;
  type: string;
  /** Finished attempts holding a version other than the current row. */
  attempts: number;
  changes: RegradeChange[];
  /** The points those attempts were given for it (kept by a regrade), lowest and highest. */
  points: { min: number; max: number };
  /** The question's own default points now (not used by a regrade: attempts keep the paper's points). */
  questionScore: number;
}

/** What `GET regradeCandidates` answers. */
export interface RegradeCandidates {
  room: { id: number; title: string };
  candidates: RegradeCandidate[];
  /** Attempts still in progress: they keep what they were given and are not regraded. */
  openAttempts: number;
}

/** One attempt a regrade changes. */
export interface RegradeAttempt {
  attemptId: number;
  username: string;
  nickname: string;
  oldScore: number;
  newScore: number;
  oldPassed: boolean;
  newPassed: boolean;
  /** The chosen questions whose version in this attempt changes. */
  questions: number[];
}

/** What `GET regradePreview` and `POST regrade` answer (the latter once saved). */
export interface RegradeOutcome {
  attempts: RegradeAttempt[];
  summary: { attempts: number; scoreChanged: number; nowPassed: number; nowFailed: number };
  /** When the regrade was saved (seconds), or null for a preview. */
  regradedAt: number | null;
}
