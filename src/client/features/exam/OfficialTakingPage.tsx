import { useCallback, useEffect, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useSearchParams } from "react-router-dom";
import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import {
  answerOfficial,
  finishOfficial,
  notePageBack,
  notePageLeft,
  storedOfficial,
  unsentOfficialAnswers,
  useOfflineDb,
  useOfflineQuery,
  type MemberDb,
  type OfficialAttemptRow,
} from "../../offline/index.ts";
import { useDocumentTitle } from "../../routing/routeState.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { listen } from "../../browser/listen.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { examQueries } from "./api.ts";
import { ExamAlert, ExamSheet, useDeadlineClock, useExamProgress } from "./ExamParts.tsx";
import { FaceGate, FaceMonitor } from "./FaceCheck.tsx";
import { isClosedAttemptError, localDeadlineMs, startOfficial, submitOfficial } from "./official.ts";

const noop = () => undefined;

/**
 * The exam room's title: from the attempt (the server names it at start) or, for an attempt
 * stored on this device before it did, from the catalogue.
 */
function useRoomTitle(attempt: OfficialAttemptRow | null): string | null {
  const known = attempt?.attempt.roomTitle ?? null;
  const catalog = useQuery({ ...examQueries.catalog(), enabled: attempt !== null && !known });
  if (known) return known;
  return catalog.data?.rooms.find((r) => r.id === attempt?.attempt.roomId)?.title ?? null;
}

/**
 * Records each time the exam page is hidden (another tab or app, a locked screen, the page closed
 * or reloaded) and shown again, on the device first (offline/repository/pageLeaves.ts) and sent
 * with the answers; markers see them. Opening the page ends a leave its closing left open.
 */
function usePageLeaves(db: MemberDb | null, uuid: string): void {
  useEffect(() => {
    if (!db || !uuid) return;
    const left = () => void notePageLeft(db, uuid).catch(() => undefined);
    const back = () => void notePageBack(db, uuid).catch(() => undefined);
    const changed = () => (document.visibilityState === "hidden" ? left() : back());
    if (document.visibilityState !== "hidden") back();
    return listen([document, "visibilitychange", changed], [window, "pagehide", left], [window, "pageshow", changed]);
  }, [db, uuid]);
}

/**
 * An official exam in progress (`/exam/my_test_detail?official=`): the deadline is the server's;
 * every answer is written on the device first and queued for the server in the outbox (sent at
 * once when online, later when the network is back); answers reaching the server after its
 * deadline plus a short grace are kept for a marker or refused. Submitting always asks first (it
 * cannot be undone, and it uses one of the room's attempts), saying how many questions are not
 * answered. Each time the page is hidden and shown again is recorded (`usePageLeaves`).
 */
export default function OfficialTakingPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const uuid = params.get("official") ?? "";
  const online = useOnline();
  const db = useOfflineDb();
  // undefined while the device's copy is read.
  const attempt = useOfflineQuery((d) => storedOfficial(d, uuid), [uuid], undefined);
  const unsent = useOfflineQuery((d) => unsentOfficialAnswers(d, uuid), [uuid], 0);
  const progress = useExamProgress(attempt?.answers);
  const [submitting, setSubmitting] = useState(false);
  const [saveFailed, setSaveFailed] = useState(false);
  const now = useDeadlineClock(attempt ? localDeadlineMs(attempt) : null, noop);
  const roomTitle = useRoomTitle(attempt ?? null);
  useDocumentTitle(roomTitle);
  usePageLeaves(db, uuid);

  // Face rule: the questions come once the start check passed (the server sends them
  // on entering again); a rule that stops the attempt ends it here too.
  const roomId = attempt?.attempt.roomId;
  const faceReenter = useCallback(() => {
    if (roomId !== undefined && db) void startOfficial(roomId, db).catch(() => undefined);
  }, [roomId, db]);
  const faceStopped = useCallback(() => {
    if (db) void finishOfficial(db, uuid).catch(() => undefined);
    void navigate(`/exam/examResult?uuid=${uuid}`, { replace: true });
  }, [db, uuid, navigate]);

  if (attempt === undefined) return <Spinner className="mx-auto my-16 size-8" />;
  if (!attempt) return <p className="py-12 text-center">{t`This exam is not open on this device. Enter it from the official exams tab.`}</p>;
  const face = attempt.face ?? null;
  if (face?.gate) return <FaceGate attempt={attempt} rule={face.rule} onPassed={faceReenter} onStopped={faceStopped} />;
  if (attempt.questions.length === 0) return <p role="alert" className="py-12 text-center">{t`This exam has no questions.`}</p>;

  const left = Math.max(0, localDeadlineMs(attempt) - now);

  // Written on the device with its outbox op; the live query of the device's copy follows.
  const save = (question: ExamQuestion, next: GivenAnswer) => {
    if (!db) return;
    answerOfficial(db, attempt.uuid, question.id, next).then(
      (stored) => setSaveFailed(stored === null),
      () => setSaveFailed(true),
    );
  };

  async function submit() {
    if (!attempt) return;
    setSubmitting(true);
    try {
      await submitOfficial(attempt, db ?? undefined);
      // The attempts left of the room's entry in the catalogue count this one.
      void queryClient.invalidateQueries({ queryKey: examQueries.catalog().queryKey });
      void navigate(`/exam/examResult?uuid=${attempt.attempt.uuid}`, { replace: true });
    } catch (error) {
      // Time up on the server: it graded what reached it in time; show that result.
      if (isClosedAttemptError(error)) {
        void queryClient.invalidateQueries({ queryKey: examQueries.catalog().queryKey });
        void navigate(`/exam/examResult?uuid=${attempt.attempt.uuid}`, { replace: true });
      } else setSubmitting(false);
    }
  }

  return (
    <ExamSheet
      title={roomTitle ?? t`Official exam`}
      remaining={left}
      questions={attempt.questions}
      progress={progress}
      onAnswer={save}
      submitting={submitting}
      submitDisabled={!online}
      onSubmit={() => void submit()}
      status={unsent > 0 && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900">{t`Saved on this device, not yet on the server`}</span>}
    >
      <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="leave-notice">
        {t`Leaving this page during the exam (another tab or app, a locked screen) is recorded for the markers.`}
      </p>
      {face && (face.rule.everyMinutes > 0 || face.rule.randomCount > 0) && <FaceMonitor attempt={attempt} rule={face.rule} onStopped={faceStopped} />}
      {saveFailed && <ExamAlert>{t`Your last answer could not be saved on this device.`}</ExamAlert>}
    </ExamSheet>
  );
}
