import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rating, State } from "ts-fsrs";
import {
  DEFAULT_RETENTION,
  GRADUATE_STREAK,
  clampRetention,
  estimateSeconds,
  graduated,
  inShortStep,
  isDue,
  newCardState,
  previewRatings,
  ratingOf,
  replayCard,
  replayCards,
  retrievability,
  type ReviewLogEntry,
} from "../../src/shared/exam/review.ts";

const T0 = Date.UTC(2026, 0, 5, 8); // a Monday, 08:00 UTC
const DAY = 86_400_000;
const log = (opId: string, at: number, correct: boolean, extra: Partial<ReviewLogEntry> = {}): ReviewLogEntry => ({
  opId,
  questionId: 1,
  at,
  correct,
  grade: null,
  retention: DEFAULT_RETENTION,
  ...extra,
});
const iso = (ms: number) => new Date(ms).toISOString();

describe("ratingOf: the rating from the result", () => {
  it("wrong is Again whatever the member says; right is Good, Hard or Easy", () => {
    expect(ratingOf(false, null)).toBe(Rating.Again);
    expect(ratingOf(false, "easy")).toBe(Rating.Again);
    expect(ratingOf(false, "hard")).toBe(Rating.Again);
    expect(ratingOf(true, null)).toBe(Rating.Good);
    expect(ratingOf(true, undefined)).toBe(Rating.Good);
    expect(ratingOf(true, "hard")).toBe(Rating.Hard);
    expect(ratingOf(true, "easy")).toBe(Rating.Easy);
  });
});

