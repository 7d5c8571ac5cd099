import { useLiveQuery } from "dexie-react-hooks";
import type { Mastery } from "../../shared/sync/review.ts";
import { deviceMastery, readReviewQueue, reviewRetention, type ReviewQueue } from "./repository/review.ts";
import type { AnswerRow, BankRow, FavouriteRow, LessonProgressRow, MemberDb, ProgressRow, QuestionRow, WrongRow } from "./db.ts";

/**
 * Live views of the member's offline data for screens (they re-render when Dexie changes, online
 * or not). `undefined` while loading; screens never import Dexie themselves.
 */
export function useBank(db: MemberDb | undefined, bankId: number): BankRow | null | undefined {
  return useLiveQuery(async () => (db ? ((await db.banks.get(bankId)) ?? null) : undefined), [db, bankId]);
}

export function useBankQuestions(db: MemberDb | undefined, bankId: number): QuestionRow[] | undefined {
  return useLiveQuery(async () => (db ? db.questions.where("bankId").equals(bankId).sortBy("position") : undefined), [db, bankId]);
}

export function useProgress(db: MemberDb | undefined, bankId: number): ProgressRow | null | undefined {
  return useLiveQuery(async () => (db ? ((await db.progress.get(bankId)) ?? null) : undefined), [db, bankId]);
}

/** The latest local answer per question of a bank. */
export function useBankAnswers(db: MemberDb | undefined, bankId: number): Map<number, AnswerRow> | undefined {
  return useLiveQuery(async () => {
    if (!db) return undefined;
    const rows = await db.answers.where("bankId").equals(bankId).toArray();
    const latest = new Map<number, AnswerRow>();
    for (const row of rows) {
      const seen = latest.get(row.questionId);
      if (!seen || seen.at <= row.at) latest.set(row.questionId, row);
    }
    return latest;
  }, [db, bankId]);
}

export function useFavourites(db: MemberDb | undefined): FavouriteRow[] | undefined {
  return useLiveQuery(async () => (db ? (await db.favourites.toArray()).filter((f) => f.on) : undefined), [db]);
}

export function useWrongBook(db: MemberDb | undefined): WrongRow[] | undefined {
  return useLiveQuery(async () => (db ? (await db.wrong.toArray()).filter((w) => !w.removed && w.count > 0) : undefined), [db]);
}

/** A lesson's progress on this device (null: never watched here). */
export function useLessonProgress(db: MemberDb | undefined, lessonId: number): LessonProgressRow | null | undefined {
  return useLiveQuery(async () => (db ? ((await db.lessonProgress.get(lessonId)) ?? null) : undefined), [db, lessonId]);
}

/** The progress on this device of every lesson of a course, by lesson id. */
export function useCourseLessonProgress(db: MemberDb | undefined, courseId: number): Map<number, LessonProgressRow> | undefined {
  return useLiveQuery(async () => {
    if (!db) return undefined;
    const rows = await db.lessonProgress.where("courseId").equals(courseId).toArray();
    return new Map(rows.map((r) => [r.lessonId, r]));
  }, [db, courseId]);
}

/** The review queue at `now` (all banks, or one), live: a review, a sync or a saved bank re-reads it. */
export function useReviewQueue(db: MemberDb | undefined, now: number, bankId?: number): ReviewQueue | undefined {
  return useLiveQuery(async () => (db ? readReviewQueue(db, now, bankId) : undefined), [db, now, bankId]);
}

/** Mastery by topic from this device alone (offline), live; nothing read while `enabled` is false. */
export function useDeviceMastery(db: MemberDb | undefined, now: number, enabled: boolean): Mastery | undefined {
  return useLiveQuery(async () => (db && enabled ? deviceMastery(db, now) : undefined), [db, now, enabled]);
}

/** The member's desired retention on this device. */
export function useReviewRetention(db: MemberDb | undefined): number | undefined {
  return useLiveQuery(async () => (db ? reviewRetention(db) : undefined), [db]);
}
