import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { Construction } from "lucide-react";
import { Link, useLocation } from "react-router-dom";
import { buttonClass } from "../ui/Button.tsx";

/** An honest placeholder for a screen that a later release builds; the route around it is real. */
export function ComingSoon({ title }: { title: MessageDescriptor | string }) {
  const { i18n } = useLingui();
  const home = useLocation().pathname.startsWith("/admin") ? "/admin" : "/";
  return (
    <section className="mx-auto max-w-lg py-16 text-center">
      <Construction aria-hidden className="mx-auto size-12 text-slate-400" />
      <h1 className="mt-4 text-2xl font-semibold">{typeof title === "string" ? title : i18n._(title)}</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        <Trans>This screen is coming soon.</Trans>
      </p>
      <Link to={home} className={buttonClass("primary", "mt-6")}>
        <Trans>Back to home</Trans>
      </Link>
    </section>
  );
}

export default ComingSoon;
