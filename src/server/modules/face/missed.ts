import { dueFaceChecks, scheduledCheckId } from "../../../shared/exam/face.ts";
import type { Queryable } from "../../db/index.ts";
import { roomFaceRule } from "./rules.ts";

/**
 * Scheduled face checks the device never sent. When an official attempt closes
 * (submitted, expired at its deadline, or stopped), every interval or random check of its rule
 * that was due (`dueFaceChecks`, the schedule the device follows, with its grace) and has no
 * check of its id (`scheduledCheckId`) is recorded as a `missed` check at its moment and counts
 * as a failure; at the rule's `max_failures` the attempt is flagged for review or, under a `stop`
 * rule, marked stopped (it is closing anyway). A snapshot of that moment arriving later (queued
 * offline) takes the missed check's place (recordFaceCheck). Answers the number recorded.
 */
export async function recordMissedChecks(
  db: Queryable,
  attempt: { id: number; uuid: string; room_id: number | null; started_at: number | string; deadline: number | string | null },
  endedAt: number,
): Promise<number> {
  if (attempt.deadline === null) return 0;
  const rule = await roomFaceRule(db, attempt.room_id);
  if (!rule) return 0;
  const started = Number(attempt.started_at);
  const due = dueFaceChecks(rule, (Number(attempt.deadline) - started) * 1000, (endedAt - started) * 1000, attempt.uuid);
  if (due.length === 0) return 0;
  const { rows } = await db.query(
    `insert into exam_face_check (attempt_id, uuid, kind, taken_at, received_at, verdict)
     select $1, m.id, m.kind, m.at, $5, 'missed' from unnest($2::text[], $3::text[], $4::bigint[]) as m(id, kind, at)
     on conflict (attempt_id, uuid) do nothing returning id`,
    [attempt.id, due.map((m) => scheduledCheckId(attempt.uuid, m.offset)), due.map((m) => m.kind), due.map((m) => started * 1000 + m.offset), Date.now()],
  );
  const missed = rows.length;
  if (missed === 0) return 0;
  await db.query(
    `update exam_attempt set face_failures = face_failures + $2,
       face_flag = case when face_failures + $2 >= $3 and face_flag <> 'stopped' then $4 else face_flag end
     where id = $1`,
    [attempt.id, missed, rule.maxFailures, rule.action === "stop" ? "stopped" : "flagged"],
  );
  return missed;
}
