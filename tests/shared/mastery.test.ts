import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addAnswer, addQuestion, emptyTopic, finishMastery, questionMastery, weakestTopic } from "../../src/shared/exam/mastery.ts";
import { DEFAULT_RETENTION, replayCard, type ReviewLogEntry } from "../../src/shared/exam/review.ts";

/** Mastery and correct rate: what each means, so the two shown side by side never contradict. */

const T0 = Date.UTC(2026, 0, 5, 8); // a Monday, 08:00 UTC
const DAY = 86_400_000;
const log = (opId: string, at: number, correct: boolean, questionId = 1): ReviewLogEntry => ({ opId, questionId, at, correct, grade: null, retention: DEFAULT_RETENTION });

describe("questionMastery: how likely one question is to be answered right now", () => {
  it("is 0 when its latest graded result was wrong, 1 when right and not reviewed, nothing when ungraded", () => {
    expect(questionMastery({ correct: false, at: T0 }, null, T0)).toBe(0);
    expect(questionMastery({ correct: true, at: T0 }, null, T0)).toBe(1);
    expect(questionMastery(null, null, T0)).toBeNull();
  });

  it("is 0 right after a wrong review (the short relearning step), though FSRS's recall is still high", () => {
    const card = replayCard(1, [log("a", T0, true), log("b", T0 + 3 * DAY, false)]);
    expect(questionMastery({ correct: false, at: T0 + 3 * DAY }, card, T0 + 3 * DAY + 60_000)).toBe(0);
    expect(questionMastery(null, card, T0 + 3 * DAY + 60_000)).toBe(0);
  });

  it("follows whichever is later, the practice answer or the review", () => {
    const card = replayCard(1, [log("a", T0, true)]);
    // Answered wrong in practice after the review: 0.
    expect(questionMastery({ correct: false, at: T0 + DAY }, card, T0 + 2 * DAY)).toBe(0);
    // Reviewed right after a wrong practice answer: the review's recall.
    expect(questionMastery({ correct: false, at: T0 - DAY }, card, T0 + 60_000)).toBeGreaterThan(0.95);
  });

  it("is FSRS's recall for a reviewed card: high just after a right review, lower as time passes", () => {
    const card = replayCard(1, [log("a", T0, true)]);
    const soon = questionMastery({ correct: true, at: T0 }, card, T0 + 60_000)!;
    const later = questionMastery({ correct: true, at: T0 }, card, T0 + 30 * DAY)!;
    expect(soon).toBeGreaterThan(0.95);
    expect(later).toBeLessThan(soon);
    expect(later).toBeGreaterThan(0);
  });
});

describe("a topic's mastery and correct rate", () => {
  it("after a session with 2 wrong of 7, neither says 100 %: both count the wrong ones", () => {
    const topic = emptyTopic(7, "Maths", "single");
    for (let id = 1; id <= 7; id++) {
      const correct = id > 2;
      addAnswer(topic, correct, T0 + id, T0 - DAY);
      addQuestion(topic, { correct, at: T0 + id }, replayCard(id, [log(`r${id}`, T0 + id, correct, id)]), T0 + DAY);
    }
    const [done] = finishMastery([topic]);
    expect(done).toMatchObject({ answered: 7, correct: 5 });
    expect(done!.mastery).toBeLessThanOrEqual(5 / 7);
    expect(done!.mastery).toBeGreaterThan(0.5);
  });

  it("leaves ungraded answers (a short answer waiting for a teacher) out of both, and such a topic out of the weakest", () => {
    const waiting = emptyTopic(7, "Maths", "short");
    addAnswer(waiting, null, T0, T0 - DAY);
    addQuestion(waiting, null, null, T0);
    const known = emptyTopic(7, "Maths", "single");
    addAnswer(known, true, T0, T0 - DAY);
    addAnswer(known, null, T0, T0 - DAY);
    addQuestion(known, { correct: true, at: T0 }, null, T0);
    const topics = finishMastery([waiting, known]);
    expect(topics.find((t) => t.type === "short")).toMatchObject({ answered: 0, correct: 0, mastery: null, weeks: [] });
    expect(topics.find((t) => t.type === "single")).toMatchObject({ answered: 1, correct: 1, mastery: 1, weeks: [{ week: "2026-01-05", answered: 1, correct: 1 }] });
    expect(weakestTopic(topics)?.type).toBe("single");
  });

  it("picks the lowest mastery as the weakest, the one with more answers on a tie", () => {
    const topics = [
      { id: "a", mastery: 0.8, answered: 3 },
      { id: "b", mastery: 0.4, answered: 1 },
      { id: "c", mastery: 0.4, answered: 5 },
      { id: "d", mastery: null, answered: 9 },
    ];
    expect(weakestTopic(topics)?.id).toBe("c");
    expect(weakestTopic([{ mastery: null, answered: 2 }])).toBeUndefined();
  });

  it("never exceeds the share of questions whose latest graded result was right, and counts graded answers only", () => {
    // Each question: its answers in order (null: waiting for a teacher), and whether it was reviewed after its latest one.
    const question = fc.record({ answers: fc.array(fc.option(fc.boolean(), { nil: null }), { minLength: 1, maxLength: 5 }), reviewed: fc.boolean() });
    fc.assert(
      fc.property(fc.array(question, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 60 }), (questions, daysLater) => {
        const topic = emptyTopic(1, "T", "single");
        const now = T0 + 10 * DAY + daysLater * DAY;
        let latestRight = 0;
        questions.forEach(({ answers, reviewed }, i) => {
          answers.forEach((correct, k) => addAnswer(topic, correct, T0 + k * DAY, T0));
          const graded = answers.filter((a): a is boolean => a !== null);
          const latest = graded.length > 0 ? graded[graded.length - 1]! : null;
          // A review on the device logs the practice answer and the review at once.
          const card = reviewed && latest !== null ? replayCard(i, [log(`q${i}`, T0 + (answers.length - 1) * DAY, latest, i)]) : null;
          addQuestion(topic, latest === null ? null : { correct: latest, at: T0 + answers.lastIndexOf(latest) * DAY }, card, now);
          if (latest === true) latestRight += 1;
        });
        const [done] = finishMastery([topic]);
        const gradedQuestions = questions.filter((q) => q.answers.some((a) => a !== null)).length;
        expect(done!.answered).toBe(questions.flatMap((q) => q.answers).filter((a) => a !== null).length);
        if (gradedQuestions === 0) expect(done!.mastery).toBeNull();
        else expect(done!.mastery!).toBeLessThanOrEqual(Math.round((latestRight / gradedQuestions) * 1000) / 1000);
        // No wrong answer anywhere and nothing reviewed: everything answered is known.
        if (done!.correct === done!.answered && done!.answered > 0 && questions.every((q) => !q.reviewed)) expect(done!.mastery).toBe(1);
      }),
      { numRuns: 150 },
    );
  });
});
