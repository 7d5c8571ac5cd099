import { describe, expect, it } from "vitest";
import { FACE_MISSED_GRACE_MS, FACE_TAIL_MS, dueFaceChecks, faceRuleAdd, faceSchedule, scheduledCheckId } from "../../src/shared/exam/face.ts";

const MIN = 60_000;

describe("faceSchedule", () => {
  it("checks at the start only when that is all the rule asks", () => {
    expect(faceSchedule({ beforeStart: true, everyMinutes: 0, randomCount: 0 }, 60 * MIN, "u")).toEqual([{ offset: 0, kind: "start" }]);
  });

  it("checks every N minutes after the start, never at 0 and never in the last half minute", () => {
    const moments = faceSchedule({ beforeStart: false, everyMinutes: 10, randomCount: 0 }, 30 * MIN, "u");
    // 30 minutes: 10 and 20; 30 is the end itself.
    expect(moments).toEqual([
      { offset: 10 * MIN, kind: "interval" },
      { offset: 20 * MIN, kind: "interval" },
    ]);
    // A check 10 s before the end is dropped (within FACE_TAIL_MS).
    expect(faceSchedule({ beforeStart: false, everyMinutes: 10, randomCount: 0 }, 20 * MIN + 10_000, "u").map((m) => m.offset)).toEqual([10 * MIN]);
  });

  it("draws K random moments inside the attempt, the same for the same attempt and different for another", () => {
    const rule = { beforeStart: true, everyMinutes: 0, randomCount: 5 };
    const a = faceSchedule(rule, 60 * MIN, "3f1c2d4e-0000-4000-8000-000000000001");
    const again = faceSchedule(rule, 60 * MIN, "3f1c2d4e-0000-4000-8000-000000000001");
    const other = faceSchedule(rule, 60 * MIN, "3f1c2d4e-0000-4000-8000-000000000002");
    expect(a).toEqual(again);
    expect(a.map((m) => m.offset)).not.toEqual(other.map((m) => m.offset));
    expect(a[0]).toEqual({ offset: 0, kind: "start" });
    const random = a.filter((m) => m.kind === "random");
    expect(random).toHaveLength(5);
    for (const m of random) {
      expect(m.offset).toBeGreaterThanOrEqual(1000);
      expect(m.offset).toBeLessThan(60 * MIN - FACE_TAIL_MS);
    }
  });

  it("lists moments in time order and merges moments less than a second apart", () => {
    const moments = faceSchedule({ beforeStart: true, everyMinutes: 1, randomCount: 20 }, 5 * MIN, "seed");
    for (let i = 1; i < moments.length; i++) expect(moments[i]!.offset - moments[i - 1]!.offset).toBeGreaterThanOrEqual(1000);
    expect(moments.filter((m) => m.kind === "interval").map((m) => m.offset)).toEqual([1, 2, 3, 4].map((n) => n * MIN));
  });

  it("has no random moments when the attempt is too short for them", () => {
    expect(faceSchedule({ beforeStart: false, everyMinutes: 0, randomCount: 3 }, 20_000, "u")).toEqual([]);
  });
});

describe("dueFaceChecks (the scheduled checks the server expects when an attempt closes)", () => {
  const every10 = { beforeStart: true, everyMinutes: 10, randomCount: 0 };

  it("never expects the start check (the gate enforces it), only the scheduled ones past their grace", () => {
    // A 60-minute attempt submitted after 35 minutes: 10, 20 and 30 were due; 40 and 50 never came.
    expect(dueFaceChecks(every10, 60 * MIN, 35 * MIN, "u")).toEqual([
      { offset: 10 * MIN, kind: "interval" },
      { offset: 20 * MIN, kind: "interval" },
      { offset: 30 * MIN, kind: "interval" },
    ]);
    // Submitted 30 s after the 30-minute moment: within the grace, that check is not missed yet.
    expect(dueFaceChecks(every10, 60 * MIN, 30 * MIN + 30_000, "u").map((m) => m.offset)).toEqual([10 * MIN, 20 * MIN]);
    expect(dueFaceChecks(every10, 60 * MIN, 30 * MIN + FACE_MISSED_GRACE_MS, "u").map((m) => m.offset)).toEqual([10 * MIN, 20 * MIN, 30 * MIN]);
    // Submitted at once: nothing was due; a start-only rule never expects anything.
    expect(dueFaceChecks(every10, 60 * MIN, 5 * MIN, "u")).toEqual([]);
    expect(dueFaceChecks({ beforeStart: true, everyMinutes: 0, randomCount: 0 }, 60 * MIN, 60 * MIN, "u")).toEqual([]);
  });

  it("takes the random moments from the same schedule the device follows (same seed, same moments)", () => {
    const rule = { beforeStart: false, everyMinutes: 0, randomCount: 6 };
    const seed = "3f1c2d4e-0000-4000-8000-000000000009";
    const schedule = faceSchedule(rule, 60 * MIN, seed);
    const due = dueFaceChecks(rule, 60 * MIN, 40 * MIN, seed);
    expect(due).toEqual(schedule.filter((m) => m.offset + FACE_MISSED_GRACE_MS <= 40 * MIN));
    // An expired attempt (it ran its whole time): every moment but those in the last minute.
    expect(dueFaceChecks(rule, 60 * MIN, 60 * MIN, seed)).toEqual(schedule.filter((m) => m.offset <= 59 * MIN));
    expect(dueFaceChecks(rule, 60 * MIN, 60 * MIN, seed, 0)).toEqual(schedule);
  });

  it("names each scheduled check by the attempt and its moment", () => {
    expect(scheduledCheckId("abc", 600_000)).toBe("abc:600000");
  });
});

describe("faceRuleAdd", () => {
  it("needs at least one check and a threshold in (0, 1]", () => {
    expect(faceRuleAdd.safeParse({ name: "x", before_start: false, every_minutes: 0, random_count: 0, threshold: 0.6 }).success).toBe(false);
    expect(faceRuleAdd.safeParse({ name: "x", threshold: 0 }).success).toBe(false);
    expect(faceRuleAdd.safeParse({ name: "x", threshold: 1.2 }).success).toBe(false);
    const ok = faceRuleAdd.parse({ name: "Strict", threshold: 0.65, random_count: 2, action: "stop" });
    expect(ok).toMatchObject({ before_start: true, every_minutes: 0, random_count: 2, liveness: false, max_failures: 3, action: "stop" });
  });
});
