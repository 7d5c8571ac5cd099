import { useLingui } from "@lingui/react/macro";
import { NavLink } from "react-router-dom";

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
      </NavLink>
      <NavLink to="/user" end className={className} onClick={onNavigate}>
        {t`Member center`}
      </NavLink>
    </>
  );
}
