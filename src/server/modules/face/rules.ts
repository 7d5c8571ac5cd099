import type { FaceRule } from "../../../shared/exam/face.ts";
import type { Queryable } from "../../db/index.ts";
import { enabledRoomRule, type RuleRow } from "./repository.ts";

/** A room's face rule as the server reads it. */

export type { RuleRow } from "./repository.ts";

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
  const row = await enabledRoomRule(db, roomId);
  return row ? toFaceRule(row) : null;
}

