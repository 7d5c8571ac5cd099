import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { AlertDialog } from "radix-ui";
import { AlertTriangle, ChevronLeft, ChevronRight, Send, Timer } from "lucide-react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router-dom";
import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import { saveAttemptAnswer, submitMockAttempt, useOfflineDb, useOfflineQuery, type AttemptRow, type MemberDb } from "../../offline/index.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { formatRemaining, readCachedPaper } from "./papers.ts";
import { QuestionView, emptyAnswer, isAnswered } from "./QuestionView.tsx";
import { LogInFirst } from "./LogInFirst.tsx";

export { formatRemaining } from "./papers.ts";

/** Time left before `deadline` (ms since the epoch) at `now`; null without a time limit. */
export function remainingMs(deadline: number | null, now: number): number | null {
  return deadline === null ? null : Math.max(0, deadline - now);
}

/** Every question of the attempt with an answer (empty when unanswered), as the server receives it. */
export function completeAnswers(questions: readonly ExamQuestion[], given: Record<string, GivenAnswer>): Record<string, GivenAnswer> {
  const out: Record<string, GivenAnswer> = {};
  for (const q of questions) out[String(q.id)] = given[String(q.id)] ?? emptyAnswer(q);
  return out;
}

const FIVE_MINUTES = 5 * 60_000;
const ONE_MINUTE = 60_000;

/**
 * The current time, refreshed every second and whenever the page becomes visible again; calls
 * `onExpired` (through a ref, so always the latest) on each refresh at or after the deadline.
 * The remaining time is always `deadline - now`, never a count of ticks, so sleep and background
 * tabs (which throttle timers) cannot make it drift.
 */
function useDeadlineClock(deadline: number | null, onExpired: () => void): number {
  const [now, setNow] = useState(() => Date.now());
  const expiredRef = useRef(onExpired);
  useEffect(() => {
    expiredRef.current = onExpired;
  }, [onExpired]);
  useEffect(() => {
    if (deadline === null) return;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) expiredRef.current();
    };
    const first = window.setTimeout(tick, 0);
    const handle = window.setInterval(tick, 1000);
    document.addEventListener("visibilitychange", tick);
    window.addEventListener("focus", tick);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(handle);
      document.removeEventListener("visibilitychange", tick);
      window.removeEventListener("focus", tick);
    };
  }, [deadline]);
  return now;
}

/** `/exam/my_test_detail?attempt=`: sits a mock attempt stored on this device (works offline). */
export default function TestTakingPage() {
  const [params] = useSearchParams();
  const attemptId = params.get("attempt") ?? "";
  const db = useOfflineDb();
  const attempt = useOfflineQuery<AttemptRow | null>(async (d) => (attemptId ? ((await d.attempts.get(attemptId)) ?? null) : null), [attemptId], undefined);

  if (!db) {
    return (
      <LogInFirst>
        <Trans>Please log in to take a mock exam.</Trans>
      </LogInFirst>
    );
  }
  if (attempt === undefined) return <Spinner className="mx-auto my-16 size-8" />;
  if (attempt === null) {
    return (
      <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
        <p>
          <Trans>This mock exam is not on this device.</Trans>
        </p>
        <Link to="/exam/myTest" className="inline-flex min-h-11 items-center rounded-md bg-primary px-4 text-white">
          <Trans>Back to the exams</Trans>
        </Link>
      </div>
    );
  }
  if (attempt.status === "submitted") return <Navigate to={`/exam/examResult?attempt=${encodeURIComponent(attempt.attemptId)}`} replace />;
  return <AttemptRunner key={attempt.attemptId} db={db} attempt={attempt} />;
}

