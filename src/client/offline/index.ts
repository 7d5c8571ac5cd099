import { liveQuery, type Subscription } from "dexie";
import { useLiveQuery } from "dexie-react-hooks";
import { request } from "../api/index.ts";
import { claimMemberCaches, releaseMemberCaches } from "../pwa/caches.ts";
import { useUserInfo } from "../stores/userInfo.ts";
import { openMemberDb, type FaceCheckRow, type MemberDb } from "./db.ts";
import { createSyncEngine, type SyncEngine } from "./sync.ts";
import { IDLE, publish, useOfflineDb } from "./status.ts";
import { forgetEndedOfficial, forgetOfficialAttempts } from "./repository/index.ts";
import { createSyncTransport } from "./transport.ts";
import { flushFaceChecks, sendFaceCheck, type FaceSendOutcome } from "./faceUpload.ts";
import { nextUrgentTask } from "../browser/nextTask.ts";
import { forgetPracticeOpening, readOpeningAhead } from "./practiceOpen.ts";

/**
 * The offline module's one entry: the signed-in member's database and sync engine, the hooks
 * screens read the device's data through and the repository functions they change it with.
 * Nothing outside offline/ imports another file of it (eslint.config.js), but status.ts: the
 * Dexie-free part (sync status, due reviews) that the header reads before this module loads.
 */

export type { MemberDb } from "./db.ts";
export type {
  AnswerRow,
  AttemptRow,
  BankRow,
  FavouriteRow,
  LessonProgressRow,
  OfficialAttemptRow,
  OutboxRow,
  ProgressRow,
  QuestionRow,
  WrongRow,
} from "./db.ts";
export type { SyncEngineStatus, SyncState } from "./sync.ts";
export type { BankQuestions, PracticeBank, PracticeState } from "./practiceOpen.ts";
export { openingIndex, practiceWindow } from "./practiceOpen.ts";
export { getOfflineDb, publishDueReviews, useOfflineDb, useSyncStatus } from "./status.ts";
export type { FaceCheckRow } from "./db.ts";
export type { FaceSendOutcome } from "./faceUpload.ts";
export type { LessonProgressInput, LessonProgressResult, UnsentSubmission } from "./repository/index.ts";
export { mergeLessonProgress } from "./lessonProgress.ts";
export {
  useBank,
  useBankQuestions,
  useBankAnswers,
  useStoredCertificates,
  useCourseLessonProgress,
  useDeviceMastery,
  useLessonProgress,
  usePracticeBank,
  usePracticeState,
  useProgress,
  useReviewList,
  useReviewSummary,
  useReviewRetention,
  useWrongBook,
} from "./hooks.ts";
export { saveDownloadedBank, useBookQuestions, useQuestionBook, type BookQuestion, type QuestionBookEntry, type QuestionBookKind } from "./questionBook.ts";
export {
  answerOfficial,
  answerPractice,
  attemptsInProgress,
  discardRejected,
  finishOfficial,
  forgetEndedOfficial,
  keepOfficialAttempt,
  notePageBack,
  notePageLeft,
  officialSubmission,
  storableAnswers,
  storedOfficial,
  unsentOfficialAnswers,
  unsentPageLeaves,
  gradedAttemptsOfPaper,
  questionsOfBanks,
  storedAttempt,
  storedBank,
  storedBanks,
  unsentSubmissions,
  waitingSubmissions,
  localState,
  pendingCount,
  recordLessonProgress,
  rejectedOps,
  removeWrong,
  retrySetAside,
  saveAttemptAnswer,
  setAttemptPosition,
  saveBank,
  localBankTitle,
  rememberBankTitle,
  pendingActions,
  pendingChangeCount,
  setFavourite,
  setProgress,
  startMockAttempt,
  submitMockAttempt,
  queuedFaceCheckCount,
  deviceMastery,
  dueReviewCount,
  readReviewList,
  readReviewQueue,
  reviewSummary,
  recordReview,
  reviewRetention,
  setReviewRetention,
  weakestQuestions,
  saveCertificate,
  storedCertificatePdf,
} from "./repository/index.ts";
export type { ReviewEntry, ReviewList, ReviewQueue, ReviewInput, ReviewOutcome, ReviewSummary } from "./repository/index.ts";
export type { CertificateRow, ReviewCardRow, ReviewLogRow } from "./db.ts";

// The app's one HTTP client (token refresh applies); looked up per call so tests can replace it.
const { send, pull, pullReview } = createSyncTransport((config, options) => request<unknown>(config, options));

interface Session {
  memberId: number;
  db: MemberDb;
  engine: SyncEngine;
  outboxWatch: Subscription;
}

let session: Session | null = null;
/** The member's database, built and opened ahead of startOffline (prepareOffline). */
let prepared: MemberDb | null = null;
let persistAsked = false;
let userWatch: (() => void) | null = null;

function askPersistentStorage(): void {
  if (persistAsked) return;
  persistAsked = true;
  const storage = typeof navigator === "undefined" ? undefined : navigator.storage;
  void storage?.persist?.().catch(() => false);
}

/**
 * Builds the member's database object (Dexie's schema of every table) and opens it (creating or
 * upgrading its tables) ahead of startOffline, so that work is done in tasks of its own on a
 * phone (MemberSync) and not in the one where every screen's first queries run: startOffline
 * then takes it. Resolves once the database has opened or failed to (startOffline's queries
 * then report the failure as before); a later call for another member closes this one.
 */
export async function prepareOffline(memberId: number): Promise<void> {
  if (session?.memberId === memberId) return;
  if (prepared?.memberId !== memberId) {
    prepared?.close();
    prepared = openMemberDb(memberId);
  }
  await prepared.open().catch(() => undefined);
}

