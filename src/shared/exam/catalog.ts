import type { ExamQuestion, GivenAnswer } from "./types.ts";

/** A node of the exam classify tree; a node with questions is a practice bank. */
export interface ClassifyNode {
  id: number;
  pid: number;
  title: string;
  questionCount: number;
  /** Changes whenever the bank's questions change (the download's ETag follows it). */
  version: string;
  children: ClassifyNode[];
}

/** `GET /api/exam/catalog`. */
export interface Catalog {
  classify: ClassifyNode[];
  /** `banks`: the banks the paper's questions come from (fixed questions' and draw rules'). */
  papers: { id: number; title: string; totalScore: number; passScore: number; duration: number; banks: number[] }[];
  /**
   * `attemptsLeft`: the member's attempts not yet used (an open attempt counts as used);
   * `questionCount` / `totalScore`: the room's paper; `passScore`: the room's pass mark;
   * `faceCheck`: the room checks the member's face (an enabled face rule).
   */
  rooms: {
    id: number;
    title: string;
    paperId: number;
    startTime: number;
    endTime: number;
    /** Seconds a start gives this member: the room's time plus their extra time. */
    duration: number;
    /** Extra minutes the member's overrides give (included in `duration`). */
    extraMinutes: number;
    /** Attempts this member may make: the room's plus their extra attempts. */
    attemptsAllowed: number;
    /** Extra attempts the member's overrides give (included in `attemptsAllowed`). */
    extraAttempts: number;
    attemptsLeft: number;
    questionCount: number;
    totalScore: number;
    passScore: number;
    faceCheck: boolean;
  }[];
}

/** `GET /api/exam/bank?id=`. */
export interface BankDownload {
  bank: { id: number; title: string; version: string; questionCount: number };
  questions: ExamQuestion[];
}

/** One row of `GET /api/exam/records`. Times are Unix seconds; open attempts have no score yet. */
export interface ExamRecordRow {
  id: number;
  uuid: string;
  kind: "mock" | "official";
  paperId: number;
  paperTitle: string;
  /**
   * The exam room of an official attempt (null for a mock attempt, or when the room was deleted):
   * screens name official attempts by it, not by the paper (see `attemptTitle`).
   */
  roomTitle: string | null;
  score: number | null;
  /** The paper's total as the attempt was sat. */
  totalScore: number;
  passed: boolean | null;
  startedAt: number;
  submittedAt: number | null;
  status: "open" | "submitted" | "expired";
  /**
   * Official answers that reached the server after the deadline and wait for a marker's decision
   * (they are not in the score until accepted).
   */
  pendingReview: number;
  /** When staff last regraded the attempt (Unix seconds: its score counts questions as corrected since), or null. */
  regradedAt?: number | null;
}

/** The name of an attempt on screen: its room for an official attempt, else its paper. */
export function attemptTitle(attempt: Pick<ExamRecordRow, "kind" | "paperTitle" | "roomTitle">): string {
  return (attempt.kind === "official" && attempt.roomTitle) || attempt.paperTitle;
}

/**
 * `GET /api/exam/record?uuid=`: answers, analysis and results only when the review is allowed
 * (after submission; never for a question an official exam that has not ended keeps to itself,
 * except in that exam's own records as its room allows).
 */
export interface ExamRecordDetail {
  /** `passScore`: the room's pass mark for an official attempt (the one it passes by), else the paper's. */
  attempt: Omit<ExamRecordRow, "id"> & {
    deadline: number | null;
    totalScore: number;
    passScore: number;
    /**
     * An official attempt whose room shows the answers once it has closed, while it is still open:
     * when it closes for everyone (Unix seconds). Null otherwise (shown already, or never).
     */
    answersShownAt?: number | null;
  };
  questions: ExamQuestion[];
  answers: Record<string, GivenAnswer>;
  results: Record<string, { correct: boolean | null; score: number }>;
  /** Short answers a marker reviews, by question id: the score and comment given (score null while waiting). */
  reviews?: Record<string, { score: number | null; comment: string }>;
}

/** `GET /api/exam/practiceStats`: the member's practice answers as the server graded them. */
export interface PracticeStats {
  banks: {
    bankId: number;
    /** Every answer given (a question answered twice counts twice). */
    answers: number;
    /** Distinct questions answered. */
    questions: number;
    correct: number;
    wrong: number;
    /** Unix seconds of the latest answer. */
    lastAnsweredAt: number;
  }[];
}
