import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import { request, serverRefusal } from "../../api/index.ts";

/** `POST /api/exam/official/start` (times in seconds, on the server's clock). */
export interface OfficialStart {
  /** `roomTitle`: the exam room's name (absent in attempts stored before the server sent it). */
  attempt: { uuid: string; roomId: number; roomTitle?: string; paperId: number; startedAt: number; deadline: number; serverTime: number; answers: Record<string, GivenAnswer> };
  questions: ExamQuestion[];
}

/** The attempt kept on the device: answers are written here first, then sent. */
export interface LocalOfficialAttempt extends OfficialStart {
  /** Difference between the server's clock and this device's, ms (server - device). */
  clockOffsetMs: number;
  answers: Record<string, GivenAnswer>;
  /**
   * When each answer was made, ms on the server's clock (this device's clock + offset): answers
   * made before the deadline still count when the network returns only after it.
   */
  answeredAt: Record<string, number>;
  /** Answers changed since the last successful save. */
  dirty: boolean;
}

/** The envelope the server answers when the attempt's time is up and it is closed. */
export function isClosedAttemptError(error: unknown): boolean {
  const data = serverRefusal(error)?.data as { closed?: unknown } | null | undefined;
  return typeof data === "object" && data !== null && data.closed === true;
}

/** The attempt with one answer changed (made now, on the server's clock). */
export function withAnswer(attempt: LocalOfficialAttempt, questionId: number, answer: GivenAnswer, now = Date.now()): LocalOfficialAttempt {
  const key = String(questionId);
  return {
    ...attempt,
    answers: { ...attempt.answers, [key]: answer },
    answeredAt: { ...attempt.answeredAt, [key]: Math.round(now + attempt.clockOffsetMs) },
    dirty: true,
  };
}

const KEY = "examhub.official.";

export function readOfficial(uuid: string, storage: Storage = localStorage): LocalOfficialAttempt | null {
  try {
    const raw = storage.getItem(KEY + uuid);
    return raw ? (JSON.parse(raw) as LocalOfficialAttempt) : null;
  } catch {
    return null;
  }
}

export function writeOfficial(attempt: LocalOfficialAttempt, storage: Storage = localStorage): void {
  storage.setItem(KEY + attempt.attempt.uuid, JSON.stringify(attempt));
}

export function removeOfficial(uuid: string, storage: Storage = localStorage): void {
  storage.removeItem(KEY + uuid);
}

/** The server's deadline on this device's clock (ms), so the timer survives sleep and skew. */
export function localDeadlineMs(attempt: LocalOfficialAttempt): number {
  return attempt.attempt.deadline * 1000 - attempt.clockOffsetMs;
}

export async function startOfficial(roomId: number, now = Date.now()): Promise<LocalOfficialAttempt> {
  const res = await request<OfficialStart>({ url: "/api/exam/official/start", method: "post", data: { roomId } }, { loading: true });
  const stored = readOfficial(res.data.attempt.uuid);
  const local: LocalOfficialAttempt = {
    ...res.data,
    clockOffsetMs: res.data.attempt.serverTime * 1000 - now,
    // What this device saved but the server may not have yet wins over the server's copy.
    answers: { ...res.data.attempt.answers, ...(stored?.answers ?? {}) },
    answeredAt: stored?.answeredAt ?? {},
    dirty: stored?.dirty ?? false,
  };
  writeOfficial(local);
  return local;
}

const payload = (attempt: LocalOfficialAttempt) => ({ uuid: attempt.attempt.uuid, answers: attempt.answers, answeredAt: attempt.answeredAt ?? {} });

/**
 * Sends the answers. Resolves "closed" when the server has closed the attempt (time up): the
 * answers it could still take were counted and the device stops sending it.
 */
export async function saveOfficial(attempt: LocalOfficialAttempt): Promise<"saved" | "closed"> {
  try {
    await request({ url: "/api/exam/official/save", method: "post", data: payload(attempt) }, { showErrorMessage: false, cancelDuplicateRequest: true });
  } catch (error) {
    if (!isClosedAttemptError(error)) throw error;
    removeOfficial(attempt.attempt.uuid);
    return "closed";
  }
  // Only what was sent is saved: an answer changed meanwhile stays dirty.
  const current = readOfficial(attempt.attempt.uuid);
  if (!current || current.answers === attempt.answers || JSON.stringify(current.answers) === JSON.stringify(attempt.answers)) {
    writeOfficial({ ...(current ?? attempt), dirty: false });
  }
  return "saved";
}

export async function submitOfficial(attempt: LocalOfficialAttempt): Promise<{ score: number; passed: boolean }> {
  try {
    const res = await request<{ score: number; passed: boolean }>({ url: "/api/exam/official/submit", method: "post", data: payload(attempt) }, { loading: true, showSuccessMessage: true });
    removeOfficial(attempt.attempt.uuid);
    return res.data;
  } catch (error) {
    // Closed by the server: graded with what reached it in time; nothing more to send.
    if (isClosedAttemptError(error)) removeOfficial(attempt.attempt.uuid);
    throw error;
  }
}

/** Every official attempt on this device with answers the server has not confirmed yet. */
export function pendingOfficialAttempts(storage: Storage = localStorage): LocalOfficialAttempt[] {
  const out: LocalOfficialAttempt[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key?.startsWith(KEY)) continue;
    const attempt = readOfficial(key.slice(KEY.length), storage);
    if (attempt?.dirty) out.push(attempt);
  }
  return out;
}

/**
 * Sends what official attempts left unsaved on this device (the page was closed offline): run
 * when the member side opens and whenever the network returns. Failures stay for next time.
 */
export async function flushOfficialAttempts(): Promise<void> {
  for (const attempt of pendingOfficialAttempts()) {
    await saveOfficial(attempt).catch(() => undefined);
  }
}
