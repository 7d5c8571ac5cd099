import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

/** What an exam screen shows without a member (no offline database): why, and the way to log in. */
export function LogInFirst({ children }: { children: ReactNode }) {
  return (
    <p className="py-12 text-center">
      {children}{" "}
      <Link to="/" className="text-primary underline">
        <Trans>Log in</Trans>
      </Link>
    </p>
  );
}
