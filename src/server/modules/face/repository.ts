import type { FaceCheckResult, FaceVerdict } from "../../../shared/exam/face.ts";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import type { AttemptRow } from "../exam/attempts/attempt.ts";

/** The face module's rows (checks.ts, missed.ts and rules.ts call these; no SQL lives beside them). */

type FlagState = FaceCheckResult["flag"];
/** An official attempt with its face check counters. */
export type FaceAttemptRow = AttemptRow & { face_failures: number; face_flag: FlagState };

export interface RuleRow {
  id: number;
  before_start: boolean;
  every_minutes: number;
  random_count: number;
  threshold: string;
  liveness: boolean;
  max_failures: number;
  action: "stop" | "flag";
}

/** The enabled face rule of a room, as stored. */
export async function enabledRoomRule(q: Queryable, roomId: number): Promise<RuleRow | undefined> {
  const { rows } = await q.query<RuleRow>("select f.* from exam_room r join face_rule f on f.id = r.face_rule_id where r.id = $1 and f.status = 'enable'", [
    roomId,
  ]);
  return rows[0];
}

/* ---- reference photos ---- */

export async function hasFaceReference(q: Queryable, userId: number): Promise<boolean> {
  return (await q.query("select 1 from member_face where user_id = $1", [userId])).rows.length > 0;
}

/** The member's reference picture path, the row locked for the rest of the transaction. */
export async function lockReferencePath(q: Queryable, userId: number): Promise<string | undefined> {
  return (await q.query<{ path: string }>("select path from member_face where user_id = $1 for update", [userId])).rows[0]?.path;
}

/** Saves (or replaces) the member's reference: its picture, its descriptor and who enrolled it. */
export async function saveReference(q: Queryable, userId: number, file: string, embedding: number[], by: "member" | "admin"): Promise<void> {
  await q.query(
    `insert into member_face (user_id, path, embedding, enrolled_by, create_time) values ($1, $2, $3, $4, extract(epoch from now())::bigint)
     on conflict (user_id) do update set path = excluded.path, embedding = excluded.embedding, enrolled_by = excluded.enrolled_by, create_time = excluded.create_time`,
    [userId, file, JSON.stringify(embedding), by],
  );
}

/** The descriptor of the member's reference, if enrolled. */
export async function referenceEmbedding(q: Queryable, userId: number): Promise<number[] | undefined> {
  return (await q.query<{ embedding: number[] }>("select embedding from member_face where user_id = $1", [userId])).rows[0]?.embedding;
}

/* ---- checks of an attempt ---- */

/** Whether an attempt's before-start check has passed. */
export async function startCheckPassed(q: Queryable, attemptId: number): Promise<boolean> {
  return (await q.query("select 1 from exam_face_check where attempt_id = $1 and kind = 'start' and verdict = 'pass' limit 1", [attemptId])).rows.length > 0;
}

/** The member's official attempt of this uuid. */
export async function officialAttemptByUuid(q: Queryable, memberId: number, uuid: string): Promise<FaceAttemptRow | undefined> {
  const { rows } = await q.query<FaceAttemptRow>("select * from exam_attempt where user_id = $1 and uuid = $2 and kind = 'official'", [memberId, uuid]);
  return rows[0];
}

/** The attempt, locked for the rest of the transaction. */
export async function lockAttempt(q: Queryable, attemptId: number): Promise<FaceAttemptRow> {
  return (await q.query<FaceAttemptRow>("select * from exam_attempt where id = $1 for update", [attemptId])).rows[0]!;
}

/** How many of the attempt's checks kept their picture. */
export async function keptPictureCount(q: Queryable, attemptId: number): Promise<number> {
  return (await q.query<{ n: number }>("select count(*)::int as n from exam_face_check where attempt_id = $1 and path is not null", [attemptId])).rows[0]!.n;
}

/** Removes the missed check of this moment; true when there was one. */
export async function deleteMissedCheck(q: Queryable, attemptId: number, checkId: string): Promise<boolean> {
  return (await q.query("delete from exam_face_check where attempt_id = $1 and uuid = $2 and verdict = 'missed' returning id", [attemptId, checkId])).rows.length > 0;
}

export interface FaceCheckInsert {
  attemptId: number;
  checkId: string;
  kind: string;
  takenAt: number;
  receivedAt: number;
  path: string | null;
  faces: number | null;
  similarity: number | null;
  live: number | null;
  verdict: string;
  deviceVerdict: string | null;
  ms: number | null;
}

/** Records a check unless one of its id is there already; true when recorded. */
export async function insertFaceCheck(q: Queryable, c: FaceCheckInsert): Promise<boolean> {
  const inserted = await q.query(
    `insert into exam_face_check (attempt_id, uuid, kind, taken_at, received_at, path, faces, similarity, live, verdict, device_verdict, check_ms)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) on conflict (attempt_id, uuid) do nothing returning id`,
    [c.attemptId, c.checkId, c.kind, c.takenAt, c.receivedAt, c.path, c.faces, c.similarity, c.live, c.verdict, c.deviceVerdict, c.ms],
  );
  return inserted.rows.length > 0;
}

export async function setFaceCounters(q: Queryable, attemptId: number, failures: number, flag: FlagState): Promise<void> {
  await kyselyOf(q).updateTable("exam_attempt").set({ face_failures: failures, face_flag: flag }).where("id", "=", attemptId).execute();
}

export async function faceFailuresOf(q: Queryable, attemptId: number): Promise<number> {
  return (await q.query<{ face_failures: number }>("select face_failures from exam_attempt where id = $1", [attemptId])).rows[0]!.face_failures;
}

/** A check already recorded under this id, with the attempt's counters. */
export async function recordedCheck(
  q: Queryable,
  attemptId: number,
  checkId: string,
): Promise<{ verdict: FaceVerdict; similarity: string | null; face_failures: number; face_flag: FlagState } | undefined> {
  const { rows } = await q.query<{ verdict: FaceVerdict; similarity: string | null; face_failures: number; face_flag: FlagState }>(
    "select c.verdict, c.similarity, a.face_failures, a.face_flag from exam_face_check c join exam_attempt a on a.id = c.attempt_id where c.attempt_id = $1 and c.uuid = $2",
    [attemptId, checkId],
  );
  return rows[0];
}

/* ---- missed checks ---- */

/** Records these scheduled checks as missed, skipping any already recorded; answers how many it recorded. */
export async function insertMissedChecks(q: Queryable, attemptId: number, checks: { id: string; kind: string; at: number }[], receivedAt: number): Promise<number> {
  const { rows } = await q.query(
    `insert into exam_face_check (attempt_id, uuid, kind, taken_at, received_at, verdict)
     select $1, m.id, m.kind, m.at, $5, 'missed' from unnest($2::text[], $3::text[], $4::bigint[]) as m(id, kind, at)
     on conflict (attempt_id, uuid) do nothing returning id`,
    [attemptId, checks.map((c) => c.id), checks.map((c) => c.kind), checks.map((c) => c.at), receivedAt],
  );
  return rows.length;
}

/** Counts `missed` more failures; at `maxFailures` the attempt takes `flag` (a stopped one stays stopped). */
export async function addFaceFailures(q: Queryable, attemptId: number, missed: number, maxFailures: number, flag: "stopped" | "flagged"): Promise<void> {
  await q.query(
    `update exam_attempt set face_failures = face_failures + $2,
       face_flag = case when face_failures + $2 >= $3 and face_flag <> 'stopped' then $4 else face_flag end
     where id = $1`,
    [attemptId, missed, maxFailures, flag],
  );
}
