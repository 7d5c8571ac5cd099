import { ApiError } from "../../src/client/api/errors.ts";
import { describe, expect, it } from "vitest";
import { isClosedAttemptError, localDeadlineMs } from "../../src/client/features/exam/official.ts";
import type { OfficialAttemptRow } from "../../src/client/offline/db.ts";
import {
  answerOfficial,
  finishOfficial,
  forgetEndedOfficial,
  forgetOfficialAttempts,
  keepOfficialAttempt,
  officialSubmission,
  pendingCount,
  storedOfficial,
  unsentOfficialAnswers,
} from "../../src/client/offline/repository/index.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { parseOp } from "../../src/shared/sync/ops.ts";
import { memberDbs } from "../helpers/memberDb.ts";

const UUID = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";
/** The server's clock at start (s): 2026-11-24 10:00:00 UTC. */
const SERVER_START = Date.UTC(2026, 10, 24, 10) / 1000;

const start = (uuid = UUID, answers: OfficialStart["attempt"]["answers"] = {}): OfficialStart => ({
  attempt: { uuid, roomId: 1, roomTitle: "Final", paperId: 1, startedAt: SERVER_START, deadline: SERVER_START + 900, serverTime: SERVER_START, answers },
  questions: [],
});

const freshDb = memberDbs(8_400);

const ids = () => {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
};

