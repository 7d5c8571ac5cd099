import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { msg } from "@lingui/core/macro";
import { faceSchedule, scheduledCheckId, type FaceCheckResult, type FaceRule, type FaceSnapshotFields } from "../../../shared/exam/face.ts";
import type { Database, Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { SUBMIT_GRACE_SECONDS, finish, type AttemptRow } from "../exam/attempts/attempt.ts";
import { BadImageError, ImageTooLargeError, MAX_IMAGE_PIXELS, analyseImage, pictureSize, type Analysis } from "./engine.ts";
import { judgeSnapshot } from "./judge.ts";
import {
  deleteMissedCheck,
  faceFailuresOf,
  hasFaceReference,
  insertFaceCheck,
  keptPictureCount,
  lockAttempt,
  lockReferencePath,
  officialAttemptByUuid,
  recordedCheck,
  referenceEmbedding,
  saveReference,
  setFaceCounters,
} from "./repository.ts";
import { roomFaceRule } from "./rules.ts";

export { LIVE_MIN, judgeSnapshot } from "./judge.ts";
export { roomFaceRule, toFaceRule } from "./rules.ts";
/** Whether an attempt's before-start check has passed (its questions wait for it). */
export { startCheckPassed } from "./repository.ts";

/**
 * Enrolment and the server's verdict on each snapshot. Pictures are private: they are
 * kept under DATA_DIR/face/ (never under the public /storage/) and staff see them through the
 * face review's admin route only. The device's verdict is recorded as a hint; the server's
 * counts.
 */

/** Largest picture accepted (bytes, after base64 decoding). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/**
 * Pictures kept per attempt (snapshots the server could decode). A device sends one a scheduled
 * moment and one a try of the start check: a 3-hour exam checked every 2 minutes with 10 random
 * checks and a few start tries stays under 100. Later checks are still judged and counted, only
 * their pictures are not kept: one attempt holds at most 100 × 2 MB (a camera snapshot is about
 * 60 KB: 6 MB).
 */
export const MAX_FACE_PICTURES_PER_ATTEMPT = 100;

/**
 * How far a snapshot's `takenAt` (the device's clock) may lie before the attempt's start or after
 * its end (now, or when it closed): a device's clock may be off by a few minutes (Kerberos
 * allows 5). A time further off is no moment of the attempt.
 */
export const FACE_CLOCK_SKEW_MS = 5 * 60_000;

export const faceDir = (dataDir: string) => path.join(dataDir, "face");

export async function hasReference(db: Queryable, userId: number): Promise<boolean> {
  return hasFaceReference(db, userId);
}

/** base64 (optionally a data: URL) -> bytes, or a refusal. */
export function decodeImage(data: string): Uint8Array {
  const base64 = data.startsWith("data:") ? data.slice(data.indexOf(",") + 1) : data;
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length === 0) throw new ApiError(msg`The picture is empty`);
  if (bytes.length > MAX_IMAGE_BYTES) throw new ApiError(msg`The picture is too large (at most 2 MB)`);
  // Its size from its header, before it waits for the engine: too many pixels is refused here.
  try {
    pictureSize(bytes);
  } catch (error) {
    if (error instanceof ImageTooLargeError) throw tooManyPixels(error);
    // Not a picture whose size can be read: the engine answers it (refused, or `bad_image`).
    if (!(error instanceof BadImageError)) throw error;
  }
  return bytes;
}

function tooManyPixels(error: ImageTooLargeError): ApiError {
  const { width, height } = error;
  const megapixels = Math.floor(MAX_IMAGE_PIXELS / 100_000) / 10;
  return new ApiError(msg`The picture has too many pixels (${width} × ${height}): send one of at most ${megapixels} megapixels`);
}

async function analyseOrRefuse(bytes: Uint8Array): Promise<Analysis> {
  try {
    return await analyseImage(bytes);
  } catch (error) {
    if (error instanceof ImageTooLargeError) throw tooManyPixels(error);
    if (error instanceof BadImageError) throw new ApiError(msg`The picture could not be read: send a JPEG, PNG or WebP photo`);
    throw error;
  }
}

/** Removes a stored picture (a replaced reference, a snapshot whose row was not written); a missing file is no error. */
async function removeFacePicture(dataDir: string, file: string): Promise<void> {
  const root = faceDir(dataDir);
  const full = path.resolve(root, file);
  if (full.startsWith(`${root}${path.sep}`)) await rm(full, { force: true });
}

