import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Button, type ButtonVariant } from "./Button.tsx";

/** A part of a screen whose data could not be loaded: what failed and "Try again" (LoadFailed is the whole-screen one, with a way back). */
export function LoadRetry({
  message,
  onRetry,
  className = "space-y-3 py-6 text-center",
  variant,
}: {
  message: ReactNode;
  onRetry: () => void;
  className?: string;
  variant?: ButtonVariant;
}) {
  return (
    <div role="alert" className={className}>
      <p>{message}</p>
      <Button variant={variant} onClick={onRetry}>
        <Trans>Try again</Trans>
      </Button>
    </div>
  );
}
