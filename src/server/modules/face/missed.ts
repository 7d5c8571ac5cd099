import { dueFaceChecks, scheduledCheckId } from "../../../shared/exam/face.ts";
import type { Queryable } from "../../db/index.ts";
import { addFaceFailures, insertMissedChecks } from "./repository.ts";
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
  const checks = due.map((m) => ({ id: scheduledCheckId(attempt.uuid, m.offset), kind: m.kind, at: started * 1000 + m.offset }));
  const missed = await insertMissedChecks(db, attempt.id, checks, Date.now());
  if (missed === 0) return 0;
  await addFaceFailures(db, attempt.id, missed, rule.maxFailures, rule.action === "stop" ? "stopped" : "flagged");
  return missed;
}
