import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { BookOpenCheck, Clock, FileText, Timer, type LucideIcon } from "lucide-react";
import { Link } from "react-router-dom";
import { formatTime } from "../../../shared/time.ts";
import { IconText } from "../../ui/IconText.tsx";
import { LoadFailed } from "../../ui/LoadFailed.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { examQueries, flattenBanks } from "./api.ts";
import { DailyReview } from "./DailyReview.tsx";
import { buttonClass } from "../../ui/Button.tsx";
import { TitledSection } from "../../ui/TitledSection.tsx";

/** A mock paper or an official exam in its list: its icon, its title linking to it, then what the caller adds. */
function ExamRow({ icon: Icon, to, title, children }: { icon: LucideIcon; to: string; title: string; children: ReactNode }) {
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-lg border border-slate-200 bg-white px-4 py-3 dark:border-slate-700 dark:bg-slate-900">
      <Icon aria-hidden className="size-5 text-primary" />
      <Link to={to} className="font-medium text-primary underline-offset-2 hover:underline">
        {title}
      </Link>
      {children}
    </li>
  );
}

/** `/exam/myTest`: practice banks, mock papers and the official exams open to the member. */
export default function MyTestPage() {
  const { t } = useLingui();
  const catalog = useQuery(examQueries.catalog());
  if (catalog.isPending) return <PageSpinner className="my-16" />;
  if (catalog.isError) return <LoadFailed message={t`The exam list could not be loaded.`} onRetry={() => void catalog.refetch()} />;
  const banks = flattenBanks(catalog.data.classify);
  return (
    <div className="space-y-8">
      <DailyReview />
      <section aria-labelledby="banks-title" className="space-y-3">
        <h1 id="banks-title" className="text-xl font-semibold">
          <Trans>Practice banks</Trans>
        </h1>
        {banks.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-300">{t`No practice banks yet.`}</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {banks.map(({ node, path }) => {
              const count = node.questionCount;
              return (
              <li key={node.id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
                <p className="text-xs text-slate-500 dark:text-slate-400">{path.join(" / ")}</p>
                <h2 className="mt-1 flex items-center gap-2 text-lg font-medium">
                  <BookOpenCheck aria-hidden className="size-5 text-primary" />
                  {node.title}
                </h2>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t`${plural(count, { one: "# question", other: "# questions" })}`}</p>
                <div className="mt-4 flex gap-2">
                  <Link to={`/exam/myPractice?bank=${node.id}`} className={buttonClass("primary", "flex-1")}>
                    <Trans>Practise</Trans>
                  </Link>
                  <Link to={`/exam/examTab/sortPractice?id=${node.id}`} className={buttonClass("secondary")}>
                    <Trans>Details</Trans>
                  </Link>
                </div>
              </li>
              );
            })}
          </ul>
        )}
      </section>

      <TitledSection id="papers-title" title={<Trans>Mock exams</Trans>}>
        <ul className="space-y-2">
          {catalog.data.papers.map(({ id, title, totalScore, passScore, duration }) => {
            const minutes = Math.round(duration / 60);
            return (
              <ExamRow key={id} icon={FileText} to={`/exam/examTab/mockTest?paper=${id}`} title={title}>
                <span className="text-sm text-slate-600 dark:text-slate-300">{t`Total ${totalScore}, pass ${passScore}`}</span>
                <IconText icon={Timer}>{t`${minutes} min`}</IconText>
              </ExamRow>
            );
          })}
        </ul>
      </TitledSection>

      <TitledSection id="rooms-title" title={<Trans>Official exams</Trans>}>
        {catalog.data.rooms.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-300">{t`No official exam is open for you.`}</p>
        ) : (
          <ul className="space-y-2">
            {catalog.data.rooms.map((r) => (
              <ExamRow key={r.id} icon={Clock} to={`/exam/examTab/officialTest?room=${r.id}`} title={r.title}>
                <span className="text-sm text-slate-600 dark:text-slate-300">
                  {formatTime(r.startTime, "YYYY-MM-DD HH:mm")} – {formatTime(r.endTime, "YYYY-MM-DD HH:mm")}
                </span>
              </ExamRow>
            ))}
          </ul>
        )}
      </TitledSection>
    </div>
  );
}
