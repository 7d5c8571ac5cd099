import { useState } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { AlertDialog } from "radix-ui";
import { PlayCircle } from "lucide-react";
import { useNavigate } from "react-router-dom";
import type { Catalog } from "../../../shared/exam/catalog.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { examQueries } from "./api.ts";
import { startOfficial } from "./official.ts";

type Room = Catalog["rooms"][number];

/** "N attempts left" of a room (an open attempt counts as used). */
export function AttemptsLeft({ room }: { room: Room }) {
  const { t } = useLingui();
  const left = room.attemptsLeft;
  return <span>{t`${plural(left, { one: "# attempt left", other: "# attempts left" })}`}</span>;
}

/**
 * "Enter the exam" on an official exam room: an introduction first (duration, questions, points,
 * pass mark, attempts left, face check), and the attempt starts only on "Start". The catalogue
 * is refetched once an attempt starts, so the attempts left count down.
 */
export function EnterOfficialButton({ room, disabled, className }: { room: Room; disabled?: boolean; className: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // The member's overrides are included in the time and the attempts (a catalogue cached before them has neither).
  const minutes = Math.round(room.duration / 60);
  const extraMinutes = room.extraMinutes ?? 0;
  const extraAttempts = room.extraAttempts ?? 0;
  const { attemptsLeft, attemptsAllowed } = room;
  const duration = t`${plural(minutes, { one: "# minute", other: "# minutes" })}`;

  async function start() {
    setBusy(true);
    try {
      const attempt = await startOfficial(room.id);
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: examQueries.catalog().queryKey });
      void navigate(`/exam/my_test_detail?official=${attempt.attempt.uuid}`);
    } catch {
      // The request layer says why (not open yet, ended, no attempts left, offline...).
    } finally {
      setBusy(false);
    }
  }

  const figure = (label: string, value: string) => (
    <div className="flex justify-between gap-4 border-b border-slate-100 py-1.5 last:border-0 dark:border-slate-800">
      <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialog.Trigger disabled={disabled} className={className}>
        <PlayCircle aria-hidden className="size-5" />
        <Trans>Enter the exam</Trans>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 space-y-4 rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900">
          <AlertDialog.Title className="text-lg font-semibold">{room.title}</AlertDialog.Title>
          <AlertDialog.Description className="text-sm text-slate-700 dark:text-slate-300">
            <Trans>Read the rules of this exam. The time starts when you press Start.</Trans>
          </AlertDialog.Description>
          <dl className="text-sm">
            {figure(t`Duration`, extraMinutes > 0 ? t`${duration}, includes ${plural(extraMinutes, { one: "# extra minute", other: "# extra minutes" })}` : duration)}
            {figure(t`Questions`, String(room.questionCount))}
            {figure(t`Total points`, String(room.totalScore))}
            {figure(t`Pass score`, String(room.passScore))}
            {figure(
              t`Attempts left`,
              extraAttempts > 0 ? t`${attemptsLeft} of ${attemptsAllowed}, includes ${plural(extraAttempts, { one: "# extra attempt", other: "# extra attempts" })}` : t`${attemptsLeft} of ${attemptsAllowed}`,
            )}
            {figure(t`Face check`, room.faceCheck ? t`Required` : t`Not required`)}
          </dl>
          <div className="flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel disabled={busy} className="min-h-11 rounded-md border border-slate-300 px-4 dark:border-slate-600">
              <Trans>Cancel</Trans>
            </AlertDialog.Cancel>
            <button
              type="button"
              onClick={() => void start()}
              disabled={busy}
              className="inline-flex min-h-11 items-center gap-2 rounded-md bg-primary px-4 font-medium text-white hover:bg-primary-strong disabled:opacity-50"
            >
              {busy && <Spinner className="size-4 text-white" />}
              <Trans>Start</Trans>
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
