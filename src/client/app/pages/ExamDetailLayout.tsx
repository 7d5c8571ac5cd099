import { useEffect, useRef } from "react";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { NavLink, Outlet, useLocation, useSearchParams } from "react-router-dom";
import { examQueries, flattenBanks } from "../../features/exam/api.ts";
import { localBankTitle, rememberBankTitle, useBank } from "../../offline/index.ts";
import { useOfflineDb } from "../../offline/index.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { BackButton } from "../../ui/BackButton.tsx";

/** The page's heading: the bank's title (from the catalogue, or the copy on this device), else "Exam detail". */
function ExamTitle() {
  const { t, i18n } = useLingui();
  const [params] = useSearchParams();
  const bankId = Number(params.get("id")) || 0;
  const online = useOnline();
  const catalog = useQuery({ ...examQueries.catalog(), enabled: online && bankId > 0 });
  const db = useOfflineDb();
  const saved = useBank(db ?? undefined, bankId);
  const node = bankId && catalog.data ? flattenBanks(catalog.data.classify).find((b) => b.node.id === bankId)?.node : undefined;
  const lang = i18n.locale;
  const known = node?.title;
  const savedHere = saved ? saved.titles?.[lang] : undefined;
  useEffect(() => {
    // The copy on the device learns the bank's name in this language (its tabs and practice
    // name it so offline too), without downloading the bank again.
    if (db && saved && known && savedHere !== known) void rememberBankTitle(db, bankId, lang, known);
  }, [db, saved, known, savedHere, bankId, lang]);
  const title = node?.title || (saved ? localBankTitle(saved, i18n.locale) : "") || t`Exam detail`;
  return <h1 className="mb-3 text-xl font-semibold">{title}</h1>;
}

/** /exam/detail and its six tabs (SPEC §2) and the review tab; the exam id travels in the query. */
export default function ExamDetailLayout() {
  const { t } = useLingui();
  const { search, pathname } = useLocation();
  const navRef = useRef<HTMLElement>(null);
  // On a phone the tab row scrolls: keep the open tab in view (the review tab is the last).
  useEffect(() => {
    const active = navRef.current?.querySelector<HTMLElement>('[aria-current="page"]');
    active?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [pathname]);
  const tabs = [
    ["/exam/examTab/sortPractice", t`Sequential practice`],
    ["/exam/examTab/mockTest", t`Mock exam`],
    ["/exam/examTab/officialTest", t`Official exam`],
    ["/exam/examTab/testRecord", t`Exam records`],
    ["/exam/examTab/topicCollect", t`Favourite questions`],
    ["/exam/examTab/errorTopic", t`My wrong questions`],
    ["/exam/examTab/review", t`Spaced review`],
  ] as const;
  return (
    <div>
      <BackButton to="/exam/myTest" />
      <ExamTitle />
      <nav ref={navRef} aria-label={t`Exam`} className="-mx-4 mb-4 overflow-x-auto border-b border-slate-200 px-4 dark:border-slate-700">
        <ul className="flex min-w-max gap-1">
          {tabs.map(([to, label]) => (
            <li key={to}>
              <NavLink
                to={`${to}${search}`}
                className={({ isActive }) =>
                  `inline-flex min-h-11 items-center border-b-2 px-3 text-sm ${isActive ? "border-primary font-medium text-primary-strong dark:text-blue-300" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300"}`
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
