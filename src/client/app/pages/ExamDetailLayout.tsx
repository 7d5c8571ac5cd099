import { useLingui } from "@lingui/react/macro";
import { NavLink, Outlet, useLocation } from "react-router-dom";

/** /exam/detail and its six tabs (SPEC §2); the exam id travels in the query. */
export default function ExamDetailLayout() {
  const { t } = useLingui();
  const { search } = useLocation();
  const tabs = [
    ["/exam/examTab/sortPractice", t`Sequential practice`],
    ["/exam/examTab/mockTest", t`Mock exam`],
    ["/exam/examTab/officialTest", t`Official exam`],
    ["/exam/examTab/testRecord", t`Exam records`],
    ["/exam/examTab/topicCollect", t`Favourite questions`],
    ["/exam/examTab/errorTopic", t`My wrong questions`],
  ] as const;
  return (
    <div>
      <nav aria-label={t`Exam`} className="-mx-4 mb-4 overflow-x-auto border-b border-slate-200 px-4 dark:border-slate-700">
        <ul className="flex min-w-max gap-1">
          {tabs.map(([to, label]) => (
            <li key={to}>
              <NavLink
                to={`${to}${search}`}
                className={({ isActive }) =>
                  `inline-flex min-h-11 items-center border-b-2 px-3 text-sm ${isActive ? "border-primary font-medium text-primary" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300"}`
                }
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
