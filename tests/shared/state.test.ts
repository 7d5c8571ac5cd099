import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyOp, applyOps, emptyState, toExamState } from "../../src/shared/exam/state.ts";
import type { GradedOutcome } from "../../src/shared/exam/state.ts";
import type { Op, OpOf } from "../../src/shared/sync/ops.ts";

const T0 = Date.UTC(2025, 0, 1);
let counter = 0;
/** Ids sort in creation order unless given. */
const nextId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`;

const fav = (questionId: number, on: boolean, at: number, id = nextId()): OpOf<"favourite.set"> => ({
  id,
  type: "favourite.set",
  at,
  payload: { questionId, on },
});
const answer = (questionId: number, at: number, id = nextId()): OpOf<"practice.answer"> => ({
  id,
  type: "practice.answer",
  at,
  payload: { questionId, answer: "A", bankId: 1 },
});
const remove = (questionId: number, at: number, id = nextId()): OpOf<"wrong.remove"> => ({
  id,
  type: "wrong.remove",
  at,
  payload: { questionId },
});
const progress = (bankId: number, position: number, at: number, id = nextId()): OpOf<"progress.set"> => ({
  id,
  type: "progress.set",
  at,
  payload: { bankId, position },
});

const WRONG: GradedOutcome = { correct: false };
const RIGHT: GradedOutcome = { correct: true };

describe("applyOp: favourites", () => {
  it("sets and clears", () => {
    const on = applyOp(emptyState(), fav(1, true, T0));
    expect(toExamState(on).favourites).toEqual([1]);
    expect(toExamState(applyOp(on, fav(1, false, T0 + 1))).favourites).toEqual([]);
  });
  it("ignores an older write arriving late", () => {
    const state = applyOps(emptyState(), [fav(1, false, T0 + 10), fav(1, true, T0 + 5)]);
    expect(toExamState(state).favourites).toEqual([]);
  });
  it("breaks a tie on time by the larger op id", () => {
    const a = fav(1, true, T0, "00000000-0000-4000-8000-00000000000a");
    const b = fav(1, false, T0, "00000000-0000-4000-8000-00000000000b");
    expect(toExamState(applyOps(emptyState(), [a, b])).favourites).toEqual([]);
    expect(toExamState(applyOps(emptyState(), [b, a])).favourites).toEqual([]);
  });
  it("sorts favourites", () => {
    const state = applyOps(emptyState(), [fav(9, true, T0), fav(2, true, T0), fav(5, true, T0)]);
    expect(toExamState(state).favourites).toEqual([2, 5, 9]);
  });
});

describe("applyOp: wrong-question book", () => {
  it("counts wrong answers only", () => {
    let state = emptyState();
    state = applyOp(state, answer(3, T0), WRONG);
    state = applyOp(state, answer(3, T0 + 5), RIGHT);
    state = applyOp(state, answer(3, T0 + 6), { correct: null });
    state = applyOp(state, answer(3, T0 + 7)); // not graded: nothing
    state = applyOp(state, answer(3, T0 + 2), WRONG);
    expect(toExamState(state).wrong).toEqual([{ questionId: 3, count: 2, lastTime: T0 + 2 }]);
  });
  it("keeps lastTime at the latest wrong answer", () => {
    const state = applyOps(emptyState(), [answer(3, T0 + 9), answer(3, T0 + 1)], () => WRONG);
    expect(toExamState(state).wrong).toEqual([{ questionId: 3, count: 2, lastTime: T0 + 9 }]);
  });
  it("removes when the removal is at or after the last wrong answer", () => {
    const wrong = applyOp(emptyState(), answer(3, T0 + 5), WRONG);
    expect(toExamState(applyOp(wrong, remove(3, T0 + 5))).wrong).toEqual([]);
    expect(toExamState(applyOp(wrong, remove(3, T0 + 6))).wrong).toEqual([]);
    expect(toExamState(applyOp(wrong, remove(3, T0 + 4))).wrong).toHaveLength(1);
  });
  it("a newer wrong answer un-removes, keeping the count", () => {
    let state = applyOp(emptyState(), answer(3, T0), WRONG);
    state = applyOp(state, remove(3, T0 + 1));
    expect(state.wrong.get(3)?.removed).toBe(true);
    state = applyOp(state, answer(3, T0 + 2), WRONG);
    expect(state.wrong.get(3)?.removed).toBe(false);
    expect(toExamState(state).wrong).toEqual([{ questionId: 3, count: 2, lastTime: T0 + 2 }]);
  });
  it("an older wrong answer arriving after a removal stays removed", () => {
    let state = applyOp(emptyState(), remove(3, T0 + 10));
    state = applyOp(state, answer(3, T0 + 5), WRONG);
    expect(toExamState(state).wrong).toEqual([]);
    state = applyOp(state, answer(3, T0 + 11), WRONG);
    expect(toExamState(state).wrong).toEqual([{ questionId: 3, count: 2, lastTime: T0 + 11 }]);
  });
  it("sorts by questionId", () => {
    const state = applyOps(emptyState(), [answer(8, T0), answer(1, T0), answer(4, T0)], () => WRONG);
    expect(toExamState(state).wrong.map((w) => w.questionId)).toEqual([1, 4, 8]);
  });
});

describe("applyOp: progress", () => {
  it("last writer wins per bank, sorted by bankId", () => {
    const state = applyOps(emptyState(), [
      progress(2, 10, T0 + 2),
      progress(2, 4, T0 + 1),
      progress(1, 7, T0),
      progress(2, 0, T0 + 3),
    ]);
    expect(toExamState(state).progress).toEqual([
      { bankId: 1, position: 7, updatedAt: T0 },
      { bankId: 2, position: 0, updatedAt: T0 + 3 },
    ]);
  });
});

describe("applyOp: purity and deduplication", () => {
  it("does not mutate its input", () => {
    const before = emptyState();
    const after = applyOp(before, fav(1, true, T0));
    expect(before.favourites.size).toBe(0);
    expect(after).not.toBe(before);
  });
  it("answers the same model for ops it ignores", () => {
    const state = emptyState();
    const lesson: Op = {
      id: nextId(),
      type: "lesson.progress",
      at: T0,
      payload: { lessonId: 1, position: 3, completed: false },
    };
    expect(applyOp(state, lesson)).toBe(state);
    expect(applyOp(state, answer(1, T0), RIGHT)).toBe(state);
  });
  it("counts a wrong answer applied twice twice: dedup by op id is the caller's job", () => {
    const op = answer(3, T0);
    const state = applyOps(emptyState(), [op, op], () => WRONG);
    expect(toExamState(state).wrong).toEqual([{ questionId: 3, count: 2, lastTime: T0 }]);
  });
  it("is idempotent for last-writer-wins ops", () => {
    const op = fav(1, true, T0);
    expect(toExamState(applyOps(emptyState(), [op, op]))).toEqual(toExamState(applyOp(emptyState(), op)));
  });
});

describe("applyOp: order independence (property)", () => {
  // Few questions, banks and instants so that collisions and ties are common.
  const at = fc.integer({ min: T0, max: T0 + 20 });
  const key = fc.integer({ min: 1, max: 4 });
  type Draft = { op: Omit<Op, "id">; graded: GradedOutcome | undefined };
  const draft: fc.Arbitrary<Draft> = fc.oneof(
    fc.record({ questionId: key, on: fc.boolean(), at }).map(({ questionId, on, at }) => ({
      op: { type: "favourite.set", at, payload: { questionId, on } } as const,
      graded: undefined,
    })),
    fc
      .record({ questionId: key, at, correct: fc.constantFrom<boolean | null>(true, false, false, null) })
      .map(({ questionId, at, correct }) => ({
        op: { type: "practice.answer", at, payload: { questionId, answer: "A", bankId: 1 } } as const,
        graded: { correct },
      })),
    fc.record({ questionId: key, at }).map(({ questionId, at }) => ({
      op: { type: "wrong.remove", at, payload: { questionId } } as const,
      graded: undefined,
    })),
    fc.record({ bankId: key, position: fc.nat({ max: 50 }), at }).map(({ bankId, position, at }) => ({
      op: { type: "progress.set", at, payload: { bankId, position } } as const,
      graded: undefined,
    })),
  );
  // Distinct ids, in random (not creation) order.
  const ops = fc
    .uniqueArray(fc.uuid({ version: 4 }), { minLength: 0, maxLength: 40 })
    .chain((ids) =>
      fc.tuple(fc.constant(ids), fc.array(draft, { minLength: ids.length, maxLength: ids.length })),
    )
    .map(([ids, drafts]) => drafts.map(({ op, graded }, i) => ({ op: { ...op, id: ids[i] ?? "" } as Op, graded })));

  it("ends in the same state whatever the order", () => {
    fc.assert(
      fc.property(ops, fc.infiniteStream(fc.nat()), (list, seeds) => {
        const graded = new Map(list.map(({ op, graded }) => [op.id, graded]));
        const shuffled = list.map((entry) => ({ entry, sortKey: seeds.next().value })).sort((a, b) => a.sortKey - b.sortKey);
        const reversed = [...list].reverse();
        const run = (order: typeof list) =>
          toExamState(
            applyOps(
              emptyState(),
              order.map(({ op }) => op),
              (op) => graded.get(op.id),
            ),
          );
        const expected = run(list);
        expect(run(shuffled.map(({ entry }) => entry))).toEqual(expected);
        expect(run(reversed)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
