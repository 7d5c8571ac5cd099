import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { msg } from "@lingui/core/macro";
import type { FaceCheckResult, FaceRule, FaceSnapshotFields, FaceVerdict } from "../../../shared/exam/face.ts";
import type { Database, Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { finish, type AttemptRow } from "../exam/attempts/attempt.ts";
import { BadImageError, analyseImage, type Analysis } from "./engine.ts";
import { judgeSnapshot } from "./judge.ts";
import { roomFaceRule } from "./rules.ts";

export { LIVE_MIN, judgeSnapshot } from "./judge.ts";
export { roomFaceRule, toFaceRule } from "./rules.ts";

/**
 * Enrolment and the server's verdict on each snapshot (issue 15). Pictures are private: they are
 * kept under DATA_DIR/face/ (never under the public /storage/) and staff see them through the
 * face review's admin route only. The device's verdict is recorded as a hint; the server's
 * counts.
 */

/** Largest picture accepted (bytes, after base64 decoding). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export const faceDir = (dataDir: string) => path.join(dataDir, "face");

export async function hasReference(db: Queryable, userId: number): Promise<boolean> {
  return (await db.query("select 1 from member_face where user_id = $1", [userId])).rows.length > 0;
}

/** Whether an attempt's before-start check has passed (its questions wait for it). */
export async function startCheckPassed(db: Queryable, attemptId: number): Promise<boolean> {
  return (await db.query("select 1 from exam_face_check where attempt_id = $1 and kind = 'start' and verdict = 'pass' limit 1", [attemptId])).rows.length > 0;
}

/** base64 (optionally a data: URL) -> bytes, or a refusal. */
export function decodeImage(data: string): Uint8Array {
  const base64 = data.startsWith("data:") ? data.slice(data.indexOf(",") + 1) : data;
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length === 0) throw new ApiError(msg`The picture is empty`);
  if (bytes.length > MAX_IMAGE_BYTES) throw new ApiError(msg`The picture is too large (at most 2 MB)`);
  return bytes;
}

async function analyseOrRefuse(bytes: Uint8Array): Promise<Analysis> {
  try {
    return await analyseImage(bytes);
  } catch (error) {
    if (error instanceof BadImageError) throw new ApiError(msg`The picture could not be read: send a JPEG, PNG or WebP photo`);
    throw error;
  }
}

/**
 * A member's reference photo (by the member from the camera, or by staff): exactly one face, whose
 * descriptor the server computes and keeps with the picture. Replaces an earlier reference.
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
  await db.query(
    `insert into member_face (user_id, path, embedding, enrolled_by, create_time) values ($1, $2, $3, $4, extract(epoch from now())::bigint)
     on conflict (user_id) do update set path = excluded.path, embedding = excluded.embedding, enrolled_by = excluded.enrolled_by, create_time = excluded.create_time`,
    [userId, file, JSON.stringify(face.embedding), by],
  );
  return { faces: 1, live: Math.round(face.live * 1000) / 1000, ms: analysis.ms };
}

type FlagState = FaceCheckResult["flag"];

/**
 * One check of an official attempt (`POST /api/exam/official/face`): a snapshot the server
 * judges, or the device's report that it has none (camera refused, none, failed), which is a
 * failure, never a pass. Failures count; at the rule's `max_failures` the attempt is stopped
 * (closed and graded now, if still open) or flagged for review. A retried check (same `checkId`)
 * answers what the first one did. Snapshots queued offline arrive late and count the same.
 */
