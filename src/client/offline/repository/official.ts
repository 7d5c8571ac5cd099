import { SUBMIT_GRACE_SECONDS, type OfficialStart } from "../../../shared/exam/official.ts";
import type { GivenAnswer } from "../../../shared/exam/types.ts";
import type { OpOf } from "../../../shared/sync/ops.ts";
import type { MemberDb, OfficialAttemptRow, OutboxRow } from "../db.ts";
import { closeOpenLeave } from "./pageLeaves.ts";
import { clockOf, enqueue, idOf, storable, type RepoOptions } from "./shared.ts";

/**
 * Official exams on this device. The attempt lives on the server, on its clock; the device keeps
 * its questions and the member's answers (a row of `officialAttempts`), and every answer goes
 * into the one outbox as an `official.answer` op stamped with when it was made on the server's
 * clock. So official answers are sent like every other change (same backoff, token refresh and
 * pending badge), survive a closed page or a reload offline, and belong to the member's own
 * database.
 */

type OfficialOp = OutboxRow & OpOf<"official.answer">;

function officialOpsOf(db: MemberDb, uuid: string, status: OutboxRow["status"] = "pending"): Promise<OfficialOp[]> {
  return db.outbox
    .where("[status+seq]")
    .between([status, -Infinity], [status, Infinity])
    .filter((row) => row.type === "official.answer" && row.payload.uuid === uuid)
    .toArray() as Promise<OfficialOp[]>;
}

/**
 * Keeps the attempt the server answered at start on this device, with the answers the member
 * made here winning over the server's copy: those of the stored row, and those still waiting in
 * the outbox (after a logout forgot the row), the later made of two winning.
 */
export async function keepOfficialAttempt(db: MemberDb, start: OfficialStart, opts?: RepoOptions): Promise<OfficialAttemptRow> {
  const now = clockOf(opts)();
  const uuid = start.attempt.uuid;
  return db.transaction("rw", [db.officialAttempts, db.outbox], async () => {
    const stored = await db.officialAttempts.get(uuid);
    const answers: Record<string, GivenAnswer> = { ...start.attempt.answers, ...(stored?.answers ?? {}) };
    const answeredAt: Record<string, number> = { ...(stored?.answeredAt ?? {}) };
    for (const op of await officialOpsOf(db, uuid)) {
      const key = String(op.payload.questionId);
      if ((answeredAt[key] ?? -1) <= op.payload.answeredAt) {
        answers[key] = op.payload.answer;
        answeredAt[key] = op.payload.answeredAt;
      }
    }
    const row: OfficialAttemptRow = { ...start, uuid, clockOffsetMs: start.attempt.serverTime * 1000 - now, answers, answeredAt };
    // A page leave still open (the page was closed during the exam) stays open until the page shows.
    if (stored?.leftAt !== undefined) row.leftAt = stored.leftAt;
    await db.officialAttempts.put(row);
    return row;
  });
}

/**
 * Records an answer of an official exam: the row and its `official.answer` op in one
 * transaction, the answer stamped with when it was made on the server's clock. Returns the row
 * as stored, or null when this device does not hold the attempt.
 */
export async function answerOfficial(db: MemberDb, uuid: string, questionId: number, answer: GivenAnswer, opts?: RepoOptions): Promise<OfficialAttemptRow | null> {
  const now = clockOf(opts)();
  return db.transaction("rw", [db.officialAttempts, db.outbox], async () => {
    const row = await db.officialAttempts.get(uuid);
    if (!row) return null;
    const key = String(questionId);
    const value = storable(answer);
    const answeredAt = Math.round(now + row.clockOffsetMs);
    const next: OfficialAttemptRow = { ...row, answers: { ...row.answers, [key]: value }, answeredAt: { ...row.answeredAt, [key]: answeredAt } };
    await db.officialAttempts.put(next);
    await enqueue(db, { id: idOf(opts)(), type: "official.answer", at: now, payload: { uuid, questionId, answer: value, answeredAt } });
    return next;
  });
}

/** The official attempt on this device, or null. */
export async function storedOfficial(db: MemberDb, uuid: string): Promise<OfficialAttemptRow | null> {
  return (await db.officialAttempts.get(uuid)) ?? null;
}

/** How many answers of this official attempt wait in the outbox (0: the server has them all). */
export async function unsentOfficialAnswers(db: MemberDb, uuid: string): Promise<number> {
  return (await officialOpsOf(db, uuid)).length;
}

/**
 * Answers as the server can store them (`storable`: NULs dropped, unpaired surrogates replaced),
 * for whatever sends a set of official answers at once, so that a NUL pasted into one text answer
 * never gets the whole set refused.
 */
export function storableAnswers(answers: Record<string, GivenAnswer>): Record<string, GivenAnswer> {
  return Object.fromEntries(Object.entries(answers).map(([id, answer]) => [id, storable(answer)]));
}

/** What a submission sends: every answer on this device (as the server can store it) with when it was made. */
export function officialSubmission(row: OfficialAttemptRow): { uuid: string; answers: Record<string, GivenAnswer>; answeredAt: Record<string, number> } {
  return { uuid: row.uuid, answers: storableAnswers(row.answers), answeredAt: row.answeredAt };
}

/**
 * The attempt is over on the server (submitted with every answer of this device, or closed): the
 * device forgets it and drops its answers still queued (the submission carried them).
 */
export async function finishOfficial(db: MemberDb, uuid: string, opts?: RepoOptions): Promise<void> {
  await db.transaction("rw", [db.officialAttempts, db.outbox], async () => {
    // A page leave still open is recorded (page leaves are not part of the submission).
    const row = await db.officialAttempts.get(uuid);
    if (row) await closeOpenLeave(db, row, opts);
    const queued = await officialOpsOf(db, uuid);
    await db.outbox.bulkDelete(queued.flatMap((op) => (op.seq === undefined ? [] : [op.seq])));
    await db.officialAttempts.delete(uuid);
  });
}

/**
 * The member signs out: the exams' questions do not stay on the device. Answers the server has
 * not taken yet stay in the outbox and are sent when the member signs in again (an exam entered
 * again gets them back, `keepOfficialAttempt`), and so do its page leaves.
 */
export async function forgetOfficialAttempts(db: MemberDb, opts?: RepoOptions): Promise<void> {
  await db.transaction("rw", [db.officialAttempts, db.outbox], async () => {
    // Page leaves still open are recorded now (their op stays queued like the answers).
    for (const row of await db.officialAttempts.toArray()) await closeOpenLeave(db, row, opts);
    await db.officialAttempts.clear();
  });
}

/**
 * Forgets the attempts whose time is up on the server's clock (deadline and grace passed) and
 * whose answers all reached the server: the server has closed and graded them.
 */
export async function forgetEndedOfficial(db: MemberDb, opts?: RepoOptions): Promise<number> {
  const now = clockOf(opts)();
  return db.transaction("rw", [db.officialAttempts, db.outbox], async () => {
    let forgotten = 0;
    for (const row of await db.officialAttempts.toArray()) {
      const endedAt = (row.attempt.deadline + SUBMIT_GRACE_SECONDS) * 1000 - row.clockOffsetMs;
      if (endedAt >= now || (await officialOpsOf(db, row.uuid)).length > 0) continue;
      // A page leave still open (the page closed and not opened again in time) ends at the deadline.
      await closeOpenLeave(db, row, opts);
      await db.officialAttempts.delete(row.uuid);
      forgotten++;
    }
    return forgotten;
  });
}