function AttemptRunner({ db, attempt }: { db: MemberDb; attempt: AttemptRow }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [index, setIndex] = useState(0);
  // Answers typed here show at once; each is also autosaved to the device.
  const [drafts, setDrafts] = useState<Record<string, GivenAnswer>>({});
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failed, setFailed] = useState<"save" | "submit" | null>(null);
  const busy = useRef(false);

  const title = useMemo(() => readCachedPaper(attempt.paperId)?.paper.title ?? null, [attempt.paperId]);
  const questions = attempt.questions;
  const total = questions.length;
  const current = Math.min(index, Math.max(0, total - 1));
  const question = questions[current];
  const answerOf = (q: ExamQuestion): GivenAnswer => drafts[String(q.id)] ?? attempt.answers[String(q.id)] ?? emptyAnswer(q);
  const answeredCount = questions.filter((q) => isAnswered(q, answerOf(q))).length;
  const unanswered = total - answeredCount;

  const finish = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const latest = await db.attempts.get(attempt.attemptId);
      if (latest?.status !== "submitted") {
        const answers = completeAnswers(attempt.questions, { ...(latest?.answers ?? attempt.answers), ...drafts });
        await submitMockAttempt(db, {
          attemptId: attempt.attemptId,
          paperId: attempt.paperId,
          questions: attempt.questions,
          answers,
          startedAt: attempt.startedAt,
          deadline: attempt.deadline,
        });
      }
      void navigate(`/exam/examResult?attempt=${encodeURIComponent(attempt.attemptId)}`, { replace: true });
    } catch {
      busy.current = false;
      setSubmitting(false);
      setFailed("submit");
    }
  }, [db, attempt, drafts, navigate]);

  // Time is up: submit what was answered.
  const onExpired = useCallback(() => void finish(), [finish]);
  const now = useDeadlineClock(attempt.deadline, onExpired);
  const remaining = remainingMs(attempt.deadline, now);
  const expired = remaining === 0;

  if (!question) {
    return (
      <p role="alert" className="py-12 text-center">
        <Trans>This mock exam has no questions.</Trans>
      </p>
    );
  }

  const change = (value: GivenAnswer) => {
    setDrafts((prev) => ({ ...prev, [String(question.id)]: value }));
    saveAttemptAnswer(db, attempt.attemptId, question.id, value).then(
      () => setFailed((f) => (f === "save" ? null : f)),
      () => setFailed("save"),
    );
  };
  const submitNow = () => {
    setConfirmOpen(false);
    setSubmitting(true);
    void finish();
  };
  const position = current + 1;
  const timeText = remaining === null ? "" : formatRemaining(remaining);
  const lowTime = remaining !== null && remaining <= FIVE_MINUTES;
  const announcement = remaining === null ? "" : remaining <= ONE_MINUTE ? t`Less than a minute left` : remaining <= FIVE_MINUTES ? t`Less than five minutes left` : "";

  return (
    <div className="mx-auto max-w-3xl space-y-4 pb-8">
      <header className="sticky top-0 z-10 -mx-4 flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 bg-white/95 px-4 py-2 backdrop-blur dark:border-slate-700 dark:bg-slate-900/95">
        <h1 className="min-w-0 flex-1 truncate text-base font-semibold sm:text-lg">{title ?? t`Mock exam`}</h1>
        {remaining !== null && (
          <p className={`inline-flex items-center gap-1 font-mono text-lg tabular-nums ${lowTime ? "font-semibold text-red-700 dark:text-red-300" : ""}`}>
            {lowTime ? <AlertTriangle aria-hidden className="size-5" /> : <Timer aria-hidden className="size-5" />}
            <span className="sr-only">{t`Time left:`}</span>
            <span role="timer">{timeText}</span>
          </p>
        )}
        <p className="text-sm text-slate-600 dark:text-slate-300">{t`Answered ${answeredCount} of ${total}`}</p>
        <button
          type="button"
          disabled={submitting}
          onClick={() => (unanswered > 0 ? setConfirmOpen(true) : submitNow())}
          className="inline-flex min-h-11 items-center gap-1 rounded-md bg-primary px-4 font-medium text-white hover:bg-primary-strong disabled:opacity-50"
        >
          <Send aria-hidden className="size-4" />
          {submitting ? t`Submitting…` : t`Submit`}
        </button>
        <span className="sr-only" aria-live="assertive">
          {announcement}
        </span>
      </header>

      {failed && (
        <p role="alert" className="flex items-center gap-2 rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
          <AlertTriangle aria-hidden className="size-4 shrink-0" />
          {failed === "save" ? t`Your last answer could not be saved on this device.` : t`The exam could not be submitted. Try again.`}
        </p>
      )}

      <section aria-label={t`Question ${position} of ${total}`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
          {t`Question ${position} of ${total}`}
        </p>
        <QuestionView key={question.id} question={question} value={answerOf(question)} onChange={change} disabled={submitting || expired} />
        <div className="flex items-center justify-between gap-2">
          <button
            type="button"
            onClick={() => setIndex(current - 1)}
            disabled={current === 0}
            className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3 disabled:opacity-40 dark:border-slate-600"
          >
            <ChevronLeft aria-hidden className="size-4" />
            <Trans>Previous</Trans>
          </button>
          <button
            type="button"
            onClick={() => setIndex(current + 1)}
            disabled={current === total - 1}
            className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3 disabled:opacity-40 dark:border-slate-600"
          >
            <Trans>Next question</Trans>
            <ChevronRight aria-hidden className="size-4" />
          </button>
        </div>
      </section>

      <nav aria-label={t`Jump to a question`} className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
        <ol className="grid grid-cols-[repeat(auto-fill,minmax(2.75rem,1fr))] gap-2">
          {questions.map((q, i) => {
            const n = i + 1;
            const done = isAnswered(q, answerOf(q));
            const label = done ? t`Question ${n}, answered` : t`Question ${n}, not answered`;
            return (
              <li key={q.id}>
                <button
                  type="button"
                  onClick={() => setIndex(i)}
                  aria-current={i === current ? "step" : undefined}
                  aria-label={label}
                  className={`min-h-11 w-full rounded-md border text-sm ${i === current ? "ring-2 ring-primary" : ""} ${
                    done ? "border-primary bg-blue-50 font-medium text-slate-900 dark:bg-slate-800 dark:text-slate-100" : "border-slate-200 dark:border-slate-700"
                  }`}
                >
                  {n}
                  {done && <span aria-hidden>•</span>}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      <AlertDialog.Root open={confirmOpen} onOpenChange={setConfirmOpen}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
          <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 space-y-4 rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900">
            <AlertDialog.Title className="text-lg font-semibold">
              <Trans>Submit the exam?</Trans>
            </AlertDialog.Title>
            <AlertDialog.Description className="text-slate-700 dark:text-slate-300">
              {t`Questions not answered: ${unanswered}. Unanswered questions score nothing.`}
            </AlertDialog.Description>
            <div className="flex flex-wrap justify-end gap-2">
              <AlertDialog.Cancel className="min-h-11 rounded-md border border-slate-300 px-4 dark:border-slate-600">
                <Trans>Keep answering</Trans>
              </AlertDialog.Cancel>
              <AlertDialog.Action onClick={submitNow} className="min-h-11 rounded-md bg-primary px-4 font-medium text-white hover:bg-primary-strong">
                <Trans>Submit anyway</Trans>
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </div>
  );
}
