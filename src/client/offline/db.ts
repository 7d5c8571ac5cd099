import { Dexie, type DexieOptions, type EntityTable, type Table } from "dexie";
import type { OfficialStart } from "../../shared/exam/official.ts";
import type { ExamQuestion, GivenAnswer } from "../../shared/exam/types.ts";
import type { Op } from "../../shared/sync/ops.ts";
import type { CardState, ReviewLogEntry } from "../../shared/exam/review.ts";

/**
 * The member's offline database (ARCHITECTURE.md "The offline loop"). One IndexedDB database per
 * member (`examhub-member-<id>`), so another member on the same device sees nothing of it. Only
 * src/client/offline touches it; screens read through the hooks in index.ts and change it only
 * through repository/index.ts.
 */

/** A downloaded question bank. */
export interface BankRow {
  id: number;
  classifyId: number;
  title: string;
  /**
   * The title in each language it was downloaded in (the server sends the reader's language):
   * a member who switches language offline still reads it in theirs when it was seen once.
   */
  titles?: Record<string, string>;
  /** The server's version of the bank's content (a new one replaces the questions). */
  version: string;
  questionCount: number;
  /** ms since the epoch. */
  downloadedAt: number;
  /**
   * The bank's question ids in bank order, and each one's type (`questionTypes[i]` is
   * `questionIds[i]`'s): the bank's directory, written with its questions in one transaction
   * (saveBank; version 8 wrote it for the banks already saved). Where a question is on this device
   * and what type it is are read from the banks' few rows, not from the questions' index keys
   * (40,000 of them on a heavy device), and the practice page opens a bank of thousands with its
   * row and the question it shows.
   */
  questionIds: number[];
  questionTypes: string[];
}

/** One question of a bank, in bank order (the same question may sit in two banks). */
export interface QuestionRow extends ExamQuestion {
  bankId: number;
  /** 0-based index in the bank. */
  position: number;
}

/** Practice progress of a bank: the position of the next question to show. */
export interface ProgressRow {
  bankId: number;
  position: number;
  /** ms; the `at` of the op that set it. */
  updatedAt: number;
  /** Id of the op that set it ("" when it came from the server): last-writer-wins tie-break. */
  opId: string;
}

/** A practice answer given on this device (graded locally; the server re-grades it). */
export interface AnswerRow {
  localId?: number;
  /** Id of the `practice.answer` op that carries it. */
  opId: string;
  questionId: number;
  bankId: number;
  answer: GivenAnswer;
  /** null: not decidable offline (short answers, or no answer key downloaded). */
  correct: boolean | null;
  score: number;
  at: number;
}

export interface FavouriteRow {
  questionId: number;
  on: boolean;
  at: number;
  opId: string;
}

/** The wrong-question book; the book lists rows with `!removed && count > 0`. */
export interface WrongRow {
  questionId: number;
  count: number;
  /** ms of the latest wrong answer (0: none). */
  lastTime: number;
  removed: boolean;
  /** ms of the latest removal (0: none); removed while removedAt >= lastTime. */
  removedAt: number;
  /**
   * While the question is in the book (`!removed && count > 0`): minus its `lastTime`; absent
   * otherwise (repository/practice.ts `rowsOf` writes it with the row). IndexedDB indexes only
   * the rows that have it, so the `book` index is the book itself, newest first and then by
   * question id (as the screen lists it): its questions are its primary keys, read in one request
   * without a row (version 8).
   */
  book?: number;
}

export type AttemptStatus = "in_progress" | "submitted";

export interface AttemptQuestionResult {
  correct: boolean | null;
  score: number;
}

/** A mock attempt, graded locally on submit and re-graded by the server on sync. */
export interface AttemptRow {
  attemptId: string;
  paperId: number;
  questions: ExamQuestion[];
  /** Keyed by question id (decimal text), as the `attempt.submit` payload. */
  answers: Record<string, GivenAnswer>;
  startedAt: number;
  /** ms; null when the attempt has no time limit. */
  deadline: number | null;
  submittedAt: number | null;
  /** Local grading (null until submitted). */
  score: number | null;
  results: Record<string, AttemptQuestionResult> | null;
  status: AttemptStatus;
  /** The question (0-based) the member was on, so a reload or a return opens it again. */
  position?: number;
}

/**
 * The member's progress on one lesson as watched on this device (written first here, then sent as
 * a `lesson.progress` op). `completed` never goes back to false locally.
 */
