import type { MemberDb, OfficialAttemptRow } from "../db.ts";
import { clockOf, enqueue, idOf, type RepoOptions } from "./shared.ts";

/**
 * Page leaves of official exams on this device (src/shared/exam/pageLeaves.ts). When
 * the exam page is hidden (another tab or app, a locked phone, the page closed or reloaded) the
 * departure is written on the attempt's row (`leftAt`, ms on the server's clock as this device
 * measures it: its clock plus the offset learnt at start); when the page is shown again (or the
 * exam is opened again after the page was closed) the leave is closed: an `official.leave` op in
 * the outbox, in the same transaction, sent with the attempt's answers by the sync engine, offline
 * too. A leave still open when the time is up ends at the deadline.
 */

/** The server's clock now, as this device measures it for the attempt (ms). */
function serverNow(row: OfficialAttemptRow, now: number): number {
  return Math.round(now + row.clockOffsetMs);
}

/**
 * Closes the row's open leave, if any: queues its op (back at `now` on the server's clock, never
 * after the deadline) and returns the row without it. Call inside a transaction holding
 * `officialAttempts` and `outbox`.
 */
export async function closeOpenLeave(db: MemberDb, row: OfficialAttemptRow, opts?: RepoOptions): Promise<OfficialAttemptRow> {
  const leftAt = row.leftAt;
  if (leftAt === undefined) return row;
  const now = clockOf(opts)();
  const backAt = Math.max(leftAt, Math.min(serverNow(row, now), row.attempt.deadline * 1000));
  await enqueue(db, { id: idOf(opts)(), type: "official.leave", at: now, payload: { uuid: row.uuid, leftAt, backAt } });
  const next = { ...row };
  delete next.leftAt;
  return next;
}

/**
 * The exam page was hidden: notes when, unless a leave is already open or the attempt's time is
 * up. Returns whether a departure was noted.
 */
export async function notePageLeft(db: MemberDb, uuid: string, opts?: RepoOptions): Promise<boolean> {
  const now = clockOf(opts)();
  return db.transaction("rw", [db.officialAttempts], async () => {
    const row = await db.officialAttempts.get(uuid);
    if (!row || row.leftAt !== undefined) return false;
    const leftAt = serverNow(row, now);
    if (leftAt >= row.attempt.deadline * 1000) return false;
    await db.officialAttempts.put({ ...row, leftAt });
    return true;
  });
}

/**
 * The exam page is shown (again): closes the open leave, if any, queueing its op. Returns whether
 * one was closed.
 */
export async function notePageBack(db: MemberDb, uuid: string, opts?: RepoOptions): Promise<boolean> {
  return db.transaction("rw", [db.officialAttempts, db.outbox], async () => {
    const row = await db.officialAttempts.get(uuid);
    if (row?.leftAt === undefined) return false;
    await db.officialAttempts.put(await closeOpenLeave(db, row, opts));
    return true;
  });
}

/** How many page leaves of this attempt wait in the outbox. */
export function unsentPageLeaves(db: MemberDb, uuid: string): Promise<number> {
  return db.outbox
    .where("[status+seq]")
    .between(["pending", -Infinity], ["pending", Infinity])
    .filter((row) => row.type === "official.leave" && row.payload.uuid === uuid)
    .count();
}
