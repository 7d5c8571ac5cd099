import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import { request } from "../../api/index.ts";

/** `POST /api/exam/official/start` (times in seconds, on the server's clock). */
export interface OfficialStart {
  attempt: { uuid: string; roomId: number; paperId: number; startedAt: number; deadline: number; serverTime: number; answers: Record<string, GivenAnswer> };
  questions: ExamQuestion[];
}

/** The attempt kept on the device: answers are written here first, then sent. */
export interface LocalOfficialAttempt extends OfficialStart {
  /** Difference between the server's clock and this device's, ms (server - device). */
  clockOffsetMs: number;
  answers: Record<string, GivenAnswer>;
  /** Answers changed since the last successful save. */
  dirty: boolean;
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
    dirty: stored?.dirty ?? false,
  };
  writeOfficial(local);
  return local;
}

export async function saveOfficial(attempt: LocalOfficialAttempt): Promise<void> {
  await request(
    { url: "/api/exam/official/save", method: "post", data: { uuid: attempt.attempt.uuid, answers: attempt.answers } },
    { showErrorMessage: false, cancelDuplicateRequest: true },
  );
  writeOfficial({ ...attempt, dirty: false });
}

export async function submitOfficial(attempt: LocalOfficialAttempt): Promise<{ score: number; passed: boolean }> {
  const res = await request<{ score: number; passed: boolean }>(
    { url: "/api/exam/official/submit", method: "post", data: { uuid: attempt.attempt.uuid, answers: attempt.answers } },
    { loading: true, showSuccessMessage: true },
  );
  removeOfficial(attempt.attempt.uuid);
  return res.data;
}
