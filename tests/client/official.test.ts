import { afterEach, describe, expect, it } from "vitest";
import { localDeadlineMs, readOfficial, removeOfficial, writeOfficial, type LocalOfficialAttempt } from "../../src/client/features/exam/official.ts";

const attempt = (offset: number): LocalOfficialAttempt => ({
  attempt: { uuid: "u".repeat(36), roomId: 1, paperId: 1, startedAt: 1_000, deadline: 1_900, serverTime: 1_000, answers: {} },
  questions: [],
  clockOffsetMs: offset,
  answers: { "5": "A" },
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
});