export interface LessonProgressRow {
  lessonId: number;
  courseId: number;
  /** Seconds into the video. */
  position: number;
  completed: boolean;
  /** ms; the `at` of the op that set it. */
  updatedAt: number;
  /** Id of the `lesson.progress` op that carries it. */
  opId: string;
}

/**
 * An official exam in progress on this device (the attempt itself lives on the server, on its
 * clock): its questions and the answers as the member left them. Each answer is also an
 * `official.answer` op in the outbox until the server has it. Kept only while signed in (logout
 * forgets these rows; unsent answers stay in the outbox) and removed once submitted.
 */
export interface OfficialAttemptRow extends OfficialStart {
  uuid: string;
  /** Difference between the server's clock and this device's, ms (server - device). */
  clockOffsetMs: number;
  answers: Record<string, GivenAnswer>;
  /** When each answer was made, ms on the server's clock (this device's clock + offset). */
  answeredAt: Record<string, number>;
  /**
   * When the exam page was hidden, ms on the server's clock, while that leave is open (the page
   * not shown since): repository/pageLeaves.ts. Not indexed: no schema version.
   */
  leftAt?: number;
}

/**
 * A face check of an official exam waiting to be uploaded (`POST /api/exam/official/face`): a
 * snapshot (JPEG data URL) or the device's reason for having none. Kept beside the outbox, not in
 * it: a snapshot is large and the server's check of it is slow, so each goes alone, as soon as
 * the network allows, and leaves the device once the server has judged it.
 */
export interface FaceCheckRow {
  /** `<attempt uuid>:<offset ms of the schedule>` (or a random id): the server's dedup key. */
  checkId: string;
  uuid: string;
  kind: "start" | "interval" | "random";
  /** When the snapshot was taken, ms on this device's clock. */
  takenAt: number;
  image?: string;
  problem?: "camera_refused" | "no_camera" | "camera_failed";
  /** What the device itself saw (a hint for the server). */
  deviceVerdict?: string;
  tries: number;
}

/**
 * One review of a question: the server's logs and this device's own (also queued as
 * `review.answer` ops). A card is the FSRS replay of its logs (src/shared/exam/review.ts).
 */
export type ReviewLogRow = ReviewLogEntry;

/** A card's scheduling state, replayed from `reviewLogs` (kept for due lists and mastery). */
export type ReviewCardRow = CardState;

/** The member's review settings: `retention` (desired retention; last writer wins by (at, opId)). */
export interface ReviewSettingRow {
  key: "retention";
  value: number;
  at: number;
  /** Id of the op that set it ("" when it came from the server). */
  opId: string;
}

/** A certificate the member downloaded on this device: its PDF opens with no network. */
export interface CertificateRow {
  serial: string;
  title: string;
  kind: "room" | "course";
  issuedAt: number;
  score: number | null;
  /** The PDF's bytes. */
  pdf: ArrayBuffer;
  /** When it was downloaded (ms, this device's clock). */
  savedAt: number;
}

export type OutboxStatus = "pending" | "rejected";

/**
 * One queued op. `id`, `type`, `at` and `payload` are the op as sent (made when the change was
 * made, never when sent; no token); the rest is local bookkeeping and never leaves the device.
 */
export type OutboxRow = Op & {
  /** Queue order. */
  seq?: number;
  status: OutboxStatus;
  /** Why the server rejected it, or why it was set aside (shown to the member). */
  msg?: string;
  /** How many times it was sent without a final answer. */
  tries: number;
  /**
   * How many times the server failed on this op sent alone while it answered other requests
   * (the sync engine's bisection isolated it); at MAX_SOLO_FAILURES it is set aside.
   */
  failures?: number;
  /**
   * Set aside by the device (status "rejected"): the server kept failing on it, so it was taken
   * out of the queue for the rest to sync. The member may send it again (retrySetAside).
   */
  setAside?: boolean;
  /** `practice.answer` only: the local grading, used to re-apply the op on pulled state. */
  correct?: boolean | null;
};

/** Whether a wrong-book row lists its question (`WrongRow.book`). */
export function inWrongBook(row: Pick<WrongRow, "removed" | "count">): boolean {
  return !row.removed && row.count > 0;
}

export const DB_PREFIX = "examhub-member-";

export function memberDbName(memberId: number): string {
  if (!Number.isSafeInteger(memberId) || memberId <= 0) throw new Error(`invalid member id ${memberId}`);
  return `${DB_PREFIX}${memberId}`;
}

