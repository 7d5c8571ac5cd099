import type { ReactNode } from "react";
import { Trans } from "@lingui/react/macro";
import { AlertDialog } from "radix-ui";
import { Spinner } from "../../ui/Spinner.tsx";
import { Button, buttonClass } from "../../ui/Button.tsx";

/** One line of an exam's introduction: what (`label`) and how much (`value`). */
export interface ExamIntroFigure {
  label: string;
  value: string;
}

/**
 * The introduction before an exam starts (the look of the official exam's, OfficialIntro.tsx):
 * the exam's title, a word on when the time starts, its figures (duration, questions, points,
 * pass score...), Cancel and Start. Nothing starts until Start (`onStart`); while `busy` the
 * dialog stays open and both buttons wait. `trigger`, when given, is the button that opens it
 * (rendered as the dialog's trigger); otherwise the caller opens it through `open`.
 */
export function ExamIntroDialog({
  open,
  onOpenChange,
  title,
  figures,
  busy,
  onStart,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  figures: readonly ExamIntroFigure[];
  busy: boolean;
  onStart: () => void;
  trigger?: ReactNode;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      {trigger !== undefined && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 space-y-4 rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900">
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="text-sm text-slate-700 dark:text-slate-300">
            <Trans>Read the rules of this exam. The time starts when you press Start.</Trans>
          </AlertDialog.Description>
          <dl className="text-sm">
            {figures.map(({ label, value }) => (
              <div key={label} className="flex justify-between gap-4 border-b border-slate-100 py-1.5 last:border-0 dark:border-slate-800">
                <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
                <dd className="font-medium tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel disabled={busy} className={buttonClass("secondary")}>
              <Trans>Cancel</Trans>
            </AlertDialog.Cancel>
            <Button
              variant="primary"
              onClick={onStart}
              disabled={busy}
              aria-busy={busy}
            >
              {busy && <Spinner className="size-4 text-white" />}
              <Trans>Start</Trans>
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
