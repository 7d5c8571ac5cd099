import type { FaceCheckResult } from "../../shared/exam/face.ts";
import { ApiError, request } from "../api/index.ts";
import type { FaceCheckRow, MemberDb } from "./db.ts";
import { countFaceCheckTry, dropFaceCheck, queueFaceCheck, queuedFaceChecks } from "./repository/index.ts";

/**
 * The upload queue of face checks, beside the outbox: a check is written to the
 * device first, then sent alone (`POST /api/exam/official/face`); it leaves the device when the
 * server has answered it (its verdict, or a refusal such as an unknown attempt). A check the
 * network does not carry waits on the device and rides the sync engine (sync.ts `uploads`): each
 * of its runs sends what waits, and one that waits still is retried with the engine's backoff.
 * The server deduplicates on `checkId`, so a check sent twice counts once.
 */

export type FaceSendOutcome = { sent: true; result: FaceCheckResult } | { sent: false; refused: string | null };

/** A refusal the member should see: none when the check will be retried (network, server down). */
function refusalOf(error: unknown): string | null {
  if (error instanceof ApiError && error.isServerAnswer) return error.msg;
  return null;
}

async function sendRow(db: MemberDb, row: FaceCheckRow): Promise<FaceSendOutcome> {
  try {
    const res = await request<FaceCheckResult>(
      {
        url: "/api/exam/official/face",
        method: "post",
        data: { uuid: row.uuid, checkId: row.checkId, kind: row.kind, takenAt: row.takenAt, image: row.image, problem: row.problem, deviceVerdict: row.deviceVerdict },
        timeout: 60_000,
      },
      { showErrorMessage: false, showCodeMessage: false, cancelDuplicateRequest: false },
    );
    await dropFaceCheck(db, row.checkId);
    return { sent: true, result: res.data };
  } catch (error) {
    const refused = refusalOf(error);
    if (refused !== null) await dropFaceCheck(db, row.checkId);
    else await countFaceCheckTry(db, row.checkId).catch(() => undefined);
    return { sent: false, refused };
  }
}

/** Queues a check on the device and sends it now when online; the server's answer, or why not (null refusal: it waits for the network). */
export async function sendFaceCheck(db: MemberDb, row: Omit<FaceCheckRow, "tries">): Promise<FaceSendOutcome> {
  await queueFaceCheck(db, row);
  if (typeof navigator !== "undefined" && !navigator.onLine) return { sent: false, refused: null };
  return sendRow(db, { ...row, tries: 0 });
}

let flushing: Promise<boolean> | null = null;

/**
 * Sends every queued check, oldest first; stops at the first one the network does not carry.
 * True when none is left waiting for the network (all answered, or none queued).
 */
export function flushFaceChecks(db: MemberDb): Promise<boolean> {
  flushing ??= (async () => {
    try {
      for (const row of await queuedFaceChecks(db)) {
        const outcome = await sendRow(db, row);
        if (!outcome.sent && outcome.refused === null) return false;
      }
      return true;
    } finally {
      flushing = null;
    }
  })();
  return flushing;
}
