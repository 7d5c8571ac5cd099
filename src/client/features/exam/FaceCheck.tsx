import { useCallback, useEffect, useRef, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Camera, LoaderCircle } from "lucide-react";
import { faceSchedule, scheduledCheckId, type FaceCheckKind, type FaceCheckResult, type FaceRule } from "../../../shared/exam/face.ts";
import { submitFaceCheck, useOfflineDb, type OfficialAttemptRow } from "../../offline/index.ts";
import { Button } from "../../ui/Button.tsx";
import { jpegOf } from "./faceCamera.ts";
import { lookAt, preloadDetector } from "./faceDetector.ts";
import { VERDICT_MESSAGES } from "./faceMessages.ts";
import { useCamera } from "./useFaceCamera.ts";

/**
 * Face checks of an official exam. `FaceGate`: before the questions, a snapshot the
 * server must pass. `FaceMonitor`: snapshots on the rule's schedule while the exam runs. Each
 * snapshot is written to the device's queue and sent at once when online, later when not; the
 * server's verdict counts (the device's look is sent as a hint). A camera refused, missing or
 * failing is reported as a failed check with its own message — never a silent pass.
 */

type Status = { kind: "idle" } | { kind: "checking" } | { kind: "queued" } | { kind: "result"; result: FaceCheckResult } | { kind: "refused"; message: string };

function useFaceSender(attempt: OfficialAttemptRow, onStopped: () => void) {
  const db = useOfflineDb();
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const send = useCallback(
    async (checkId: string, kind: FaceCheckKind, take: () => Promise<{ image?: string; problem?: "camera_refused" | "no_camera" | "camera_failed"; deviceVerdict?: string }>) => {
      if (!db) return null;
      setStatus({ kind: "checking" });
      const shot = await take();
      const outcome = await submitFaceCheck(db, { checkId, uuid: attempt.uuid, kind, takenAt: Date.now(), ...shot });
      if (outcome.sent) {
        setStatus({ kind: "result", result: outcome.result });
        if (outcome.result.flag === "stopped") onStopped();
        return outcome.result;
      }
      setStatus(outcome.refused === null ? { kind: "queued" } : { kind: "refused", message: outcome.refused });
      return null;
    },
    [db, attempt.uuid, onStopped],
  );
  return { status, send };
}

function StatusLine({ status, rule }: { status: Status; rule: FaceRule }) {
  const { t, i18n } = useLingui();
  if (status.kind === "idle") return null;
  if (status.kind === "checking")
    return (
      <p role="status" className="flex items-center gap-2 text-sm">
        <LoaderCircle aria-hidden className="size-4 animate-spin" />
        {t`Checking your face…`}
      </p>
    );
  if (status.kind === "queued") return <p role="status" className="text-sm text-amber-800 dark:text-amber-200">{t`Offline: the snapshot is saved on this device and will be sent when the network is back.`}</p>;
  if (status.kind === "refused") return <p role="alert" className="text-sm text-red-700 dark:text-red-300">{status.message}</p>;
  const { result } = status;
  const passed = result.verdict === "pass";
  const failures = result.failures;
  const max = rule.maxFailures;
  return (
    <div role={passed ? "status" : "alert"} className={`space-y-1 text-sm ${passed ? "text-green-800 dark:text-green-300" : "text-red-700 dark:text-red-300"}`}>
      <p data-verdict={result.verdict}>
        {i18n._(VERDICT_MESSAGES[result.verdict])}
        {result.similarity !== null && ` (${t`similarity`} ${result.similarity.toFixed(2)})`}
      </p>
      {!passed && result.flag === "none" && <p>{t`Failed checks: ${failures} of ${max}.`}</p>}
      {result.flag === "flagged" && <p>{t`This attempt is flagged for a marker's review.`}</p>}
      {result.flag === "stopped" && <p>{t`Too many failed face checks: the exam was stopped.`}</p>}
    </div>
  );
}

