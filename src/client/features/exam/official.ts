import type { OfficialStart } from "../../../shared/exam/official.ts";
import type { GivenAnswer } from "../../../shared/exam/types.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { finishOfficial, getOfflineDb, keepOfficialAttempt, officialSubmission, storableAnswers, storedOfficial, type MemberDb, type OfficialAttemptRow } from "../../offline/index.ts";

/**
 * Official exams on the member's side: entering (the server's attempt kept on the device with
 * its questions), the deadline on this device's clock, submitting. Answers are written on the
 * device and queued as `official.answer` ops (offline/repository/official.ts), sent by the sync
 * engine like every other change.
 */

/** The envelope the server answers when the attempt's time is up and it is closed. */
export function isClosedAttemptError(error: unknown): boolean {
  const data = serverRefusal(error)?.data as { closed?: unknown } | null | undefined;
  return typeof data === "object" && data !== null && data.closed === true;
}

/** The server's deadline on this device's clock (ms), so the timer survives sleep and skew. */
export function localDeadlineMs(attempt: OfficialAttemptRow): number {
  return attempt.attempt.deadline * 1000 - attempt.clockOffsetMs;
}

function memberDb(): MemberDb {
  const db = getOfflineDb();
  if (!db) throw new Error("the member's offline database is not open");
  return db;
}

/** Enters an official exam room: `POST /api/exam/official/start`, the attempt kept on this device. */
export async function startOfficial(roomId: number, db: MemberDb = memberDb()): Promise<OfficialAttemptRow> {
  const res = await request<OfficialStart>({ url: "/api/exam/official/start", method: "post", data: { roomId } }, { loading: true });
  return keepOfficialAttempt(db, res.data);
}

/**
 * Submits with every answer on this device (those still queued included) and forgets the
 * attempt. When the server has closed it (time up), it was graded with what reached it in time:
 * the device forgets it too, and the error is passed on.
 */
export async function submitOfficial(attempt: OfficialAttemptRow, db: MemberDb = memberDb()): Promise<{ score: number; passed: boolean }> {
  // The device's copy as it is now (an answer made a moment ago included).
  const latest = (await storedOfficial(db, attempt.uuid)) ?? attempt;
  try {
    const res = await request<{ score: number; passed: boolean }>(
      { url: "/api/exam/official/submit", method: "post", data: officialSubmission(latest) },
      { loading: true, showSuccessMessage: true },
    );
    await finishOfficial(db, attempt.uuid);
    return res.data;
  } catch (error) {
    if (isClosedAttemptError(error)) await finishOfficial(db, attempt.uuid);
    throw error;
  }
}

// ---------------------------------------------------------------- before the outbox

/** Where earlier versions of the app kept official attempts (one localStorage key each). */
export const LEGACY_KEY = "examhub.official.";

interface LegacyOfficialAttempt {
  attempt: { uuid: string };
  answers: Record<string, GivenAnswer>;
  answeredAt?: Record<string, number>;
  dirty?: boolean;
}

/**
 * Earlier versions kept official answers in localStorage (not per member) and sent them with
 * `POST /api/exam/official/save`. What such a version left unsent is sent the same way, and each
 * entry is removed once the server has it (or has closed the attempt). An entry the server
 * refuses for the member signed in now (another member's attempt) stays for its owner; one
 * that could not be sent stays for the next try.
 */
export async function flushLegacyOfficialAttempts(storage: Storage = localStorage): Promise<void> {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(LEGACY_KEY)) keys.push(key);
  }
  for (const key of keys) {
    let entry: LegacyOfficialAttempt | null;
    try {
      entry = JSON.parse(storage.getItem(key) ?? "null") as LegacyOfficialAttempt | null;
    } catch {
      entry = null;
    }
    if (!entry?.dirty || typeof entry.attempt?.uuid !== "string") {
      storage.removeItem(key);
      continue;
    }
    try {
      await request(
        // Cleaned as every answer is before it leaves the device: a NUL an earlier version let
        // into one answer must not get the whole set refused (and the entry kept for ever).
        { url: "/api/exam/official/save", method: "post", data: { uuid: entry.attempt.uuid, answers: storableAnswers(entry.answers ?? {}), answeredAt: entry.answeredAt ?? {} } },
        { showErrorMessage: false, showCodeMessage: false },
      );
      storage.removeItem(key);
    } catch (error) {
      if (isClosedAttemptError(error)) storage.removeItem(key);
    }
  }
}
