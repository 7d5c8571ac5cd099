import { ApiError } from "../../src/client/api/errors.ts";
import { afterEach, describe, expect, it } from "vitest";
import {
  isClosedAttemptError,
  localDeadlineMs,
  pendingOfficialAttempts,
  readOfficial,
  removeOfficial,
  withAnswer,
  writeOfficial,
  type LocalOfficialAttempt,
} from "../../src/client/features/exam/official.ts";

const attempt = (offset: number, uuid = "u".repeat(36)): LocalOfficialAttempt => ({
  attempt: { uuid, roomId: 1, paperId: 1, startedAt: 1_000, deadline: 1_900, serverTime: 1_000, answers: {} },
  questions: [],
  clockOffsetMs: offset,
  answers: { "5": "A" },
  answeredAt: { "5": 1_200_000 },
  dirty: true,
});

describe("official attempt on the device", () => {
  afterEach(() => localStorage.clear());

  it("turns the server's deadline into this device's clock", () => {
    expect(localDeadlineMs(attempt(0))).toBe(1_900_000);
    // The device's clock runs 30 s behind the server's: the deadline comes 30 s earlier locally.
    expect(localDeadlineMs(attempt(30_000))).toBe(1_870_000);
  });

  it("keeps answers on the device until submitted", () => {
    writeOfficial(attempt(0));
    expect(readOfficial("u".repeat(36))?.answers).toEqual({ "5": "A" });
    removeOfficial("u".repeat(36));
    expect(readOfficial("u".repeat(36))).toBeNull();
    localStorage.setItem(`examhub.official.${"x".repeat(36)}`, "{broken");
    expect(readOfficial("x".repeat(36))).toBeNull();
  });

  it("stamps each answer with when it was made on the server's clock", () => {
    // The device runs 30 s behind the server: an answer made at device time 1,500,000 ms was
    // made at 1,530,000 ms on the server's clock.
    const next = withAnswer(attempt(30_000), 7, ["A", "C"], 1_500_000);
    expect(next.answers).toEqual({ "5": "A", "7": ["A", "C"] });
    expect(next.answeredAt).toEqual({ "5": 1_200_000, "7": 1_530_000 });
    expect(next.dirty).toBe(true);
    const again = withAnswer({ ...next, dirty: false }, 5, "B", 1_600_000);
    expect(again.answeredAt["5"]).toBe(1_630_000);
    expect(again.dirty).toBe(true);
  });

  it("lists the attempts with answers the server has not confirmed", () => {
    writeOfficial(attempt(0, "a".repeat(36)));
    writeOfficial({ ...attempt(0, "b".repeat(36)), dirty: false });
    localStorage.setItem("unrelated", "1");
    expect(pendingOfficialAttempts().map((a) => a.attempt.uuid)).toEqual(["a".repeat(36)]);
  });

  it("recognises the server's 'attempt closed' answer", () => {
    expect(isClosedAttemptError(ApiError.fromEnvelope({ code: 0, msg: "time up", data: { closed: true } }, 200))).toBe(true);
    expect(isClosedAttemptError(ApiError.fromEnvelope({ code: 0, msg: "other", data: null }, 200))).toBe(false);
    expect(isClosedAttemptError(new Error("network"))).toBe(false);
  });
});
