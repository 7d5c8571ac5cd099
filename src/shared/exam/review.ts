import { BasicLearningStepsStrategy, createEmptyCard, fsrs, Rating, State, StrategyMode, type Card, type FSRS, type Grade, type TLearningStepsStrategy } from "ts-fsrs";

/**
 * Spaced review of the wrong book and favourites, the same on the device and on the
 * server. A card's scheduling state is never stored as the sum of the reviews as they arrived:
 * it is the FSRS replay (ts-fsrs, never hand-written) of ALL of the card's review logs sorted by
 * (reviewed at, op id). Logs are a set (one per op id), so two devices reviewing the same cards
 * end in the same state whatever order their ops reach the server, and the device computes the
 * state the server will hold.
 */

export const DEFAULT_RETENTION = 0.9;
export const MIN_RETENTION = 0.7;
export const MAX_RETENTION = 0.99;
/** Correct reviews in a row (since the latest wrong answer) that take a question out of the wrong book. */
export const GRADUATE_STREAK = 3;

/** The member's optional override of the rating of a correct answer. */
export type ReviewGrade = "hard" | "easy";

/** One review, as logged (the `review.answer` op's data). */
export interface ReviewLogEntry {
  opId: string;
  questionId: number;
  /** ms since the epoch: when the question was reviewed. */
  at: number;
  correct: boolean;
  grade: ReviewGrade | null;
  /** The desired retention the member had set when reviewing (0.7 .. 0.99). */
  retention: number;
}

/** A card's scheduling state (FSRS) as plain numbers: what Dexie, the wire and SQL hold. */
export interface CardState {
  questionId: number;
  /** ms: when it is due next. */
  due: number;
  stability: number;
  difficulty: number;
  /** ts-fsrs State: 0 new, 1 learning, 2 review, 3 relearning. */
  state: number;
  reps: number;
  lapses: number;
  scheduledDays: number;
  learningSteps: number;
  /** ms of the latest review (null: never reviewed). */
  lastReview: number | null;
  /** Correct reviews in a row ending with the latest one. */
  streak: number;
  /** ms of the first review of the current correct streak (null without a streak). */
  streakSince: number | null;
}

/** The rating of a review: wrong is Again; right is Good, or Hard / Easy when the member says so. */
export function ratingOf(correct: boolean, grade: ReviewGrade | null | undefined): Grade {
  if (!correct) return Rating.Again;
  if (grade === "hard") return Rating.Hard;
  if (grade === "easy") return Rating.Easy;
  return Rating.Good;
}

export function clampRetention(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_RETENTION;
  return Math.min(MAX_RETENTION, Math.max(MIN_RETENTION, Math.round(value * 100) / 100));
}

const schedulers = new Map<number, FSRS>();

/**
 * The short step of a question answered wrong: it comes back this long after (learning for a
 * card never reviewed, relearning for one that was), so a review session asks it again.
 */
export const RELEARN_STEP = "10m";

/**
 * FSRS's learning steps, for a wrong answer only: Again takes the short step, while a right
 * answer (Hard, Good or Easy) leaves the steps at once and is scheduled in days. A right answer
 * the member found hard is not asked again in the same session: only a wrong one needs that.
 */
const againOnlySteps: TLearningStepsStrategy = (params, state, step) => {
  const again = BasicLearningStepsStrategy(params, state, step)[Rating.Again];
  return again ? { [Rating.Again]: again } : {};
};

/**
 * The scheduler for a desired retention: no fuzz (the same logs give the same dates everywhere),
 * short-term steps for wrong answers only (RELEARN_STEP), days for right ones.
 */
export function schedulerFor(retention: number): FSRS {
  const key = clampRetention(retention);
  let scheduler = schedulers.get(key);
  if (!scheduler) {
    scheduler = fsrs({
      request_retention: key,
      enable_fuzz: false,
      enable_short_term: true,
      learning_steps: [RELEARN_STEP],
      relearning_steps: [RELEARN_STEP],
    }).useStrategy(StrategyMode.LEARNING_STEPS, againOnlySteps);
    schedulers.set(key, scheduler);
  }
  return scheduler;
}

/** Total order of logs: by time, then op id (code-unit order, as PostgreSQL's `collate "C"`). */
export function compareLogs(a: Pick<ReviewLogEntry, "at" | "opId">, b: Pick<ReviewLogEntry, "at" | "opId">): number {
  if (a.at !== b.at) return a.at - b.at;
  return a.opId < b.opId ? -1 : a.opId > b.opId ? 1 : 0;
}

/** A card that was never reviewed: due at once. */
export function newCardState(questionId: number): CardState {
  return {
    questionId,
    due: 0,
    stability: 0,
    difficulty: 0,
    state: State.New,
    reps: 0,
    lapses: 0,
    scheduledDays: 0,
    learningSteps: 0,
    lastReview: null,
    streak: 0,
    streakSince: null,
  };
}

