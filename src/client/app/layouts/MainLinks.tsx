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

/**
 * The phone's menu button carries the same count (its links are inside the closed sheet): a
 * small badge on the button's corner, named for screen readers with the button ("Menu, 3
 * reviews due").
 */
export function MenuDueBadge() {
  const { t } = useLingui();
  const due = useDueReviews();
  if (due === 0) return null;
  return (
    <span data-testid="menu-due-badge" className="absolute -top-0.5 -right-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] leading-5 font-semibold text-white ring-2 ring-white dark:ring-slate-900">
      <span aria-hidden>{due > 99 ? "99+" : due}</span>
      <span className="sr-only">{`, ${t`${plural(due, { one: "# review due", other: "# reviews due" })}`}`}</span>
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