export async function recordFaceCheck(db: Database, dataDir: string, memberId: number, fields: FaceSnapshotFields, image: string | undefined): Promise<FaceCheckResult> {
  const { rows } = await db.query<AttemptRow & { face_failures: number; face_flag: FlagState }>(
    "select * from exam_attempt where user_id = $1 and uuid = $2 and kind = 'official'",
    [memberId, fields.uuid],
  );
  const attempt = rows[0];
  if (!attempt) throw new ApiError(msg`This exam record does not exist`);
  const rule = await roomFaceRule(db, attempt.room_id);
  if (!rule) throw new ApiError(msg`This exam has no face checks`);

  // A check counted as missed when the attempt closed is judged now that it arrived (queued offline).
  const earlier = await previousResult(db, attempt.id, fields.checkId, rule);
  if (earlier && earlier.verdict !== "missed") return earlier;

  let judged: Awaited<ReturnType<typeof judgeSnapshot>>;
  let bytes: Uint8Array | null = null;
  if (fields.problem) {
    judged = { verdict: fields.problem, faces: null, similarity: null, live: null, ms: null };
  } else if (!image) {
    throw new ApiError(msg`The snapshot is missing`);
  } else {
    bytes = decodeImage(image);
    const ref = (await db.query<{ embedding: number[] }>("select embedding from member_face where user_id = $1", [memberId])).rows[0];
    judged = await judgeSnapshot(bytes, ref?.embedding ?? null, rule);
  }
  let file: string | null = null;
  if (bytes) {
    file = path.join("checks", String(attempt.id), `${randomBytes(8).toString("hex")}.jpg`);
    await mkdir(path.join(faceDir(dataDir), "checks", String(attempt.id)), { recursive: true });
    await writeFile(path.join(faceDir(dataDir), file), bytes);
  }

  return db.transaction(async (tx) => {
    const locked = (await tx.query<AttemptRow & { face_failures: number; face_flag: FlagState }>("select * from exam_attempt where id = $1 for update", [attempt.id])).rows[0]!;
    // The missed check of this moment (counted when the attempt closed) gives way to the snapshot.
    const replaced = (await tx.query("delete from exam_face_check where attempt_id = $1 and uuid = $2 and verdict = 'missed' returning id", [attempt.id, fields.checkId])).rows.length > 0;
    const inserted = await tx.query(
      `insert into exam_face_check (attempt_id, uuid, kind, taken_at, received_at, path, faces, similarity, live, verdict, device_verdict, check_ms)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) on conflict (attempt_id, uuid) do nothing returning id`,
      [
        attempt.id,
        fields.checkId,
        fields.kind,
        fields.takenAt,
        Date.now(),
        file,
        judged.faces,
        judged.similarity === null ? null : Math.round(judged.similarity * 10_000) / 10_000,
        judged.live === null ? null : Math.round(judged.live * 10_000) / 10_000,
        judged.verdict,
        fields.deviceVerdict ?? null,
        judged.ms,
      ],
    );
    if (inserted.rows.length === 0) return (await previousResult(tx, attempt.id, fields.checkId, rule))!;
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
      await tx.query("update exam_attempt set face_failures = $1, face_flag = $2 where id = $3", [failures, flag, attempt.id]);
    }
    if (stop) {
      // Closed and graded now; the scheduled checks it missed until now count too.
      await finish(tx, locked, "submitted");
      failures = (await tx.query<{ face_failures: number }>("select face_failures from exam_attempt where id = $1", [attempt.id])).rows[0]!.face_failures;
    }
    return { verdict: judged.verdict, similarity: judged.similarity, failures, maxFailures: rule.maxFailures, flag };
  });
}

async function previousResult(db: Queryable, attemptId: number, checkId: string, rule: FaceRule): Promise<FaceCheckResult | null> {
  const { rows } = await db.query<{ verdict: FaceVerdict; similarity: string | null; face_failures: number; face_flag: FlagState }>(
    "select c.verdict, c.similarity, a.face_failures, a.face_flag from exam_face_check c join exam_attempt a on a.id = c.attempt_id where c.attempt_id = $1 and c.uuid = $2",
    [attemptId, checkId],
  );
  const r = rows[0];
  return r ? { verdict: r.verdict, similarity: r.similarity === null ? null : Number(r.similarity), failures: r.face_failures, maxFailures: rule.maxFailures, flag: r.face_flag } : null;
}

/** A stored picture's bytes (reference or snapshot), by its path under DATA_DIR/face/. */
export async function readFacePicture(dataDir: string, file: string): Promise<Buffer> {
  const root = faceDir(dataDir);
  const full = path.resolve(root, file);
  if (!full.startsWith(`${root}${path.sep}`)) throw new ApiError(msg`This picture does not exist`);
  return readFile(full);
}