/**
 * A member's reference photo (by the member from the camera, or by staff): exactly one face, whose
 * descriptor the server computes and keeps with the picture. Replaces an earlier reference, whose
 * file is removed (only the descriptor in the row is ever read; were the staff form's transaction
 * undone after this, the row would keep the old descriptor and lose only its picture).
 */
export async function enrolFace(db: Queryable, dataDir: string, userId: number, bytes: Uint8Array, by: "member" | "admin"): Promise<{ faces: number; live: number; ms: number }> {
  const analysis = await analyseOrRefuse(bytes);
  if (analysis.faces.length === 0) throw new ApiError(msg`No face was found in the photo: face the camera in good light and try again`);
  if (analysis.faces.length > 1) throw new ApiError(msg`More than one face is in the photo: only you may be in the picture`);
  const face = analysis.faces[0]!;
  if (face.embedding.length === 0) throw new ApiError(msg`The face in the photo is not clear enough: try again`);
  const dir = path.join(faceDir(dataDir), "ref");
  await mkdir(dir, { recursive: true });
  const file = path.join("ref", `${userId}-${randomBytes(8).toString("hex")}.jpg`);
  await writeFile(path.join(faceDir(dataDir), file), bytes);
  let old: string | undefined;
  try {
    old = await lockReferencePath(db, userId);
    await saveReference(db, userId, file, face.embedding, by);
  } catch (error) {
    await removeFacePicture(dataDir, file);
    throw error;
  }
  if (old && old !== file) await removeFacePicture(dataDir, old);
  return { faces: 1, live: Math.round(face.live * 1000) / 1000, ms: analysis.ms };
}

/**
 * One check of an official attempt (`POST /api/exam/official/face`): a snapshot the server
 * judges, or the device's report that it has none (camera refused, none, failed), which is a
 * failure, never a pass. Failures count; at the rule's `max_failures` the attempt is stopped
 * (closed and graded now, if still open) or flagged for review. A retried check (same `checkId`)
 * answers what the first one did. Snapshots queued offline arrive late and count the same: after
 * the attempt closed, only a scheduled moment it reached is taken (`checkMoment`). A picture is
 * kept only when it decodes, at most MAX_FACE_PICTURES_PER_ATTEMPT an attempt.
 */
export async function recordFaceCheck(db: Database, dataDir: string, memberId: number, fields: FaceSnapshotFields, image: string | undefined): Promise<FaceCheckResult> {
  const attempt = await officialAttemptByUuid(db, memberId, fields.uuid);
  if (!attempt) throw new ApiError(msg`This exam record does not exist`);
  const rule = await roomFaceRule(db, attempt.room_id);
  if (!rule) throw new ApiError(msg`This exam has no face checks`);

  // A check counted as missed when the attempt closed is judged now that it arrived (queued offline).
  const earlier = await previousResult(db, attempt.id, fields.checkId, rule);
  if (earlier && earlier.verdict !== "missed") return earlier;
  // Refused before the (costly) judgement, and again on the locked row below.
  checkMoment(attempt, rule, fields);

  let judged: Awaited<ReturnType<typeof judgeSnapshot>>;
  let bytes: Uint8Array | null = null;
  if (fields.problem) {
    judged = { verdict: fields.problem, faces: null, similarity: null, live: null, ms: null };
  } else if (!image) {
    throw new ApiError(msg`The snapshot is missing`);
  } else {
    bytes = decodeImage(image);
    judged = await judgeSnapshot(bytes, (await referenceEmbedding(db, memberId)) ?? null, rule);
  }
  // Only a picture the server could decode is kept (bytes that are no picture are judged `bad_image` and dropped).
  const keep = bytes !== null && judged.verdict !== "bad_image" ? bytes : null;

  let written: string | null = null;
  try {
    return await db.transaction(async (tx) => {
      const locked = await lockAttempt(tx, attempt.id);
      checkMoment(locked, rule, fields);
      let file: string | null = null;
      if (keep) {
        const kept = await keptPictureCount(tx, attempt.id);
        if (kept < MAX_FACE_PICTURES_PER_ATTEMPT) file = path.join("checks", String(attempt.id), `${randomBytes(8).toString("hex")}.jpg`);
      }
      // The missed check of this moment (counted when the attempt closed) gives way to the snapshot.
      const replaced = await deleteMissedCheck(tx, attempt.id, fields.checkId);
      const inserted = await insertFaceCheck(tx, {
        attemptId: attempt.id,
        checkId: fields.checkId,
        kind: fields.kind,
        takenAt: fields.takenAt,
        receivedAt: Date.now(),
        path: file,
        faces: judged.faces,
        similarity: judged.similarity === null ? null : Math.round(judged.similarity * 10_000) / 10_000,
        live: judged.live === null ? null : Math.round(judged.live * 10_000) / 10_000,
        verdict: judged.verdict,
        deviceVerdict: fields.deviceVerdict ?? null,
        ms: judged.ms,
      });
      if (!inserted) return (await previousResult(tx, attempt.id, fields.checkId, rule))!;
      if (file && keep) {
        // Written once its row is: a retry that lost the race above writes nothing.
        await mkdir(path.join(faceDir(dataDir), "checks", String(attempt.id)), { recursive: true });
        written = file;
        await writeFile(path.join(faceDir(dataDir), file), keep);
      }
      let failures = locked.face_failures - (replaced ? 1 : 0);
      let flag = locked.face_flag;
      let stop = false;
      if (judged.verdict !== "pass") {
        failures++;
        if (failures >= rule.maxFailures && flag !== "stopped") {
          stop = rule.action === "stop" && locked.status === "open";
          flag = stop ? "stopped" : "flagged";
        }
      } else if (replaced && flag === "flagged" && failures < rule.maxFailures) {
        // The missed check that flagged the attempt was sent after all: no longer enough failures.
        flag = "none";
      }
      if (failures !== locked.face_failures || flag !== locked.face_flag) {
        await setFaceCounters(tx, attempt.id, failures, flag);
      }
      if (stop) {
        // Closed and graded now; the scheduled checks it missed until now count too.
        await finish(tx, locked, "submitted");
        failures = await faceFailuresOf(tx, attempt.id);
      }
      return { verdict: judged.verdict, similarity: judged.similarity, failures, maxFailures: rule.maxFailures, flag };
    });
  } catch (error) {
    // The row was undone: so is its picture.
    if (written) await removeFacePicture(dataDir, written);
    throw error;
  }
}

