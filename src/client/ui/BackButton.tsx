import type { ReactNode } from "react";
import { Trans } from "@lingui/react/macro";
import { ChevronLeft } from "lucide-react";
import { useNavigate } from "react-router-dom";
import { Button } from "./Button.tsx";

/**
 * The app's own "back", for screens below the top level: installed on a home screen the app has
 * no browser back button. It goes to the previous screen of this visit, or to `to` (the screen
 * above this one) when the app was opened here, from a link, a notification or after a reload
 * that left no earlier screen of the app behind.
 */
export function BackButton({ to, children }: { to: string; children?: ReactNode }) {
  const navigate = useNavigate();
  return (
    <Button
      variant="ghost"
      size="sm"
      className="-ml-3 text-slate-600 dark:text-slate-300"
      onClick={() => {
        // React Router numbers the entries of its history: 0 is where this visit began.
        const at = (window.history.state as { idx?: number } | null)?.idx ?? 0;
        if (at > 0) void navigate(-1);
        else void navigate(to, { replace: true });
      }}
    >
      <ChevronLeft aria-hidden className="size-4" />
      {children ?? <Trans>Back</Trans>}
    </Button>
  );
}
