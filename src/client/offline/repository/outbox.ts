import type { OpType } from "../../../shared/sync/ops.ts";
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

/** One kind of change waiting to be sent, as the member made it. */
export interface PendingAction {
  kind: OpType;
  /** How many of them (see `actionKey`). */
  count: number;
  /** ms: when the latest of them was made. */
  at: number;
}

/**
 * What a waiting op counts as, for the member: one answer, one favourite... An answer also moves
 * the bank's position (and moving on moves it again): that is bookkeeping of the answer, not a
 * change of its own. A lesson's progress is reported as it plays: one lesson watched is one
 * change, and a question starred and unstarred is one change to its favourite. A question
 * answered right in the wrong book's practice leaves the book with the answer (`answered`: the
 * answers' question and time): that removal is part of the answer.
 */
function actionKey(row: OutboxRow, answered: ReadonlySet<string>): string | null {
  switch (row.type) {
    case "progress.set":
      return null;
    case "wrong.remove":
      return answered.has(`${row.payload.questionId}@${row.at}`) ? null : row.id;
    case "lesson.progress":
      return `lesson:${row.payload.lessonId}`;
    case "favourite.set":
      return `favourite:${row.payload.questionId}`;
    default:
      return row.id;
  }
}

/** The member's changes waiting to be sent, by kind (most recent kind first), and how many in all. */
export function summarisePending(rows: readonly OutboxRow[]): { total: number; actions: PendingAction[] } {
  const seen = new Set<string>();
  const byKind = new Map<OpType, PendingAction>();
  const answered = new Set(rows.flatMap((row) => (row.type === "practice.answer" ? [`${row.payload.questionId}@${row.at}`] : [])));
  for (const row of rows) {
    const key = actionKey(row, answered);
    if (key === null) continue;
    const entry = byKind.get(row.type);
    if (entry) {
      // A change made again (a lesson played on) is the same change, made later.
      if (!seen.has(key)) entry.count += 1;
      entry.at = Math.max(entry.at, row.at);
    } else {
      byKind.set(row.type, { kind: row.type, count: 1, at: row.at });
    }
    seen.add(key);
  }
  const actions = [...byKind.values()].sort((a, b) => b.at - a.at);
  return { total: actions.reduce((n, a) => n + a.count, 0), actions };
}

/** The member's changes waiting to be sent, by kind (the header's sync panel, read once it is open). */
export async function pendingActions(db: MemberDb): Promise<{ total: number; actions: PendingAction[] }> {
  return summarisePending(await db.outbox.where("status").equals("pending").toArray());
}

/** Op types that are not one change each (`actionKey`): read to be counted; every other pending op is one. */
const READ_TO_COUNT: readonly OpType[] = ["wrong.remove", "lesson.progress", "favourite.set"];

/**
 * How many changes wait to be sent, as `summarisePending` counts them (the header's badge), from
 * the `[status+type]` index: every pending op is one change, less the positions (bookkeeping of
 * answers), with the few kinds that merge read and counted as the panel counts them. A heavy
 * queue (thousands of answers) is counted without reading its rows.
 */
export async function pendingChangeCount(db: MemberDb): Promise<number> {
  return db.transaction("r", db.outbox, async () => {
    const pendingOf = (type: OpType) => db.outbox.where("[status+type]").equals(["pending", type]);
    const [all, positions, read] = await Promise.all([
      pendingCount(db),
      pendingOf("progress.set").count(),
      Promise.all(READ_TO_COUNT.map((type) => pendingOf(type).toArray())).then((lists) => lists.flat()),
    ]);
    // A removal that is part of an answer (the same question and time) was queued in the same
    // transaction just after it: right after it (a wrong-book set's answer) or after its review.
    const removals = read.flatMap((row) => (row.type === "wrong.remove" && row.seq !== undefined ? [row.seq - 1, row.seq - 2] : []));
    const answers = (removals.length === 0 ? [] : await db.outbox.bulkGet(removals)).filter(
      (row): row is OutboxRow => row !== undefined && row.status === "pending" && row.type === "practice.answer",
    );
    const unique = [...new Map(answers.map((row) => [row.seq, row])).values()];
    return all - positions - read.length + summarisePending([...unique, ...read]).total - unique.length;
  });
}
