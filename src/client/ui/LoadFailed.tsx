import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

/** A screen whose data could not be loaded: what failed, "Try again", and a way back. */
export function LoadFailed({ message, onRetry, backTo, backLabel }: { message: ReactNode; onRetry: () => void; backTo: string; backLabel: ReactNode }) {
  return (
    <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
      <p>{message}</p>
      <div className="flex justify-center gap-2">
        <button type="button" onClick={onRetry} className="min-h-11 rounded-md bg-primary px-4 text-white hover:bg-primary-strong">
          <Trans>Try again</Trans>
        </button>
        <Link to={backTo} className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-4 dark:border-slate-600">
          {backLabel}
        </Link>
      </div>
    </div>
  );
}
