import type { ExamState } from "../sync/exam.ts";
import type { Op } from "../sync/ops.ts";

/**
 * The exam state machine both sides agree on: the server applies each accepted op with it, the
 * client applies its outbox on top of the server's state with it.
 *
 * Every rule is order-independent, so ops may arrive late and out of order:
 * - favourites: last writer wins by op `at`, ties broken by the larger op id (string compare);
 * - progress: the same, per bank;
 * - wrong-question book: a wrong practice answer adds 1 to `count` and sets
 *   `lastTime = max(lastTime, at)`; `wrong.remove` records `removedAt = max(removedAt, at)`; an
 *   entry is `removed` while `removedAt >= lastTime`, so a wrong answer newer than the removal
 *   puts the question back (un-removes it) and an older one arriving late does not.
 *
 * Deduplication by op id is the CALLER's job: applying the same op twice counts a wrong answer
 * twice. The server keeps op ids unique per member + op id and skips a `duplicate`; the client
 * applies each outbox op once.
 *
 * `applyOp` never mutates its input: it returns a new model (sharing the maps it did not change),
 * or the same model when the op changes nothing.
 */

export interface FavouriteEntry {
  on: boolean;
  at: number;
  /** Id of the op that set this entry (tie-break); "" when it came from elsewhere. */
  opId: string;
}

export interface WrongEntry {
  count: number;
  /** Time (ms) of the latest wrong answer; 0 when none was seen yet. */
  lastTime: number;
  /** Derived: removedAt > 0 && removedAt >= lastTime. */
  removed: boolean;
  /** Time (ms) of the latest `wrong.remove`; 0 when none. */
  removedAt: number;
}

export interface ProgressEntry {
  position: number;
  at: number;
  /** Id of the op that set this entry (tie-break); "" when it came from elsewhere. */
  opId: string;
}

export interface ExamStateModel {
  favourites: Map<number, FavouriteEntry>;
  wrong: Map<number, WrongEntry>;
  progress: Map<number, ProgressEntry>;
}

export interface GradedOutcome {
  correct: boolean | null;
}

export function emptyState(): ExamStateModel {
  return { favourites: new Map(), wrong: new Map(), progress: new Map() };
}

/** Whether a write at (at, opId) beats the current one: later time, then larger op id. */
function wins(at: number, opId: string, current: { at: number; opId: string } | undefined): boolean {
  if (current === undefined) return true;
  if (at !== current.at) return at > current.at;
  return opId > current.opId;
}

function withEntry<K, V>(map: Map<K, V>, key: K, value: V): Map<K, V> {
  const next = new Map(map);
  next.set(key, value);
  return next;
}

function wrongEntry(count: number, lastTime: number, removedAt: number): WrongEntry {
  return { count, lastTime, removedAt, removed: removedAt > 0 && removedAt >= lastTime };
}

/** The op types this model takes in; the others (attempts, lessons, reviews) belong to other state. */
const PRACTICE_OP_TYPES = ["favourite.set", "progress.set", "practice.answer", "wrong.remove"] as const;
export type PracticeOp = Extract<Op, { type: (typeof PRACTICE_OP_TYPES)[number] }>;
export const isPracticeOp = (op: Op): op is PracticeOp => (PRACTICE_OP_TYPES as readonly string[]).includes(op.type);

/**
 * Applies one (already validated) op. `graded` is the grading of a `practice.answer`: only
 * `correct === false` touches the wrong-question book; without it (not gradable offline) the op
 * changes nothing here. `attempt.submit` and `lesson.progress` do not touch this model.
 */
export function applyOp(state: ExamStateModel, op: Op, graded?: GradedOutcome): ExamStateModel {
  if (!isPracticeOp(op)) return state;
  switch (op.type) {
    case "favourite.set": {
      const { questionId, on } = op.payload;
      if (!wins(op.at, op.id, state.favourites.get(questionId))) return state;
      return { ...state, favourites: withEntry(state.favourites, questionId, { on, at: op.at, opId: op.id }) };
    }
    case "progress.set": {
      const { bankId, position } = op.payload;
      if (!wins(op.at, op.id, state.progress.get(bankId))) return state;
      return { ...state, progress: withEntry(state.progress, bankId, { position, at: op.at, opId: op.id }) };
    }
    case "practice.answer": {
      if (graded?.correct !== false) return state;
      const { questionId } = op.payload;
      const current = state.wrong.get(questionId);
      const entry = wrongEntry(
        (current?.count ?? 0) + 1,
        Math.max(current?.lastTime ?? 0, op.at),
        current?.removedAt ?? 0,
      );
      return { ...state, wrong: withEntry(state.wrong, questionId, entry) };
    }
    case "wrong.remove": {
      const { questionId } = op.payload;
      const current = state.wrong.get(questionId);
      const removedAt = Math.max(current?.removedAt ?? 0, op.at);
      if (current !== undefined && removedAt === current.removedAt) return state;
      const entry = wrongEntry(current?.count ?? 0, current?.lastTime ?? 0, removedAt);
      return { ...state, wrong: withEntry(state.wrong, questionId, entry) };
    }
  }
}

/** Applies ops in the given order (the caller has deduplicated them by id). */
export function applyOps(
  state: ExamStateModel,
  ops: Iterable<Op>,
  gradedFor?: (op: Op) => GradedOutcome | undefined,
): ExamStateModel {
  let next = state;
  for (const op of ops) next = applyOp(next, op, gradedFor?.(op));
  return next;
}

const byNumber = (a: number, b: number) => a - b;

/**
 * The wire shape (`GET /api/exam/state`): favourites that are on, wrong questions that are not
 * removed (and were answered wrong at least once) sorted by questionId, progress sorted by bankId.
 * Times are the ops' `at`, in ms.
 */
export function toExamState(model: ExamStateModel): ExamState {
  const favourites = [...model.favourites].filter(([, entry]) => entry.on).map(([id]) => id);
  const wrong = [...model.wrong]
    .filter(([, entry]) => !entry.removed && entry.count > 0)
    .map(([questionId, entry]) => ({ questionId, count: entry.count, lastTime: entry.lastTime }));
  const progress = [...model.progress].map(([bankId, entry]) => ({
    bankId,
    position: entry.position,
    updatedAt: entry.at,
  }));
  return {
    favourites: favourites.sort(byNumber),
    wrong: wrong.sort((a, b) => a.questionId - b.questionId),
    progress: progress.sort((a, b) => a.bankId - b.bankId),
  };
}
