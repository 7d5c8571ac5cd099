import { plural } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { NavLink } from "react-router-dom";
import { useDueReviews } from "../../offline/status.ts";

/** Reviews due now beside "Exams" (counted by MemberSync; nothing while none are due). */
function ReviewBadge() {
  const { t } = useLingui();
  const due = useDueReviews();
  if (due === 0) return null;
  return (
    <span className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white">
      <span aria-hidden>{due > 99 ? "99+" : due}</span>
      <span className="sr-only">{t`${plural(due, { one: "# review due", other: "# reviews due" })}`}</span>
    </span>
  );
}

/** The member side's main links: the header's on a wide screen, the phone menu's on a phone. */
export function MainLinks({ className, onNavigate }: { className: (state: { isActive: boolean }) => string; onNavigate?: () => void }) {
  const { t } = useLingui();
  return (
    <>
      <NavLink to="/user/course/my_course" className={className} onClick={onNavigate}>
        {t`My courses`}
      </NavLink>
      <NavLink to="/exam/myTest" className={className} onClick={onNavigate}>
        {t`Exams`}
        <ReviewBadge />
      </NavLink>
      <NavLink to="/user" end className={className} onClick={onNavigate}>
        {t`Member center`}
      </NavLink>
    </>
  );
}
