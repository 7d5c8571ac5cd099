import type { LessonProgress } from "../../shared/course/types.ts";
import type { LessonProgressRow } from "./db.ts";

const NEVER: LessonProgress = { position: 0, completed: false, lastWatched: 0 };

/**
 * A lesson's progress as screens show it: the server's (from the course or lesson detail) and the
 * one recorded on this device, whichever was reported last, for the position; completed when
 * either says so (completion is never taken back). Equal times favour this device (its op may not
 * have reached the server yet).
 */
export function mergeLessonProgress(
  server: LessonProgress | null | undefined,
  local: Pick<LessonProgressRow, "position" | "completed" | "updatedAt"> | null | undefined,
): LessonProgress {
  const remote = server ?? NEVER;
  if (!local) return { ...remote };
  const localNewer = local.updatedAt >= remote.lastWatched * 1000;
  return {
    position: localNewer ? local.position : remote.position,
    completed: remote.completed || local.completed,
    lastWatched: Math.max(remote.lastWatched, Math.floor(local.updatedAt / 1000)),
  };
}
