import { useEffect, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Send, Timer } from "lucide-react";
import { useNavigate, useSearchParams } from "react-router-dom";
import type { GivenAnswer } from "../../../shared/exam/types.ts";
import { useOnline } from "../../ui/useOnline.ts";
import { formatRemaining } from "./papers.ts";
import { isClosedAttemptError, localDeadlineMs, readOfficial, saveOfficial, submitOfficial, withAnswer, writeOfficial, type LocalOfficialAttempt } from "./official.ts";
import { QuestionView, emptyAnswer, isAnswered } from "./QuestionView.tsx";

/**
 * An official exam in progress (`/exam/my_test_detail?official=`): the deadline is the server's;
 * every answer is written on the device first and sent to the server (again when the network is
 * back); the server refuses answers after its deadline plus a short grace.
 */
export default function OfficialTakingPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const uuid = params.get("official") ?? "";
  const online = useOnline();
  const [attempt, setAttempt] = useState<LocalOfficialAttempt | null>(() => readOfficial(uuid));
  const [index, setIndex] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  // Send unsaved answers whenever they change and the network is there.
  useEffect(() => {
    if (!attempt?.dirty || !online) return;
    const timer = setTimeout(() => {
      saveOfficial(attempt).then(
        (outcome) => {
          if (outcome === "closed") void navigate(`/exam/examResult?uuid=${attempt.attempt.uuid}`, { replace: true });
          else setAttempt((a) => (a && a.answers === attempt.answers ? { ...a, dirty: false } : a));
        },
        () => undefined,
      );
    }, 800);
    return () => clearTimeout(timer);
  }, [attempt, online, navigate]);

  if (!attempt) return <p className="py-12 text-center">{t`This exam is not open on this device. Enter it from the official exams tab.`}</p>;

  const left = Math.max(0, localDeadlineMs(attempt) - now);
  const question = attempt.questions[Math.min(index, attempt.questions.length - 1)]!;
  const value = attempt.answers[String(question.id)] ?? emptyAnswer(question);
  const total = attempt.questions.length;
  const position = index + 1;
  const answeredCount = attempt.questions.filter((q) => {
    const a = attempt.answers[String(q.id)];
    return a !== undefined && isAnswered(q, a);
  }).length;

  const change = (next: GivenAnswer) => {
    const updated = withAnswer(attempt, question.id, next);
    writeOfficial(updated);
    setAttempt(updated);
  };

  async function submit() {
    if (!attempt) return;
    setSubmitting(true);
    try {
      await submitOfficial(attempt);
      void navigate(`/exam/examResult?uuid=${attempt.attempt.uuid}`, { replace: true });
    } catch (error) {
      // Time up on the server: it graded what reached it in time; show that result.
      if (isClosedAttemptError(error)) void navigate(`/exam/examResult?uuid=${attempt.attempt.uuid}`, { replace: true });
      else setSubmitting(false);
    }
  }

  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <header className="sticky top-0 z-10 flex flex-wrap items-center justify-between gap-2 rounded-lg bg-white/95 p-3 shadow-sm dark:bg-slate-900/95">
        <span className={`inline-flex items-center gap-1 font-mono text-lg ${left < 60_000 ? "text-red-700 dark:text-red-400" : ""}`} aria-live="off">
          <Timer aria-hidden className="size-5" />
          {formatRemaining(left)}
        </span>
        <span className="text-sm text-slate-600 dark:text-slate-300">{t`Answered ${answeredCount} of ${total}`}</span>
        {attempt.dirty && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900">{t`Saved on this device, not yet on the server`}</span>}
        <button type="button" onClick={() => void submit()} disabled={submitting || !online} className="inline-flex min-h-11 items-center gap-2 rounded-md bg-primary px-4 font-medium text-white disabled:opacity-50">
          <Send aria-hidden className="size-4" />
          <Trans>Submit</Trans>
        </button>
      </header>
      <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <p className="text-sm text-slate-600 dark:text-slate-300">{t`Question ${position} of ${total}`}</p>
        <QuestionView key={question.id} question={question} value={value} onChange={change} disabled={left === 0} />
        <div className="flex justify-between">
          <button type="button" onClick={() => setIndex(Math.max(0, index - 1))} disabled={index === 0} className="min-h-11 rounded-md border border-slate-300 px-4 disabled:opacity-40 dark:border-slate-600">
            <Trans>Previous</Trans>
          </button>
          <button type="button" onClick={() => setIndex(Math.min(total - 1, index + 1))} disabled={index === total - 1} className="min-h-11 rounded-md border border-slate-300 px-4 disabled:opacity-40 dark:border-slate-600">
            <Trans>Next question</Trans>
          </button>
        </div>
      </div>
    </div>
  );
}
