import type { MemberDb, OutboxRow } from "../db.ts";

/** The outbox as the member sees it: the pending count, refused and set-aside changes. */

/** Ops waiting to be sent (the "answers waiting to sync" badge). */
export function pendingCount(db: MemberDb): Promise<number> {
  return db.outbox.where("status").equals("pending").count();
}

/** Ops the server refused, oldest first, with its reason in `msg` (never retried automatically). */
export function rejectedOps(db: MemberDb): Promise<OutboxRow[]> {
  return db.outbox.where("[status+seq]").between(["rejected", -Infinity], ["rejected", Infinity]).toArray();
}

/** The member dismisses a rejected op. */
export async function discardRejected(db: MemberDb, opId: string): Promise<void> {
  await db.outbox.where("id").equals(opId).and((row) => row.status === "rejected").delete();
}

/**
 * The member sends an op the device set aside (the server kept failing on it) again: it goes
 * back into the queue at its old place, with its failures forgotten. Ops the server rejected
 * stay rejected (the server answered them; sending them again changes nothing).
 */
export async function retrySetAside(db: MemberDb, opId: string): Promise<void> {
  await db.outbox
    .where("id")
    .equals(opId)
    .and((row) => row.status === "rejected" && row.setAside === true)
    .modify((row) => {
      row.status = "pending";
      delete row.setAside;
      delete row.msg;
      row.failures = 0;
    });
}
