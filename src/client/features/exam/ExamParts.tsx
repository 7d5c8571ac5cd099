import { useEffect, useRef, useState, type ReactNode } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { AlertTriangle, ChevronLeft, ChevronRight, Send, Timer } from "lucide-react";
import { Button } from "../../ui/Button.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import { QuestionGrid } from "./QuestionGrid.tsx";
import { QuestionView, emptyAnswer, isAnswered } from "./QuestionView.tsx";
import { formatRemaining } from "./remaining.ts";

export { QuestionGrid, type GridState } from "./QuestionGrid.tsx";

/** Parts shared by the exam screens: practice, mock exams and official exams. */

/** One question of an attempt with its position, the points the paper gives it (when known) and "Previous" / "Next question". */
export function QuestionStep({ position, total, points, onMove, children }: { position: number; total: number; points?: number; onMove(index: number): void; children: ReactNode }) {
  const { t } = useLingui();
  const current = position - 1;
  return (
    <section aria-label={t`Question ${position} of ${total}`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <p className="flex flex-wrap justify-between gap-2 text-sm text-slate-600 dark:text-slate-300">
        <span aria-live="polite">{t`Question ${position} of ${total}`}</span>
        {points !== undefined && <span className="font-medium text-slate-800 tabular-nums dark:text-slate-100">{t`${plural(points, { one: "# point", other: "# points" })}`}</span>}
      </p>
      {children}
      <div className="flex items-center justify-between gap-2">
        <Button onClick={() => onMove(current - 1)} disabled={current === 0}>
          <ChevronLeft aria-hidden className="size-4" />
          <Trans>Previous</Trans>
        </Button>
        <Button onClick={() => onMove(current + 1)} disabled={current >= total - 1}>
          <Trans>Next question</Trans>
          <ChevronRight aria-hidden className="size-4" />
        </Button>
      </div>
    </section>
  );
}

const FIVE_MINUTES = 5 * 60_000;
const ONE_MINUTE = 60_000;

/**
 * The sticky bar of an exam in progress: its title, the time left (announced to screen readers at
 * five minutes and one minute), how many questions are answered, and "Submit".
 */
export function ExamHeader({
  title,
  remaining,
  answered,
  total,
  submitting,
  submitDisabled = false,
  onSubmit,
  children,
}: {
  title: string;
  /** ms left; null without a time limit. */
  remaining: number | null;
  answered: number;
  total: number;
  submitting: boolean;
  submitDisabled?: boolean;
  onSubmit(): void;
  /** Extra status next to the count (e.g. "not yet on the server"). */
  children?: ReactNode;
}) {
  const { t } = useLingui();
  const lowTime = remaining !== null && remaining <= FIVE_MINUTES;
  const announcement = remaining === null ? "" : remaining <= ONE_MINUTE ? t`Less than a minute left` : remaining <= FIVE_MINUTES ? t`Less than five minutes left` : "";
  return (
    <header className="sticky top-0 z-10 -mx-4 flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 bg-white/95 px-4 py-2 backdrop-blur dark:border-slate-700 dark:bg-slate-900/95">
      <h1 className="min-w-0 flex-1 basis-48 truncate text-base font-semibold sm:text-lg">{title}</h1>
      {remaining !== null && (
        <p className={`inline-flex items-center gap-1 font-mono text-lg tabular-nums ${lowTime ? "font-semibold text-red-700 dark:text-red-300" : ""}`}>
          {lowTime ? <AlertTriangle aria-hidden className="size-5" /> : <Timer aria-hidden className="size-5" />}
          <span className="sr-only">{t`Time left:`}</span>
          <span role="timer">{formatRemaining(remaining)}</span>
        </p>
      )}
      <p className="text-sm text-slate-600 dark:text-slate-300">{t`Answered ${answered} of ${total}`}</p>
      {children}
      <Button variant="primary" disabled={submitting || submitDisabled} onClick={onSubmit}>
        <Send aria-hidden className="size-4" />
        {submitting ? t`Submitting…` : t`Submit`}
      </Button>
      <span className="sr-only" aria-live="assertive">
        {announcement}
      </span>
    </header>
  );
}

/** A failure the member must know of: an answer not saved on the device, or a submission that failed. */
export function ExamAlert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="flex items-center gap-2 rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
      <AlertTriangle aria-hidden className="size-4 shrink-0" />
      {children}
    </p>
  );
}

/**
 * "Submit the exam?": how many questions are not answered (none: that answers cannot be changed
 * afterwards); "Keep answering" or "Submit anyway".
 */