/** The check before the start: the questions come once the server has passed a snapshot. */
export function FaceGate({ attempt, rule, onPassed, onStopped }: { attempt: OfficialAttemptRow; rule: FaceRule; onPassed: () => void; onStopped: () => void }) {
  const { t, i18n } = useLingui();
  const { videoRef, camera, grab, retry } = useCamera();
  const { status, send } = useFaceSender(attempt, onStopped);
  const autoTaken = useRef(false);

  useEffect(() => {
    void preloadDetector().catch(() => undefined);
  }, []);

  const check = useCallback(async () => {
    const result = await send(`${attempt.uuid}:start:${Date.now()}`, "start", async () => {
      if (camera.state === "problem") return { problem: camera.problem };
      const frame = grab();
      if (!frame) return { problem: "camera_failed" as const };
      const look = await lookAt(frame, 8_000);
      return { image: jpegOf(frame), deviceVerdict: look.verdict };
    });
    if (result?.verdict === "pass") onPassed();
  }, [send, attempt.uuid, camera, grab, onPassed]);

  // The first check runs by itself once the camera shows a picture (or has said why it cannot).
  useEffect(() => {
    if (autoTaken.current || camera.state === "opening") return;
    autoTaken.current = true;
    const timer = window.setTimeout(() => void check(), camera.state === "ready" ? 800 : 0);
    return () => window.clearTimeout(timer);
  }, [camera.state, check]);

  const busy = status.kind === "checking";
  const stopped = status.kind === "result" && status.result.flag === "stopped";
  return (
    <section aria-labelledby="face-gate-title" className="mx-auto max-w-md space-y-3 rounded-xl border p-4">
      <h2 id="face-gate-title" className="flex items-center gap-2 text-lg font-semibold">
        <Camera aria-hidden className="size-5" />
        {t`Identity check before the exam`}
      </h2>
      <p className="text-sm text-neutral-600 dark:text-neutral-300">
        <Trans>Look at the camera, alone and in good light. The questions open once the check passes.</Trans>
      </p>
      <video ref={videoRef} muted playsInline aria-label={t`Camera preview`} className="aspect-[4/3] w-full rounded-lg bg-neutral-900 object-cover" />
      {camera.state === "problem" && <p role="alert" className="text-sm text-red-700 dark:text-red-300">{i18n._(VERDICT_MESSAGES[camera.problem])}</p>}
      <StatusLine status={status} rule={rule} />
      {!stopped && (
        <div className="flex gap-2">
          {camera.state === "problem" ? (
            <Button onClick={retry}>{t`Try the camera again`}</Button>
          ) : (
            <Button variant="primary" disabled={busy || camera.state !== "ready"} onClick={() => void check()}>
              {t`Check my face`}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

const doneKey = (uuid: string) => `examhub.faceDone.${uuid}`;

/** Snapshots on the rule's schedule while the exam runs (a small preview in the corner). */
export function FaceMonitor({ attempt, rule, onStopped }: { attempt: OfficialAttemptRow; rule: FaceRule; onStopped: () => void }) {
  const { t } = useLingui();
  const { videoRef, camera, grab } = useCamera();
  const { status, send } = useFaceSender(attempt, onStopped);
  const busy = useRef(false);

  useEffect(() => {
    const startedLocal = attempt.attempt.startedAt * 1000 - attempt.clockOffsetMs;
    const moments = faceSchedule(rule, (attempt.attempt.deadline - attempt.attempt.startedAt) * 1000, attempt.uuid).filter((m) => m.kind !== "start");
    const tick = () => {
      if (busy.current || camera.state === "opening") return;
      const done = new Set<number>(JSON.parse(sessionStorage.getItem(doneKey(attempt.uuid)) ?? "[]") as number[]);
      const due = moments.find((m) => m.offset <= Date.now() - startedLocal && !done.has(m.offset));
      if (!due) return;
      busy.current = true;
      done.add(due.offset);
      sessionStorage.setItem(doneKey(attempt.uuid), JSON.stringify([...done]));
      void send(scheduledCheckId(attempt.uuid, due.offset), due.kind, async () => {
        if (camera.state === "problem") return { problem: camera.problem };
        const frame = grab();
        if (!frame) return { problem: "camera_failed" as const };
        const look = await lookAt(frame, 5_000);
        return { image: jpegOf(frame), deviceVerdict: look.verdict };
      }).finally(() => {
        busy.current = false;
      });
    };
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [attempt, rule, camera, grab, send]);

  return (
    <aside aria-label={t`Face checks`} className="flex items-start gap-3 rounded-lg border p-2">
      <video ref={videoRef} muted playsInline aria-label={t`Camera preview`} className="h-16 w-20 shrink-0 rounded bg-neutral-900 object-cover" />
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium">{t`This exam checks your face from time to time.`}</p>
        {camera.state === "problem" && <p role="alert" className="text-red-700 dark:text-red-300">{t`The camera is not available: each check counts as failed.`}</p>}
        <StatusLine status={status} rule={rule} />
      </div>
    </aside>
  );
}
