import { useCallback, useMemo, useRef, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router-dom";
import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import { saveAttemptAnswer, setAttemptPosition, storedAttempt, submitMockAttempt, useOfflineDb, useOfflineQuery, type AttemptRow, type MemberDb } from "../../offline/index.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { readCachedPaper } from "./papers.ts";
import { ExamAlert, ExamSheet, useDeadlineClock, useExamProgress } from "./ExamParts.tsx";
import { emptyAnswer } from "./QuestionView.tsx";
import { LogInFirst } from "./LogInFirst.tsx";
import { buttonClass } from "../../ui/Button.tsx";

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

/**
 * The question this tab was last on, kept at once as well: the device's database write is
 * asynchronous, and a reload right after "next" (a phone's pull to refresh) ends the page before
 * it lands (seen in 1 browser-test run of about 20). The database keeps it across closed tabs.
 */
const positionKey = (attemptId: string) => `mockPosition:${attemptId}`;

function tabPosition(attemptId: string): number | null {
  try {
    const kept = sessionStorage.getItem(positionKey(attemptId));
    const n = kept === null ? NaN : Number(kept);
    return Number.isInteger(n) && n >= 0 ? n : null;
  } catch {
    return null;
  }
}

function keepTabPosition(attemptId: string, position: number): void {
  try {
    sessionStorage.setItem(positionKey(attemptId), String(position));
  } catch {
    // Storage refused (private mode, full): the database still keeps it.
  }
}

/** `/exam/my_test_detail?attempt=`: sits a mock attempt stored on this device (works offline). */
export default function TestTakingPage() {
  const [params] = useSearchParams();
  const attemptId = params.get("attempt") ?? "";
  const db = useOfflineDb();
  const attempt = useOfflineQuery<AttemptRow | null>(async (d) => (attemptId ? storedAttempt(d, attemptId) : null), [attemptId], undefined);

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
        <Link to="/exam/myTest" className={buttonClass("primary")}>
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
  // Where the member was: a reload or a return opens the same question. Each answer is also
  // autosaved to the device.
  const [start] = useState(() => tabPosition(attempt.attemptId) ?? attempt.position ?? 0);
  const progress = useExamProgress(attempt.answers, start, (next) => {
    keepTabPosition(attempt.attemptId, next);
    void setAttemptPosition(db, attempt.attemptId, next);
  });
  const drafts = progress.drafts;
  const [submitting, setSubmitting] = useState(false);
  const [failed, setFailed] = useState<"save" | "submit" | null>(null);
  const busy = useRef(false);

  const title = useMemo(() => readCachedPaper(attempt.paperId)?.paper.title ?? null, [attempt.paperId]);

  const finish = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const latest = await storedAttempt(db, attempt.attemptId);
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

  if (attempt.questions.length === 0) {
    return (
      <p role="alert" className="py-12 text-center">
        <Trans>This mock exam has no questions.</Trans>
      </p>
    );
  }

  const save = (question: ExamQuestion, value: GivenAnswer) => {
    saveAttemptAnswer(db, attempt.attemptId, question.id, value).then(
      () => setFailed((f) => (f === "save" ? null : f)),
      () => setFailed("save"),
    );
  };
  const submitNow = () => {
    setSubmitting(true);
    void finish();
  };

  return (
    <ExamSheet
      title={title ?? t`Mock exam`}
      remaining={remainingMs(attempt.deadline, now)}
      questions={attempt.questions}
      progress={progress}
      onAnswer={save}
      submitting={submitting}
      onSubmit={submitNow}
    >
      {failed && <ExamAlert>{failed === "save" ? t`Your last answer could not be saved on this device.` : t`The exam could not be submitted. Try again.`}</ExamAlert>}
    </ExamSheet>
  );
}
