import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { useUserInfo } from "../../stores/userInfo.ts";
import { Spinner } from "../../ui/Spinner.tsx";

/**
 * What an exam screen shows without the member's offline database: while a signed-in member's
 * is being opened (MemberSync opens it just after the first screen), a spinner; with no member
 * signed in, why and the way to log in.
 */
export function LogInFirst({ children }: { children: ReactNode }) {
  const signedIn = useUserInfo((s) => Boolean(s.id && s.token));
  if (signedIn) return <Spinner className="mx-auto my-16 size-8" />;
  return (
    <p className="py-12 text-center">
      {children}{" "}
      <Link to="/" className="text-primary underline">
        <Trans>Log in</Trans>
      </Link>
    </p>
  );
}
