import type { FaceRule } from "./face.ts";
import type { ExamQuestion, GivenAnswer } from "./types.ts";

/**
 * `POST /api/exam/official/start`: the member's open attempt at an official exam room (a new one,
 * or the one already open) and its questions without answers or analysis. Times in seconds, on
 * the server's clock.
 */
export interface OfficialStart {
  attempt: {
    uuid: string;
    roomId: number;
    /** The exam room's name (absent in attempts a device stored before the server sent it). */
    roomTitle?: string;
    paperId: number;
    startedAt: number;
    deadline: number;
    serverTime: number;
    /** The answers the server holds, by question id. */
    answers: Record<string, GivenAnswer>;
  };
  questions: ExamQuestion[];
  /**
   * The room's face rule, or null / absent; `gate`: the questions wait (the list is
   * empty) until the server has passed a snapshot taken before the start.
   */
  face?: { rule: FaceRule; gate: boolean } | null;
}

/**
 * Seconds after an official deadline that a save or submission is still taken in (network lag);
 * later answers are kept for a marker or refused, by the room's late policy.
 */
export const SUBMIT_GRACE_SECONDS = 60;
