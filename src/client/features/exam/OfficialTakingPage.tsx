import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearchParams } from "react-router-dom";
import type { GivenAnswer } from "../../../shared/exam/types.ts";
import { useDocumentTitle } from "../../routing/routeState.ts";
import { useOnline } from "../../ui/useOnline.ts";
import { examQueries } from "./api.ts";
import { ExamHeader, QuestionGrid, QuestionStep, SubmitExamDialog, useDeadlineClock } from "./ExamParts.tsx";
import { isClosedAttemptError, localDeadlineMs, readOfficial, saveOfficial, submitOfficial, withAnswer, writeOfficial, type LocalOfficialAttempt } from "./official.ts";
import { QuestionView, emptyAnswer, isAnswered } from "./QuestionView.tsx";

const noop = () => undefined;

/**
 * The exam room's title: from the attempt (the server names it at start) or, for an attempt
 * stored on this device before it did, from the catalogue.
 */
function useRoomTitle(attempt: LocalOfficialAttempt | null): string | null {
  const known = attempt?.attempt.roomTitle ?? null;
  const catalog = useQuery({ ...examQueries.catalog(), enabled: attempt !== null && !known });
  if (known) return known;
  return catalog.data?.rooms.find((r) => r.id === attempt?.attempt.roomId)?.title ?? null;
}

/**
 * An official exam in progress (`/exam/my_test_detail?official=`): the deadline is the server's;
 * every answer is written on the device first and sent to the server (again when the network is
 * back); the server refuses answers after its deadline plus a short grace. Submitting always asks
 * first (it cannot be undone, and it uses one of the room's attempts), saying how many questions
 * are not answered.
 */
export default function OfficialTakingPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const uuid = params.get("official") ?? "";
  const online = useOnline();
  const [attempt, setAttempt] = useState<LocalOfficialAttempt | null>(() => readOfficial(uuid));
  const [index, setIndex] = useState(0);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const now = useDeadlineClock(attempt ? localDeadlineMs(attempt) : null, noop);
  const roomTitle = useRoomTitle(attempt);
  useDocumentTitle(roomTitle);

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
  if (attempt.questions.length === 0) return <p role="alert" className="py-12 text-center">{t`This exam has no questions.`}</p>;

  const left = Math.max(0, localDeadlineMs(attempt) - now);
  const questions = attempt.questions;
  const total = questions.length;
  const current = Math.min(index, Math.max(0, total - 1));
  const question = questions[current]!;
  const value = attempt.answers[String(question.id)] ?? emptyAnswer(question);
  const answeredOf = (q: (typeof questions)[number]) => {
    const a = attempt.answers[String(q.id)];
    return a !== undefined && isAnswered(q, a);
  };
  const answeredCount = questions.filter(answeredOf).length;

  const change = (next: GivenAnswer) => {
    const updated = withAnswer(attempt, question.id, next);
    writeOfficial(updated);
    setAttempt(updated);
  };

  async function submit() {
    if (!attempt) return;
    setConfirmOpen(false);
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
    <div className="mx-auto max-w-3xl space-y-4 pb-8">
      <ExamHeader
        title={roomTitle ?? t`Official exam`}
        remaining={left}
        answered={answeredCount}
        total={total}
        submitting={submitting}
        submitDisabled={!online}
        onSubmit={() => setConfirmOpen(true)}
      >
        {attempt.dirty && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900">{t`Saved on this device, not yet on the server`}</span>}
      </ExamHeader>
      <QuestionStep position={current + 1} total={total} onMove={setIndex}>
        <QuestionView key={question.id} question={question} value={value} onChange={change} disabled={left === 0 || submitting} />
      </QuestionStep>
      <QuestionGrid states={questions.map((q) => (answeredOf(q) ? "answered" : "unanswered"))} current={current} onJump={setIndex} />
      <SubmitExamDialog open={confirmOpen} onOpenChange={setConfirmOpen} unanswered={total - answeredCount} onConfirm={() => void submit()} />
    </div>
  );
}
