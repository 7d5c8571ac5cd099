import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { Button, buttonClass } from "./Button.tsx";

/**
 * A screen or list whose data could not be loaded: what failed (and the server's own words, if
 * it gave any), "Try again", and a way back when the failure leaves the member nowhere else to go.
 */
export function LoadFailed({
  message,
  detail,
  onRetry,
  backTo,
  backLabel,
}: {
  message: ReactNode;
  detail?: ReactNode;
  onRetry?: () => void;
  backTo?: string;
  backLabel?: ReactNode;
}) {
  return (
    <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
      <p>{message}</p>
      {detail ? <p className="text-sm text-slate-600 dark:text-slate-300">{detail}</p> : null}
      <div className="flex justify-center gap-2">
        {onRetry && (
          <Button variant="primary" onClick={onRetry}>
            <Trans>Try again</Trans>
          </Button>
        )}
        {backTo && (
          <Link to={backTo} className={buttonClass("secondary")}>
            {backLabel}
          </Link>
        )}
      </div>
    </div>
  );
}