describe("scheduling through ts-fsrs, fixed dates", () => {
  it("a new card answered wrong takes the 10-minute learning step; right answers push it out further each time", () => {
    const first = replayCard(1, [log("a", T0, false)]);
    expect(first).toMatchObject({ reps: 1, lapses: 0, state: State.Learning, lastReview: T0, streak: 0 });
    expect(iso(first.due)).toBe("2026-01-05T08:10:00.000Z");
    expect(inShortStep(first)).toBe(true);
    const second = replayCard(1, [log("a", T0, false), log("b", T0 + DAY, true)]);
    expect(second.state).toBe(State.Review);
    expect(inShortStep(second)).toBe(false);
    expect(iso(second.due)).toBe("2026-01-08T08:00:00.000Z");
    const third = replayCard(1, [log("a", T0, false), log("b", T0 + DAY, true), log("c", T0 + 4 * DAY, true)]);
    expect(third.due - third.lastReview!).toBeGreaterThan(second.due - second.lastReview!);
    expect(third).toMatchObject({ reps: 3, streak: 2, streakSince: T0 + DAY });
  });

  it("a right answer, hard or not, leaves the steps at once and is scheduled in days", () => {
    for (const grade of ["hard", null, "easy"] as const) {
      const card = replayCard(1, [log("a", T0, true, { grade })]);
      expect(card.state).toBe(State.Review);
      expect(card.due - T0).toBeGreaterThanOrEqual(DAY);
    }
  });

  it("a lapse of a card in review takes the 10-minute relearning step; answered right then, it is back in review", () => {
    const logs = [log("a", T0, true), log("b", T0 + 5 * DAY, false)];
    const lapsed = replayCard(1, logs);
    expect(lapsed).toMatchObject({ state: State.Relearning, lapses: 1 });
    expect(lapsed.due - (T0 + 5 * DAY)).toBe(10 * 60_000);
    const relearnt = replayCard(1, [...logs, log("c", T0 + 5 * DAY + 2 * 60_000, true)]);
    expect(relearnt.state).toBe(State.Review);
    expect(relearnt.due - relearnt.lastReview!).toBeGreaterThanOrEqual(DAY);
  });

  it("previews each rating's next due date exactly as reviewing with it would give, without reviewing", () => {
    const card = replayCard(1, [log("a", T0, true)]);
    const when = T0 + 3 * DAY;
    const preview = previewRatings(card, when, DEFAULT_RETENTION);
    expect(preview.again).toBe(replayCard(1, [log("a", T0, true), log("b", when, false)]).due);
    expect(preview.hard).toBe(replayCard(1, [log("a", T0, true), log("b", when, true, { grade: "hard" })]).due);
    expect(preview.good).toBe(replayCard(1, [log("a", T0, true), log("b", when, true)]).due);
    expect(preview.easy).toBe(replayCard(1, [log("a", T0, true), log("b", when, true, { grade: "easy" })]).due);
    expect(preview.again).toBe(when + 10 * 60_000);
    expect(preview.again < preview.hard && preview.hard <= preview.good && preview.good < preview.easy).toBe(true);
    // The card itself is untouched.
    expect(card).toEqual(replayCard(1, [log("a", T0, true)]));
    expect(previewRatings(newCardState(1), T0, DEFAULT_RETENTION).again).toBe(T0 + 10 * 60_000);
  });

  it("easy schedules later than good, good later than hard", () => {
    const after = (grade: "hard" | "easy" | null) => replayCard(1, [log("a", T0, true, { grade })]).due;
    expect(after("easy")).toBeGreaterThan(after(null));
    expect(after(null)).toBeGreaterThanOrEqual(after("hard"));
  });

  it("a higher desired retention schedules sooner", () => {
    const history = (retention: number) => [log("a", T0, true, { retention }), log("b", T0 + 3 * DAY, true, { retention })];
    expect(replayCard(1, history(0.97)).due).toBeLessThan(replayCard(1, history(0.8)).due);
  });

  it("a lapse after a review counts and resets the streak", () => {
    const card = replayCard(1, [log("a", T0, true), log("b", T0 + 3 * DAY, true), log("c", T0 + 10 * DAY, false)]);
    expect(card).toMatchObject({ lapses: 1, streak: 0, streakSince: null });
  });

  it("retrievability falls with time; a never-reviewed card is due and has none", () => {
    const card = replayCard(1, [log("a", T0, true)]);
    const soon = retrievability(card, T0 + DAY)!;
    const later = retrievability(card, T0 + 30 * DAY)!;
    expect(soon).toBeGreaterThan(later);
    expect(later).toBeGreaterThan(0);
    expect(retrievability(replayCard(1, []), T0)).toBeNull();
    expect(isDue(replayCard(1, []), T0)).toBe(true);
    expect(isDue(card, card.due - 1)).toBe(false);
    expect(isDue(card, card.due)).toBe(true);
  });

  it("graduates after GRADUATE_STREAK right answers in a row since the latest wrong answer", () => {
    const logs = Array.from({ length: GRADUATE_STREAK }, (_, i) => log(`r${i}`, T0 + (i + 1) * DAY, true));
    expect(graduated(replayCard(1, logs.slice(0, -1)), T0)).toBe(false);
    expect(graduated(replayCard(1, logs), T0)).toBe(true);
    // A wrong answer in practice after the streak began: not yet.
    expect(graduated(replayCard(1, logs), T0 + 2 * DAY)).toBe(false);
  });

  it("clamps the retention and estimates time by question type", () => {
    expect(clampRetention(0.5)).toBe(0.7);
    expect(clampRetention(1)).toBe(0.99);
    expect(clampRetention(Number.NaN)).toBe(DEFAULT_RETENTION);
    expect(estimateSeconds(["single", "short", "judge"])).toBe(20 + 90 + 15);
  });
});

describe("replay: the same logs in any order, duplicated, give the same cards (property)", () => {
  const logArb = fc.record({
    opId: fc.uuid(),
    questionId: fc.integer({ min: 1, max: 4 }),
    // Few distinct times so that ties on time (broken by op id) happen often.
    at: fc.integer({ min: 0, max: 40 }).map((n) => T0 + n * (DAY / 2)),
    correct: fc.boolean(),
    grade: fc.constantFrom(null, "hard" as const, "easy" as const),
    retention: fc.constantFrom(0.8, 0.9, 0.95),
  });

  it("holds for two devices' logs arriving in any interleaving", () => {
    fc.assert(
      fc.property(fc.array(logArb, { maxLength: 25 }), fc.array(fc.nat(), { maxLength: 10 }), fc.integer(), (logs, dupes, seed) => {
        const reference = replayCards(logs);
        const shuffled = fc.sample(fc.shuffledSubarray(logs, { minLength: logs.length, maxLength: logs.length }), { numRuns: 1, seed })[0]!;
        const withDuplicates = [...shuffled, ...dupes.flatMap((i) => (logs.length > 0 ? [logs[i % logs.length]!] : []))];
        expect(replayCards(withDuplicates)).toEqual(reference);
      }),
      { numRuns: 200 },
    );
  });
});
