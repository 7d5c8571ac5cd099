import type { FaceRule } from "../../../shared/exam/face.ts";
import type { Queryable } from "../../db/index.ts";

/** A room's face rule as the server reads it. */

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

export function toFaceRule(r: RuleRow): FaceRule {
  return {
    id: r.id,
    beforeStart: r.before_start,
    everyMinutes: r.every_minutes,
    randomCount: r.random_count,
    threshold: Number(r.threshold),
    liveness: r.liveness,
    maxFailures: r.max_failures,
    action: r.action,
  };
}

/** The enabled face rule of a room, or null. */
export async function roomFaceRule(db: Queryable, roomId: number | null): Promise<FaceRule | null> {
  if (roomId === null) return null;
  const { rows } = await db.query<RuleRow>(
    "select f.* from exam_room r join face_rule f on f.id = r.face_rule_id where r.id = $1 and f.status = 'enable'",
    [roomId],
  );
  return rows[0] ? toFaceRule(rows[0]) : null;
}