/**
 * Whether a check may be taken for this attempt now: its `takenAt` lies within the attempt's time
 * (from its start to now, or to when it closed, give or take FACE_CLOCK_SKEW_MS); once the attempt
 * closed, only a scheduled moment it reached (one of `faceSchedule`'s interval or random
 * moments, by its `scheduledCheckId`), whose snapshot was queued offline, is still taken.
 */
function checkMoment(attempt: AttemptRow, rule: FaceRule, fields: FaceSnapshotFields): void {
  const startedMs = Number(attempt.started_at) * 1000;
  const now = Date.now();
  // Open past its deadline and grace: over, whether or not a request has closed it yet.
  const overdue = attempt.status === "open" && attempt.deadline !== null && now > (Number(attempt.deadline) + SUBMIT_GRACE_SECONDS) * 1000;
  const open = attempt.status === "open" && !overdue;
  const endedMs = open ? now : Number((overdue ? attempt.deadline : attempt.submitted_at) ?? attempt.deadline ?? now / 1000) * 1000;
  if (fields.takenAt < startedMs - FACE_CLOCK_SKEW_MS || fields.takenAt > endedMs + FACE_CLOCK_SKEW_MS) {
    throw new ApiError(msg`The snapshot's time is not within this exam: check the device's date and time`);
  }
  if (open) return;
  const durationMs = attempt.deadline === null ? 0 : (Number(attempt.deadline) - Number(attempt.started_at)) * 1000;
  const reached = faceSchedule(rule, durationMs, attempt.uuid).some(
    (m) => m.kind !== "start" && m.offset <= endedMs - startedMs && scheduledCheckId(attempt.uuid, m.offset) === fields.checkId,
  );
  if (!reached) throw new ApiError(msg`This exam is over: no more face snapshots are taken`);
}

async function previousResult(db: Queryable, attemptId: number, checkId: string, rule: FaceRule): Promise<FaceCheckResult | null> {
  const r = await recordedCheck(db, attemptId, checkId);
  return r ? { verdict: r.verdict, similarity: r.similarity === null ? null : Number(r.similarity), failures: r.face_failures, maxFailures: rule.maxFailures, flag: r.face_flag } : null;
}

/** A stored picture's bytes (reference or snapshot), by its path under DATA_DIR/face/. */
export async function readFacePicture(dataDir: string, file: string): Promise<Buffer> {
  const root = faceDir(dataDir);
  const full = path.resolve(root, file);
  if (!full.startsWith(`${root}${path.sep}`)) throw new ApiError(msg`This picture does not exist`);
  return readFile(full);
}