export function SubmitExamDialog({ open, onOpenChange, unanswered, onConfirm }: { open: boolean; onOpenChange(open: boolean): void; unanswered: number; onConfirm(): void }) {
  const { t } = useLingui();
  return (
    <ConfirmDialog
      tone="primary"
      open={open}
      onOpenChange={onOpenChange}
      title={<Trans>Submit the exam?</Trans>}
      description={
        unanswered > 0
          ? t`${plural(unanswered, { one: "# question is not answered.", other: "# questions are not answered." })} Unanswered questions score nothing.`
          : t`Every question is answered. You cannot change your answers after submitting.`
      }
      cancelLabel={<Trans>Keep answering</Trans>}
      confirmLabel={unanswered > 0 ? <Trans>Submit anyway</Trans> : <Trans>Submit</Trans>}
      // Submitting takes the member away from the questions: the dialog closes with it.
      onConfirm={() => {
        onConfirm();
        onOpenChange(false);
      }}
    />
  );
}

/**
 * What a page sitting an exam keeps: the open question (`start` first; `onMoved` hears each move,
 * for a page that stores it) and the answers made on this screen (`drafts`), shown at once while
 * the device's copy (`stored`) catches up.
 */
export function useExamProgress(stored: Readonly<Record<string, GivenAnswer>> | undefined, start = 0, onMoved?: (index: number) => void) {
  const [index, setIndex] = useState(start);
  const [drafts, setDrafts] = useState<Record<string, GivenAnswer>>({});
  return {
    index,
    drafts,
    move: (next: number) => {
      setIndex(next);
      onMoved?.(next);
    },
    answerOf: (q: ExamQuestion): GivenAnswer | undefined => drafts[String(q.id)] ?? stored?.[String(q.id)],
    keep: (q: ExamQuestion, answer: GivenAnswer) => setDrafts((d) => ({ ...d, [String(q.id)]: answer })),
  };
}

export type ExamProgress = ReturnType<typeof useExamProgress>;

/**
 * A mock or official exam being sat: the sticky header (`status` beside the count), what the page
 * says above the question (`children`: notices, alerts), the open question with its steps, the
 * grid of every question, and the confirm before submitting, always asked (a tap on "Submit" with
 * every question answered still ends the exam for good). Once the time is up or while submitting,
 * answers are locked. `questions` is never empty (the page says so instead).
 */
export function ExamSheet({
  title,
  remaining,
  questions,
  progress,
  onAnswer,
  submitting,
  submitDisabled,
  onSubmit,
  status,
  children,
}: {
  title: string;
  /** ms left; null without a time limit. */
  remaining: number | null;
  questions: readonly ExamQuestion[];
  progress: ExamProgress;
  /** An answer was made (it shows at once): the page saves it. */
  onAnswer(question: ExamQuestion, answer: GivenAnswer): void;
  submitting: boolean;
  submitDisabled?: boolean;
  /** Submits, once the member confirmed. */
  onSubmit(): void;
  status?: ReactNode;
  children?: ReactNode;
}) {
  const [confirmOpen, setConfirmOpen] = useState(false);
  const total = questions.length;
  const current = Math.min(progress.index, Math.max(0, total - 1));
  const question = questions[current]!;
  const valueOf = (q: ExamQuestion) => progress.answerOf(q) ?? emptyAnswer(q);
  const answered = questions.map((q) => isAnswered(q, valueOf(q)));
  const answeredCount = answered.filter(Boolean).length;
  return (
    <div className="mx-auto max-w-3xl space-y-4 pb-8">
      <ExamHeader title={title} remaining={remaining} answered={answeredCount} total={total} submitting={submitting} submitDisabled={submitDisabled} onSubmit={() => setConfirmOpen(true)}>
        {status}
      </ExamHeader>
      {children}
      <QuestionStep position={current + 1} total={total} points={question.score} onMove={progress.move}>
        <QuestionView
          key={question.id}
          question={question}
          value={valueOf(question)}
          onChange={(next) => {
            progress.keep(question, next);
            onAnswer(question, next);
          }}
          disabled={remaining === 0 || submitting}
        />
      </QuestionStep>
      <QuestionGrid states={answered.map((a) => (a ? "answered" : "unanswered"))} current={current} onJump={progress.move} />
      <SubmitExamDialog open={confirmOpen} onOpenChange={setConfirmOpen} unanswered={total - answeredCount} onConfirm={onSubmit} />
    </div>
  );
}

/**
 * The current time, refreshed every second and whenever the page becomes visible again; calls
 * `onExpired` (through a ref, so always the latest) on each refresh at or after the deadline.
 * The remaining time is always `deadline - now`, never a count of ticks, so sleep and background
 * tabs (which throttle timers) cannot make it drift.
 */
export function useDeadlineClock(deadline: number | null, onExpired: () => void): number {
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