describe("official attempt on the device", () => {
  it("turns the server's deadline into this device's clock", async () => {
    const db = freshDb();
    // This device's clock runs 30 s behind the server's: the deadline comes 30 s earlier locally.
    const row = await keepOfficialAttempt(db, start(), { now: () => SERVER_START * 1000 - 30_000 });
    expect(row.clockOffsetMs).toBe(30_000);
    expect(localDeadlineMs(row)).toBe((SERVER_START + 900) * 1000 - 30_000);
  });

  it("writes each answer with its outbox op, stamped with when it was made on the server's clock", async () => {
    const db = freshDb();
    const newId = ids();
    await keepOfficialAttempt(db, start(), { now: () => SERVER_START * 1000 - 30_000 });
    // Made at device time T: T + 30 s on the server's clock.
    const at = SERVER_START * 1000 + 60_000;
    const row = await answerOfficial(db, UUID, 7, ["A", "C"], { now: () => at, newId });
    expect(row?.answers).toEqual({ "7": ["A", "C"] });
    expect(row?.answeredAt).toEqual({ "7": at + 30_000 });
    await answerOfficial(db, UUID, 8, "bad\u0000text", { now: () => at + 1000, newId });
    expect(await unsentOfficialAnswers(db, UUID)).toBe(2);
    // Counted in the "waiting to sync" badge like every other change.
    expect(await pendingCount(db)).toBe(2);
    const ops = await db.outbox.toArray();
    expect(ops.map((op) => [op.type, op.at, op.payload])).toEqual([
      ["official.answer", at, { uuid: UUID, questionId: 7, answer: ["A", "C"], answeredAt: at + 30_000 }],
      // Text the server could not store is cleaned before it is queued (it would refuse the op).
      ["official.answer", at + 1000, { uuid: UUID, questionId: 8, answer: "badtext", answeredAt: at + 31_000 }],
    ]);
    // Each op is one the server accepts.
    for (const op of ops) expect(parseOp({ id: op.id, type: op.type, at: op.at, payload: op.payload }, at + 60_000).ok).toBe(true);
    expect((await storedOfficial(db, UUID))?.answers["8"]).toBe("badtext");
    expect(await unsentOfficialAnswers(db, OTHER)).toBe(0);
  });

  it("does nothing for an attempt this device does not hold", async () => {
    const db = freshDb();
    expect(await answerOfficial(db, OTHER, 7, "A")).toBeNull();
    expect(await db.outbox.count()).toBe(0);
  });

  it("on entering again keeps this device's answers over the server's, queued ones included", async () => {
    const db = freshDb();
    const t = SERVER_START * 1000;
    await keepOfficialAttempt(db, start(), { now: () => t });
    await answerOfficial(db, UUID, 5, "B", { now: () => t + 10_000 });
    // The server holds an older answer to 5 and one to 6 this device never saw.
    let row = await keepOfficialAttempt(db, start(UUID, { "5": "A", "6": "T" }), { now: () => t + 20_000 });
    expect(row.answers).toEqual({ "5": "B", "6": "T" });
    // The member signed out (the row is forgotten, the op stays) and enters again.
    await forgetOfficialAttempts(db);
    expect(await storedOfficial(db, UUID)).toBeNull();
    expect(await unsentOfficialAnswers(db, UUID)).toBe(1);
    row = await keepOfficialAttempt(db, start(UUID, { "5": "A" }), { now: () => t + 30_000 });
    expect(row.answers).toEqual({ "5": "B" });
    expect(row.answeredAt).toEqual({ "5": t + 10_000 });
  });

  it("submitting sends every answer with its time; finished, the attempt and its queued answers go", async () => {
    const db = freshDb();
    const t = SERVER_START * 1000;
    await keepOfficialAttempt(db, start(), { now: () => t });
    await keepOfficialAttempt(db, start(OTHER), { now: () => t });
    await answerOfficial(db, UUID, 5, "A", { now: () => t + 1000 });
    await answerOfficial(db, OTHER, 5, "B", { now: () => t + 2000 });
    const row = (await storedOfficial(db, UUID)) as OfficialAttemptRow;
    expect(officialSubmission(row)).toEqual({ uuid: UUID, answers: { "5": "A" }, answeredAt: { "5": t + 1000 } });
    await finishOfficial(db, UUID);
    expect(await storedOfficial(db, UUID)).toBeNull();
    expect(await unsentOfficialAnswers(db, UUID)).toBe(0);
    // The other attempt is untouched.
    expect(await unsentOfficialAnswers(db, OTHER)).toBe(1);
    expect(await storedOfficial(db, OTHER)).not.toBeNull();
  });

  it("submits answers as the server can store them, whatever the stored row holds", async () => {
    const db = freshDb();
    await keepOfficialAttempt(db, start(), { now: () => SERVER_START * 1000 });
    // A row written before answers were cleaned (or by hand): a NUL and an unpaired surrogate.
    const row = { ...((await storedOfficial(db, UUID)) as OfficialAttemptRow), answers: { "5": "A\u0000", "6": ["x\u0000y", "z\udc00"], "7": "B" } };
    expect(officialSubmission(row).answers).toEqual({ "5": "A", "6": ["xy", "z\ufffd"], "7": "B" });
  });

  it("forgets ended attempts only once the server has all their answers", async () => {
    const db = freshDb();
    const t = SERVER_START * 1000;
    await keepOfficialAttempt(db, start(), { now: () => t });
    await keepOfficialAttempt(db, start(OTHER), { now: () => t });
    await answerOfficial(db, OTHER, 5, "B", { now: () => t + 2000 });
    // Before the deadline and its grace: nothing goes.
    expect(await forgetEndedOfficial(db, { now: () => (SERVER_START + 900 + 60) * 1000 })).toBe(0);
    // After it: the attempt with nothing unsent goes; the one with an answer still queued stays.
    expect(await forgetEndedOfficial(db, { now: () => (SERVER_START + 900 + 61) * 1000 })).toBe(1);
    expect(await storedOfficial(db, UUID)).toBeNull();
    expect(await storedOfficial(db, OTHER)).not.toBeNull();
  });

  it("recognises the server's 'attempt closed' answer", () => {
    expect(isClosedAttemptError(ApiError.fromEnvelope({ code: 0, msg: "time up", data: { closed: true } }, 200))).toBe(true);
    expect(isClosedAttemptError(ApiError.fromEnvelope({ code: 0, msg: "other", data: null }, 200))).toBe(false);
    expect(isClosedAttemptError(new Error("network"))).toBe(false);
  });
});
