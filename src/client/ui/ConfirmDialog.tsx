import { Trans } from "@lingui/react/macro";
import { AlertDialog } from "radix-ui";
import type { ReactNode } from "react";
import { Button } from "./Button.tsx";

/**
 * Asks before something that cannot be undone (an alert dialog: focus starts on Cancel, Escape
 * cancels). `onConfirm` runs on the confirm button; the caller closes the dialog. `tone` is
 * "danger" (the default) for what destroys something, "primary" for a step that is only final
 * (submitting an exam).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel,
  tone = "danger",
  busy,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel: ReactNode;
  /** "Cancel" unless given. */
  cancelLabel?: ReactNode;
  tone?: "danger" | "primary";
  busy?: boolean;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,26rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900 dark:text-slate-100">
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-slate-600 dark:text-slate-300">{description}</AlertDialog.Description>
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button>{cancelLabel ?? <Trans>Cancel</Trans>}</Button>
            </AlertDialog.Cancel>
            <Button variant={tone} disabled={busy} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
