import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf, rowById } from "../../db/kysely.ts";
import { countsPer, textById } from "../repository.ts";

/** How many exam rooms use each of these face rules (unused rules are left out). */
export const roomsPerFaceRule = (q: Queryable, ruleIds: readonly number[]) => countsPer(q, "exam_room", "face_rule_id", ruleIds);

export const usernameOf = (q: Queryable, memberId: unknown) => textById(q, "member", "username", memberId);

export async function memberExists(q: Queryable, memberId: number): Promise<boolean> {
  const row = await kyselyOf(q).selectFrom("member").select(sql`1`.as("one")).where("id", "=", memberId).executeTakeFirst();
  return row !== undefined;
}

export interface FaceReviewAttempt {
  id: number;
  username: string;
  title: string;
  started_at: string;
  deadline: string | null;
  status: string;
  face_failures: number;
  face_flag: string;
  threshold: string | null;
  action: string | null;
  max_failures: number | null;
}

/** An official attempt with its member, room and the room's face rule, as the face review shows it. */
export async function faceReviewAttempt(q: Queryable, attemptId: number): Promise<FaceReviewAttempt | undefined> {
  const { rows } = await sql<FaceReviewAttempt>`
    select a.id, m.username, r.title, a.started_at, a.deadline, a.status, a.face_failures, a.face_flag, f.threshold, f.action, f.max_failures
    from exam_attempt a join member m on m.id = a.user_id join exam_room r on r.id = a.room_id left join face_rule f on f.id = r.face_rule_id
    where a.id = ${attemptId} and a.kind = 'official'`.execute(kyselyOf(q));
  return rows[0];
}

export interface FaceCheckRow {
  id: number;
  kind: string;
  taken_at: string;
  received_at: string;
  verdict: string;
  device_verdict: string | null;
  similarity: string | null;
  live: string | null;
  faces: number | null;
  check_ms: number | null;
  path: string | null;
}

/** The attempt's face checks in the order they were taken. */
export async function faceChecksOf(q: Queryable, attemptId: number): Promise<FaceCheckRow[]> {
  const rows = await kyselyOf(q)
    .selectFrom("exam_face_check")
    .select(["id", "kind", "taken_at", "received_at", "verdict", "device_verdict", "similarity", "live", "faces", "check_ms", "path"])
    .where("attempt_id", "=", attemptId)
    .orderBy("taken_at")
    .orderBy("id")
    .execute();
  return rows as unknown as FaceCheckRow[];
}

/** The attempt a face check belongs to, and the picture it kept (if any). */
export async function faceCheck(q: Queryable, checkId: number): Promise<{ attempt_id: number; path: string | null } | undefined> {
  return rowById(q, "exam_face_check", ["attempt_id", "path"], checkId);
}

/** Clears a flagged or stopped attempt's face flag; false when it was not waiting for a review. */
export async function markFaceReviewed(q: Queryable, attemptId: number): Promise<boolean> {
  const rows = await kyselyOf(q)
    .updateTable("exam_attempt")
    .set("face_flag", "reviewed")
    .where("id", "=", attemptId)
    .where("face_flag", "in", ["flagged", "stopped"])
    .returning("face_flag")
    .execute();
  return rows.length > 0;
}
