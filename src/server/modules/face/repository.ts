import type { FaceCheckResult, FaceVerdict } from "../../../shared/exam/face.ts";
import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { excludedValues, kyselyOf } from "../../db/kysely.ts";
import type { AttemptRow } from "../exam/attempts/attempt.ts";
import { officialAttemptQuery } from "../exam/attempts/official.repository.ts";

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
  return kyselyOf(q)
    .selectFrom("exam_room as r")
    .innerJoin("face_rule as f", "f.id", "r.face_rule_id")
    .selectAll("f")
    .where("r.id", "=", roomId)
    .where("f.status", "=", "enable")
    .$castTo<RuleRow>()
    .executeTakeFirst();
}

/* ---- reference photos ---- */

export async function hasFaceReference(q: Queryable, userId: number): Promise<boolean> {
  return (await kyselyOf(q).selectFrom("member_face").select("user_id").where("user_id", "=", userId).executeTakeFirst()) !== undefined;
}

/** The member's reference picture path, the row locked for the rest of the transaction. */
export async function lockReferencePath(q: Queryable, userId: number): Promise<string | undefined> {
  return (await kyselyOf(q).selectFrom("member_face").select("path").where("user_id", "=", userId).forUpdate().executeTakeFirst())?.path;
}

/** Saves (or replaces) the member's reference: its picture, its descriptor and who enrolled it. */
export async function saveReference(q: Queryable, userId: number, file: string, embedding: number[], by: "member" | "admin"): Promise<void> {
  await kyselyOf(q)
    .insertInto("member_face")
    .values({ user_id: userId, path: file, embedding: JSON.stringify(embedding), enrolled_by: by, create_time: sql<number>`extract(epoch from now())::bigint` })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet(excludedValues("path", "embedding", "enrolled_by", "create_time")),
    )
    .execute();
}

/** The descriptor of the member's reference, if enrolled. */
export async function referenceEmbedding(q: Queryable, userId: number): Promise<number[] | undefined> {
  const row = await kyselyOf(q).selectFrom("member_face").select("embedding").where("user_id", "=", userId).$castTo<{ embedding: number[] }>().executeTakeFirst();
  return row?.embedding;
}

/* ---- checks of an attempt ---- */

/** Whether an attempt's before-start check has passed. */
export async function startCheckPassed(q: Queryable, attemptId: number): Promise<boolean> {
  const row = await kyselyOf(q)
    .selectFrom("exam_face_check")
    .select("id")
    .where("attempt_id", "=", attemptId)
    .where("kind", "=", "start")
    .where("verdict", "=", "pass")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The member's official attempt of this uuid. */
export async function officialAttemptByUuid(q: Queryable, memberId: number, uuid: string): Promise<FaceAttemptRow | undefined> {
  return officialAttemptQuery(q, memberId, uuid).$castTo<FaceAttemptRow>().executeTakeFirst();
}

/** The attempt, locked for the rest of the transaction. */
export async function lockAttempt(q: Queryable, attemptId: number): Promise<FaceAttemptRow> {
  return kyselyOf(q).selectFrom("exam_attempt").selectAll().where("id", "=", attemptId).forUpdate().$castTo<FaceAttemptRow>().executeTakeFirstOrThrow();
}

/** How many of the attempt's checks kept their picture. */
export async function keptPictureCount(q: Queryable, attemptId: number): Promise<number> {
  const row = await kyselyOf(q)
    .selectFrom("exam_face_check")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("attempt_id", "=", attemptId)
    .where("path", "is not", null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Removes the missed check of this moment; true when there was one. */
export async function deleteMissedCheck(q: Queryable, attemptId: number, checkId: string): Promise<boolean> {
  const deleted = await kyselyOf(q)
    .deleteFrom("exam_face_check")
    .where("attempt_id", "=", attemptId)
    .where("uuid", "=", checkId)
    .where("verdict", "=", "missed")
    .returning("id")
    .execute();
  return deleted.length > 0;
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
  const inserted = await kyselyOf(q)
    .insertInto("exam_face_check")
    .values({
      attempt_id: c.attemptId,
      uuid: c.checkId,
      kind: c.kind,
      taken_at: c.takenAt,
      received_at: c.receivedAt,
      path: c.path,
      faces: c.faces,
      similarity: c.similarity,
      live: c.live,
      verdict: c.verdict,
      device_verdict: c.deviceVerdict,
      check_ms: c.ms,
    })
    .onConflict((oc) => oc.columns(["attempt_id", "uuid"]).doNothing())
    .returning("id")
    .execute();
  return inserted.length > 0;
}

export async function setFaceCounters(q: Queryable, attemptId: number, failures: number, flag: FlagState): Promise<void> {
  await kyselyOf(q).updateTable("exam_attempt").set({ face_failures: failures, face_flag: flag }).where("id", "=", attemptId).execute();
}

export async function faceFailuresOf(q: Queryable, attemptId: number): Promise<number> {
  return (await kyselyOf(q).selectFrom("exam_attempt").select("face_failures").where("id", "=", attemptId).executeTakeFirstOrThrow()).face_failures;
}

/** A check already recorded under this id, with the attempt's counters. */
export async function recordedCheck(
  q: Queryable,
  attemptId: number,
  checkId: string,
): Promise<{ verdict: FaceVerdict; similarity: string | null; face_failures: number; face_flag: FlagState } | undefined> {
  return kyselyOf(q)
    .selectFrom("exam_face_check as c")
    .innerJoin("exam_attempt as a", "a.id", "c.attempt_id")
    .select(["c.verdict", "c.similarity", "a.face_failures", "a.face_flag"])
    .where("c.attempt_id", "=", attemptId)
    .where("c.uuid", "=", checkId)
    .$castTo<{ verdict: FaceVerdict; similarity: string | null; face_failures: number; face_flag: FlagState }>()
    .executeTakeFirst();
}

/* ---- missed checks ---- */

/** Records these scheduled checks as missed, skipping any already recorded; answers how many it recorded. */
export async function insertMissedChecks(q: Queryable, attemptId: number, checks: { id: string; kind: string; at: number }[], receivedAt: number): Promise<number> {
  const { rows } = await sql`insert into exam_face_check (attempt_id, uuid, kind, taken_at, received_at, verdict)
     select ${attemptId}, m.id, m.kind, m.at, ${receivedAt}, 'missed'
     from unnest(${checks.map((c) => c.id)}::text[], ${checks.map((c) => c.kind)}::text[], ${checks.map((c) => c.at)}::bigint[]) as m(id, kind, at)
     on conflict (attempt_id, uuid) do nothing returning id`.execute(kyselyOf(q));
  return rows.length;
}

/** Counts `missed` more failures; at `maxFailures` the attempt takes `flag` (a stopped one stays stopped). */
export async function addFaceFailures(q: Queryable, attemptId: number, missed: number, maxFailures: number, flag: "stopped" | "flagged"): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_attempt")
    .set((eb) => ({
      face_failures: eb("face_failures", "+", missed),
      face_flag: sql<string>`case when face_failures + ${missed} >= ${maxFailures} and face_flag <> 'stopped' then ${flag} else face_flag end`,
    }))
    .where("id", "=", attemptId)
    .execute();
}