export class MemberDb extends Dexie {
  banks!: EntityTable<BankRow, "id">;
  questions!: Table<QuestionRow, [number, number]>;
  progress!: EntityTable<ProgressRow, "bankId">;
  answers!: EntityTable<AnswerRow, "localId">;
  favourites!: EntityTable<FavouriteRow, "questionId">;
  wrong!: EntityTable<WrongRow, "questionId">;
  attempts!: EntityTable<AttemptRow, "attemptId">;
  outbox!: Table<OutboxRow, number>;
  lessonProgress!: EntityTable<LessonProgressRow, "lessonId">;
  officialAttempts!: EntityTable<OfficialAttemptRow, "uuid">;
  faceChecks!: EntityTable<FaceCheckRow, "checkId">;
  reviewLogs!: EntityTable<ReviewLogRow, "opId">;
  reviewCards!: EntityTable<ReviewCardRow, "questionId">;
  reviewSettings!: EntityTable<ReviewSettingRow, "key">;
  certificates!: EntityTable<CertificateRow, "serial">;

  /** `options`: Dexie's (tests open a second device's database on its own IndexedDB). */
  constructor(readonly memberId: number, options?: DexieOptions) {
    super(memberDbName(memberId), options);
    this.version(1).stores({
      banks: "id, classifyId",
      questions: "[bankId+id], &[bankId+position], id, bankId",
      progress: "bankId",
      answers: "++localId, &opId, questionId, bankId, at",
      favourites: "questionId", // booleans are not indexable: filter on `on`
      wrong: "questionId, lastTime",
      attempts: "attemptId, paperId, status",
      outbox: "++seq, &id, status, [status+seq]",
    });
    // Courses: lesson progress watched on this device (the tables of version 1 carry over).
    this.version(2).stores({
      lessonProgress: "lessonId, courseId",
    });
    // Official exams: the attempts in progress (their answers travel as `official.answer` ops).
    this.version(3).stores({
      officialAttempts: "uuid",
    });
    // Face checks of official exams waiting for the network.
    this.version(4).stores({
      faceChecks: "checkId, uuid, takenAt",
    });
    // Spaced review: review logs, the cards replayed from them, the desired retention.
    this.version(5).stores({
      reviewLogs: "opId, questionId, at",
      reviewCards: "questionId, due",
      reviewSettings: "key",
    });
    // Certificates downloaded on this device (their PDFs open offline).
    this.version(6).stores({
      certificates: "serial, issuedAt",
    });
    // A heavy device: the header counts what waits by kind (`[status+type]`, no row read), and
    // the wrong book and review queue know each question's type without reading it (`type`).
    // Indexes only: IndexedDB builds them over the rows already there, none is rewritten.
    this.version(7).stores({
      questions: "[bankId+id], &[bankId+position], id, bankId, type",
      outbox: "++seq, &id, status, [status+seq], [status+type]",
    });
    // Each bank's directory (`BankRow.questionIds` / `questionTypes`), written for the banks
    // already saved from the questions' index keys (no question read), and the wrong book's own
    // index (`WrongRow.book`, written on every row); every row is kept.
    this.version(8)
      .stores({ wrong: "questionId, lastTime, book" })
      .upgrade(async (tx) => {
        await tx
          .table<WrongRow, number>("wrong")
          .toCollection()
          .modify((row) => {
            if (inWrongBook(row)) row.book = -row.lastTime;
            else delete row.book;
          });
        const banks = tx.table<BankRow, number>("banks");
        const questions = tx.table<QuestionRow, [number, number]>("questions");
        const typeOf = new Map<string, string>();
        for (const type of await questions.orderBy("type").uniqueKeys()) {
          for (const [bankId, id] of await questions.where("type").equals(type).primaryKeys()) typeOf.set(`${bankId}:${id}`, String(type));
        }
        const rows = await banks.toArray();
        for (const bank of rows) {
          const keys = await questions.where("[bankId+position]").between([bank.id, -Infinity], [bank.id, Infinity]).primaryKeys();
          bank.questionIds = keys.map(([, id]) => id);
          bank.questionTypes = keys.map(([bankId, id]) => typeOf.get(`${bankId}:${id}`) ?? "");
        }
        await banks.bulkPut(rows);
      });
  }
}

/** Opens (creating on first use) the member's own database. */
export function openMemberDb(memberId: number): MemberDb {
  return new MemberDb(memberId);
}

/** Deletes a member's database (e.g. "clear offline data"); closes it first if open. */
export async function deleteMemberDb(memberId: number): Promise<void> {
  await Dexie.delete(memberDbName(memberId));
}
