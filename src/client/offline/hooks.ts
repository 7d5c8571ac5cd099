import { useCallback, useEffect, useState } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import type { Mastery } from "../../shared/sync/review.ts";
import { storedCertificates } from "./repository/certificates.ts";
import { deviceMastery, readReviewList, reviewRetention, reviewSummary, type ReviewList, type ReviewSummary } from "./repository/review.ts";
import type { AnswerRow, BankRow, LessonProgressRow, MemberDb, ProgressRow, WrongRow } from "./db.ts";
import {
  bankQuestionsKey,
  latestAnswers,
  practiceOpening,
  readBankQuestions,
  readPracticeBank,
  readPracticeState,
  type BankQuestions,
  type PracticeBank,
  type PracticeState,
} from "./practiceOpen.ts";

/**
 * Live views of the member's offline data for screens (they re-render when Dexie changes, online
 * or not). `undefined` while loading; screens never import Dexie themselves.
 */

/** A live read of the member's database, re-run when `deps` change; undefined while there is no database or the read is pending. */
function useMemberDbQuery<T>(db: MemberDb | undefined, read: (db: MemberDb) => Promise<T>, deps: unknown[]): T | undefined {
  return useLiveQuery(async () => (db ? read(db) : undefined), [db, ...deps]);
}

export function useBank(db: MemberDb | undefined, bankId: number): BankRow | null | undefined {
  return useMemberDbQuery(db, async (d) => ((await d.banks.get(bankId)) ?? null), [bankId]);
}

/*
 * The practice page's reads (practiceOpen.ts): the bank's row, whose directory (`questionIds`)
 * lists its questions in order, so no question is read (a bank of 2,000 read whole held a phone's
 * first screen for most of a second); what the member did in it; and the questions it shows.
 * Until a live query has its first answer, what the page read as it started stands in for it
 * (`practiceOpening`, while nothing was written since), so the first render has the question.
 */

/** A bank and the ids of its questions in bank order, as the practice page opens it. */
export function usePracticeBank(db: MemberDb | undefined, bankId: number): PracticeBank | undefined {
  const live = useMemberDbQuery(db, (d) => readPracticeBank(d, bankId), [bankId]);
  return live ?? practiceOpening(db, bankId)?.bank;
}

/**
 * These questions of a bank (the few a screen shows), by id, live. While another set is being read
 * the previous one stays (`key` says which it is): a screen moving to a neighbour it already holds
 * shows it at once.
 */
export function useBankQuestions(db: MemberDb | undefined, bankId: number, ids: readonly number[]): BankQuestions | undefined {
  const key = bankQuestionsKey(bankId, ids);
  // `key` stands for `ids` (a new array each render).
  const live = useMemberDbQuery(db, (d) => readBankQuestions(d, bankId, ids), [key]);
  const opening = practiceOpening(db, bankId)?.questions;
  return live ?? (opening?.key === key ? opening : undefined);
}

/**
 * What the member did in a bank on this device, read together (one transaction): the position,
 * the latest answer per question and the favourites. Apart from usePracticeBank, so an answer
 * (which changes these) does not read the bank's questions again.
 */
export function usePracticeState(db: MemberDb | undefined, bankId: number): PracticeState | undefined {
  const live = useMemberDbQuery(db, (d) => readPracticeState(d, bankId), [bankId]);
  return live ?? practiceOpening(db, bankId)?.state;
}

export function useProgress(db: MemberDb | undefined, bankId: number): ProgressRow | null | undefined {
  return useMemberDbQuery(db, async (d) => ((await d.progress.get(bankId)) ?? null), [bankId]);
}

export function useBankAnswers(db: MemberDb | undefined, bankId: number): Map<number, AnswerRow> | undefined {
  return useMemberDbQuery(db, async (d) => latestAnswers(d, bankId), [bankId]);
}

export function useWrongBook(db: MemberDb | undefined): WrongRow[] | undefined {
  return useMemberDbQuery(db, async (d) => (await d.wrong.toArray()).filter((w) => !w.removed && w.count > 0), []);
}

/** A lesson's progress on this device (null: never watched here). */
export function useLessonProgress(db: MemberDb | undefined, lessonId: number): LessonProgressRow | null | undefined {
  return useMemberDbQuery(db, async (d) => ((await d.lessonProgress.get(lessonId)) ?? null), [lessonId]);
}

/** The progress on this device of every lesson of a course, by lesson id. */
export function useCourseLessonProgress(db: MemberDb | undefined, courseId: number): Map<number, LessonProgressRow> | undefined {
  return useMemberDbQuery(db, async (d) => {
    const rows = await d.lessonProgress.where("courseId").equals(courseId).toArray();
    return new Map(rows.map((r) => [r.lessonId, r]));
  }, [courseId]);
}

/** The review screen's first look at `now` (all banks, or one: `readReviewList`), live: a review, a sync or a saved bank re-reads it. */
export function useReviewList(db: MemberDb | undefined, now: number, bankId?: number): ReviewList | undefined {
  return useMemberDbQuery(db, async (d) => readReviewList(d, now, bankId), [now, bankId]);
}

/**
 * A read of the member's database made again each time `now` moves (the screen's minute clock),
 * not a live query: for reads of the `type` index's keys of every question, which a live query
 * would observe one by one (and run again on every saved bank). Nothing is read while `enabled`
 * is false; the previous minute's result stays while the next is read.
 */
function useMinuteRead<T>(db: MemberDb | undefined, now: number, enabled: boolean, read: (db: MemberDb, now: number) => Promise<T>): T | undefined {
  const [result, setResult] = useState<{ db: MemberDb; value: T } | null>(null);
  useEffect(() => {
    if (!db || !enabled) return;
    let live = true;
    read(db, now).then(
      (value) => {
        if (live) setResult({ db, value });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [db, now, enabled, read]);
  return enabled && result && result.db === db ? result.value : undefined;
}

/** Mastery by topic from this device alone (offline; one bank's topics with `bankId`), each minute; nothing read while `enabled` is false. */
export function useDeviceMastery(db: MemberDb | undefined, now: number, enabled: boolean, bankId?: number): Mastery | undefined {
  const read = useCallback((d: MemberDb, at: number) => deviceMastery(d, at, bankId), [bankId]);
  return useMinuteRead(db, now, enabled, read);
}

/** The review queue's figures (every bank) without its questions, each minute (the member home's card). */
export function useReviewSummary(db: MemberDb | undefined, now: number): ReviewSummary | undefined {
  return useMinuteRead(db, now, true, reviewSummary);
}

/** The member's desired retention on this device. */
export function useReviewRetention(db: MemberDb | undefined): number | undefined {
  return useMemberDbQuery(db, async (d) => reviewRetention(d), []);
}

/** The certificates downloaded on this device (without their PDFs), newest first. */
export function useStoredCertificates(db: MemberDb | undefined) {
  return useMemberDbQuery(db, storedCertificates, []);
}
