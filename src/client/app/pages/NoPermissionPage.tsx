import { Trans } from "@lingui/react/macro";
import { ShieldAlert } from "lucide-react";
import { Link, useLocation } from "react-router-dom";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { buttonClass } from "../../ui/Button.tsx";

/** Only links the site configured (SITE_CONTACT): an email or a web page, never a script URL. */
export function safeContactUrl(url: string | undefined): string | null {
  if (!url) return null;
  if (/^mailto:[^\s@]+@[^\s@]+$/i.test(url)) return url;
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : null;
}

/**
 * SPEC §2: no permission to access this page, or the file is invalid. "Contact the
 * administrator" links to the site's configured contact, and is left out when there is none.
 */
export default function NoPermissionPage() {
  const contact = safeContactUrl(useSiteConfig((s) => s.contactUrl));
  // Inside the back office (/admin/401) home is its dashboard, not the member side.
  const home = useLocation().pathname.startsWith("/admin/") ? "/admin" : "/";
  return (
    <section className="mx-auto max-w-md py-16 text-center">
      <ShieldAlert aria-hidden className="mx-auto size-14 text-amber-500" />
      <h1 className="mt-4 text-xl font-semibold">
        <Trans>You have no permission to access this page, or the file is invalid.</Trans>
      </h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        {contact ? (
          <Trans>If you think you should have access, contact the administrator.</Trans>
        ) : (
          <Trans>If you think you should have access, ask the person who runs this site.</Trans>
        )}
      </p>
      <div className="mt-6 flex justify-center gap-3">
        {contact && (
          <a
            href={contact}
            {...(contact.startsWith("mailto:") ? {} : { target: "_blank", rel: "noopener noreferrer" })}
            className={buttonClass("secondary")}
          >
            <Trans>Contact the administrator</Trans>
          </a>
        )}
        <Link to={home} className={buttonClass("primary")}>
          <Trans>Back to home</Trans>
        </Link>
      </div>
    </section>
  );
}