/**
 * Opens the member's database and starts syncing (call it when the member is signed in).
 * Calling it again for the same member restarts the engine (e.g. after signing in again);
 * for another member it closes the previous one first.
 */
export function startOffline(memberId: number): MemberDb {
  if (session?.memberId === memberId) {
    session.engine.stop();
    session.engine.start();
    return session.db;
  }
  // The database prepareOffline opened for this member, taken before stopOffline closes the rest.
  const ready = prepared?.memberId === memberId ? prepared : null;
  if (ready) prepared = null;
  stopOffline();
  askPersistentStorage();
  // The service worker's cached course data and saved videos belong to one member at a time.
  void claimMemberCaches(memberId);
  const db = ready ?? openMemberDb(memberId);
  // Official exams whose time is up and whose answers all reached the server are over.
  void forgetEndedOfficial(db).catch(() => undefined);
  const engine = createSyncEngine({
    db,
    send,
    pull,
    pullReview,
    now: () => Date.now(),
    random: () => Math.random(),
    setTimer: (fn, ms) => window.setTimeout(fn, ms),
    clearTimer: (handle) => window.clearTimeout(handle as number),
    online: () => navigator.onLine,
    onChange: (status) => {
      if (session?.engine === engine) publish({ status });
    },
    // Face checks of official exams queued on the device go with every sync, under its retries.
    uploads: () => flushFaceChecks(db),
  });
  // Every outbox change (a screen's answer, a favourite, ...) updates the badge and syncs soon.
  const outboxWatch = liveQuery(() => db.outbox.count()).subscribe({
    next: () => void engine.notifyLocalChange(),
    error: () => undefined,
  });
  session = { memberId, db, engine, outboxWatch };
  publish({ db, status: engine.getStatus() });
  // Signing out (or another member signing in) closes this member's data.
  userWatch ??= useUserInfo.subscribe((state) => {
    if (session && state.id !== session.memberId) stopOffline();
    // Signed out: the cached course data and saved videos go too (pwa/caches.ts).
    if (!state.id) void releaseMemberCaches();
  });
  engine.start();
  return db;
}

/** The start under way (ensureOffline), for one member. */
let starting: { memberId: number; done: Promise<void> } | null = null;

/** What the page starting opens, read with the database before any screen asks (main.tsx). */
export interface Opening {
  /** The practice page of this bank (`/exam/myPractice?bank=`): its question (offline/practiceOpen.ts). */
  practiceBank?: number;
}

/**
 * Opens the member's database and starts syncing unless that is done or under way for them:
 * the database built and opened first (prepareOffline), with what `opening` says the first
 * screen shows read at once, then the sync engine and the screens' queries started on it
 * (startOffline), each in tasks of their own after this one (together they are long enough on
 * a phone to hold a tap back). main.tsx calls it as soon as a signed-in member's page starts,
 * MemberSync again once the header is up; the first call does the work. Nothing starts for a
 * member who signed out (or was replaced) meanwhile.
 */
export function ensureOffline(memberId: number, opening: Opening = {}): Promise<void> {
  if (session?.memberId === memberId) return Promise.resolve();
  if (starting?.memberId === memberId) return starting.done;
  const still = () => starting?.memberId === memberId && useUserInfo.getState().id === memberId;
  // Tasks of their own, but ahead of the app's set-up and first render (nextUrgentTask): the
  // first screen waits on the database (at load 13-14, 20-30 ms sooner for an offline reload).
  const done = nextUrgentTask()
    .then(() => (still() ? prepareOffline(memberId) : undefined))
    .then(() => (still() && opening.practiceBank && prepared?.memberId === memberId ? readOpeningAhead(prepared, opening.practiceBank) : undefined))
    .then(nextUrgentTask)
    .then(() => {
      if (still() && session?.memberId !== memberId) startOffline(memberId);
    })
    .finally(() => {
      if (starting?.done === done) starting = null;
    });
  starting = { memberId, done };
  return done;
}

/** Stops syncing and closes the database (the member signed out); queued ops stay for next time. */
export function stopOffline(): void {
  // A database prepared for a member who never got as far as startOffline (signed out first).
  prepared?.close();
  prepared = null;
  const current = session;
  if (!current) return;
  session = null;
  forgetPracticeOpening();
  current.engine.stop();
  current.outboxWatch.unsubscribe();
  current.db.close();
  publish({ db: null, status: IDLE });
}

/**
 * The member signs out: their official exams' questions leave the device (answers not sent yet
 * stay queued in their database for the next sign-in).
 */
export async function forgetOfficialOnSignOut(): Promise<void> {
  const db = session?.db;
  if (db) await forgetOfficialAttempts(db).catch(() => undefined);
}

/**
 * Queues a face check on the device and sends it now when online (faceUpload.ts): the server's
 * answer, or why not. One the network did not carry goes with the sync engine's next try.
 */
export async function submitFaceCheck(db: MemberDb, row: Omit<FaceCheckRow, "tries">): Promise<FaceSendOutcome> {
  const outcome = await sendFaceCheck(db, row);
  if (!outcome.sent && outcome.refused === null && session?.db === db) session.engine.retryUploads();
  return outcome;
}

/** Runs a sync now (e.g. a "sync now" button); resolves when it is done. */
export function syncNow(): Promise<void> {
  return session?.engine.sync() ?? Promise.resolve();
}

/**
 * A live query on the member's database (dexie-react-hooks): re-runs when the data it read
 * changes. `fallback` is returned while loading and when no member database is open.
 */
export function useOfflineQuery<T, F = undefined>(
  query: (db: MemberDb) => Promise<T> | T,
  deps: readonly unknown[],
  fallback?: F,
): T | F {
  const db = useOfflineDb();
  return useLiveQuery(() => (db ? query(db) : (fallback as F)), [db, ...deps], fallback as F);
}