function toFsrsCard(card: CardState, now: number): Card {
  const empty = createEmptyCard(new Date(now));
  if (card.reps === 0) return empty;
  return {
    ...empty,
    due: new Date(card.due),
    stability: card.stability,
    difficulty: card.difficulty,
    state: card.state as State,
    reps: card.reps,
    lapses: card.lapses,
    scheduled_days: card.scheduledDays,
    learning_steps: card.learningSteps,
    last_review: card.lastReview === null ? undefined : new Date(card.lastReview),
  };
}

/** Applies one review (through ts-fsrs) to a card. */
export function reviewCard(card: CardState, log: Pick<ReviewLogEntry, "at" | "correct" | "grade" | "retention">): CardState {
  const next = schedulerFor(log.retention).next(toFsrsCard(card, log.at), new Date(log.at), ratingOf(log.correct, log.grade)).card;
  return {
    questionId: card.questionId,
    due: next.due.getTime(),
    stability: next.stability,
    difficulty: next.difficulty,
    state: next.state,
    reps: next.reps,
    lapses: next.lapses,
    scheduledDays: next.scheduled_days,
    learningSteps: next.learning_steps,
    lastReview: log.at,
    streak: log.correct ? card.streak + 1 : 0,
    streakSince: log.correct ? (card.streak > 0 ? card.streakSince : log.at) : null,
  };
}

/** What each rating of a review at `at` would do to a card: when it would be due next (ms). */
export interface RatingPreview {
  again: number;
  hard: number;
  good: number;
  easy: number;
}

/** The next due time per rating (the intervals the rating buttons show), without reviewing. */
export function previewRatings(card: CardState, at: number, retention: number): RatingPreview {
  const due = (correct: boolean, grade: ReviewGrade | null) => reviewCard(card, { at, correct, grade, retention }).due;
  return { again: due(false, null), hard: due(true, "hard"), good: due(true, null), easy: due(true, "easy") };
}

/** Whether a card is in a short step (learning or relearning after a wrong answer): asked again in the session. */
export function inShortStep(card: CardState): boolean {
  return card.reps > 0 && (card.state === State.Learning || card.state === State.Relearning);
}

/**
 * A card's state from its logs: duplicates (one op id twice) count once, the rest is replayed
 * in (at, op id) order. Any order of the same logs gives the same state.
 */
export function replayCard(questionId: number, logs: readonly ReviewLogEntry[]): CardState {
  const unique = new Map<string, ReviewLogEntry>();
  for (const log of logs) if (log.questionId === questionId && !unique.has(log.opId)) unique.set(log.opId, log);
  return [...unique.values()].sort(compareLogs).reduce(reviewCard, newCardState(questionId));
}

/** Every card of a set of logs (by question id). */
export function replayCards(logs: readonly ReviewLogEntry[]): Map<number, CardState> {
  const byQuestion = new Map<number, ReviewLogEntry[]>();
  for (const log of logs) {
    const list = byQuestion.get(log.questionId);
    if (list) list.push(log);
    else byQuestion.set(log.questionId, [log]);
  }
  return new Map([...byQuestion].map(([questionId, list]) => [questionId, replayCard(questionId, list)]));
}

/** How likely the member still knows the answer at `now` (0..1); null for a card never reviewed. */
export function retrievability(card: CardState, now: number): number | null {
  if (card.reps === 0 || card.lastReview === null) return null;
  const value = schedulerFor(DEFAULT_RETENTION).get_retrievability(toFsrsCard(card, now), new Date(Math.max(now, card.lastReview)), false);
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : null;
}

/** Whether a card is due at `now` (a never-reviewed card is). */
export function isDue(card: CardState | undefined, now: number): boolean {
  return !card || card.reps === 0 || card.due <= now;
}

/**
 * Whether a question of the wrong book has been answered right enough times in review to leave
 * it: GRADUATE_STREAK correct reviews in a row, the first after its latest wrong answer.
 */
export function graduated(card: CardState | undefined, wrongLastTime: number): boolean {
  return !!card && card.streak >= GRADUATE_STREAK && card.streakSince !== null && card.streakSince > wrongLastTime;
}

/** Rough seconds one review of a question type takes (for "about N minutes"). */
const SECONDS_PER_TYPE: Record<string, number> = { single: 20, judge: 15, multiple: 30, fill: 40, short: 90 };

export function estimateSeconds(types: readonly string[]): number {
  return types.reduce((sum, type) => sum + (SECONDS_PER_TYPE[type] ?? 30), 0);
}

const DAY_MS = 86_400_000;

/** Monday (UTC) of the week of `ms`, as YYYY-MM-DD: the weeks of the mastery chart (server and device alike). */
export function weekOf(ms: number): string {
  const day = new Date(ms);
  const monday = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) - ((day.getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(monday).toISOString().slice(0, 10);
}

/** Weeks of correct rate the mastery chart shows. */
export const MASTERY_WEEKS = 8;
