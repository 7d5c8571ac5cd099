import type { FaceCheckRow, MemberDb } from "../db.ts";

/** Face checks of official exams queued on this device until the server has judged them. */

export async function queueFaceCheck(db: MemberDb, row: Omit<FaceCheckRow, "tries">): Promise<void> {
  await db.faceChecks.put({ ...row, tries: 0 });
}

/** The queued checks, oldest first (of one attempt when `uuid` is given). */
export function queuedFaceChecks(db: MemberDb, uuid?: string): Promise<FaceCheckRow[]> {
  return uuid === undefined ? db.faceChecks.orderBy("takenAt").toArray() : db.faceChecks.where("uuid").equals(uuid).sortBy("takenAt");
}

export async function queuedFaceCheckCount(db: MemberDb, uuid: string): Promise<number> {
  return db.faceChecks.where("uuid").equals(uuid).count();
}

export async function dropFaceCheck(db: MemberDb, checkId: string): Promise<void> {
  await db.faceChecks.delete(checkId);
}

export async function countFaceCheckTry(db: MemberDb, checkId: string): Promise<void> {
  await db.faceChecks.where("checkId").equals(checkId).modify((row) => {
    row.tries += 1;
  });
}
