import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Button } from "./Button.tsx";
import { Spinner } from "./Spinner.tsx";

/**
 * The row that ends a form: an optional way out (Cancel, or the caller's word) and the submit
 * button, which shows a spinner and refuses a second press while `busy`. No `onCancel`, no way
 * out; `submit` null, no submit (a form that can only be read now). In a dialog it stays in view
 * at the panel's foot while the form scrolls (ui/DialogFrame).
 */
export function FormFooter({
  busy = false,
  submit = <Trans>Save</Trans>,
  onCancel,
  cancel = <Trans>Cancel</Trans>,
  className = "",
}: {
  busy?: boolean;
  submit?: ReactNode;
  onCancel?: () => void;
  cancel?: ReactNode;
  className?: string;
}) {
  return (
    <div data-form-footer className={`flex flex-wrap justify-end gap-2 ${className}`}>
      {onCancel && <Button onClick={onCancel}>{cancel}</Button>}
      {submit !== null && (
        <Button type="submit" variant="primary" disabled={busy}>
          {busy && <Spinner className="size-4 text-white" />}
          {submit}
        </Button>
      )}
    </div>
  );
}

/** A form's refusal (the server's or the form's own words), read out as it appears; nothing when there is none. */
export function FormAlert({ text }: { text: ReactNode }) {
  if (!text) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
      {text}
    </p>
  );
}
