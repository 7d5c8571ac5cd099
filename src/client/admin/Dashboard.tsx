import { lazy, Suspense, useEffect, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { BookOpen, CalendarClock, ClipboardList, FileQuestion, Users } from "lucide-react";
import { Link } from "react-router-dom";
import type { DashboardFigures } from "../../shared/admin/members.ts";
import { WELCOME_BACK, greetingFor } from "../../shared/greeting.ts";
import type { DueRoom } from "../../shared/reports.ts";
import { formatTime } from "../../shared/time.ts";
import { request } from "../api/index.ts";
import { useAdminInfo } from "../stores/adminInfo.ts";
import { DataTable } from "../ui/DataTable.tsx";
import { PageSpinner } from "../ui/PageSpinner.tsx";
import { LoadRetry } from "../ui/LoadRetry.tsx";

const DashboardChart = lazy(() => import("./DashboardChart.tsx"));

function Figure({ label, value, icon: Icon }: { label: string; value: number | undefined; icon: typeof Users }) {
  const { i18n } = useLingui();
  return (
    <div className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <span className="rounded-lg bg-primary/10 p-2 text-primary">
        <Icon aria-hidden className="size-6" />
      </span>
      <div>
        <p className="text-sm text-slate-600 dark:text-slate-300">{label}</p>
        <p className="text-2xl font-semibold tabular-nums">{value === undefined ? "–" : i18n.number(value)}</p>
      </div>
    </div>
  );
}

/** The progress report of the room's group, the room chosen (none: the report's own page). */
const reportLink = (room: DueRoom) => (room.group ? `/admin/reports/progress?group=${room.group.kind}&id=${room.group.id}&target=room-${room.id}` : "/admin/reports/progress");

/** "Due this week" (本周到期): rooms closing within 7 days and how many assigned members have not passed, each a link to its progress report. */
function DueThisWeek({ rooms }: { rooms: DueRoom[] }) {
  const { t, i18n } = useLingui();
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900" data-testid="due-this-week">
      <h2 className="mb-3 flex items-center gap-2 font-semibold">
        <CalendarClock aria-hidden className="size-5 text-primary" />
        <Trans>Due this week</Trans>
      </h2>
      {rooms.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <Trans>No exam room closes in the next 7 days.</Trans>
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-700">
          {rooms.map((room) => {
            const closes = formatTime(room.endTime, "MM-DD HH:mm");
            const notPassed = i18n.number(room.notPassed);
            return (
            <li key={room.id}>
              <Link to={reportLink(room)} className="flex flex-wrap items-baseline justify-between gap-2 py-2 hover:text-primary">
                <span className="font-medium break-words">{room.title}</span>
                <span className="text-sm text-slate-600 tabular-nums dark:text-slate-300">
                  {t`closes ${closes}`} · {t`${notPassed} not passed yet`}
                </span>
              </Link>
            </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** Admin home: the time-of-day greeting (SPEC §9) followed by "welcome back", then the site's figures. */
export default function Dashboard() {
  const { i18n, t } = useLingui();
  const name = useAdminInfo((s) => s.nickname || s.username);
  const [hour, setHour] = useState(() => new Date().getHours());
  useEffect(() => {
    const timer = setInterval(() => setHour(new Date().getHours()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const figures = useQuery({
    queryKey: ["admin", "dashboard"],
    queryFn: async ({ signal }) => (await request<DashboardFigures>({ url: "/admin/dashboard/index", method: "get", signal })).data,
  });
  const data = figures.data;
  const labels = data?.newMembers.map((d) => d.day.slice(5)) ?? [];
  const counts = data?.newMembers.map((d) => d.count) ?? [];
  return (
    <section className="space-y-4">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <h1 className="text-xl font-semibold" data-testid="greeting">
          {i18n._(greetingFor(hour))}, {name}, {i18n._(WELCOME_BACK)}
        </h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t`This is the back office of your course and exam platform.`}</p>
      </div>
      {figures.isError && !data ? (
        <LoadRetry
          className="space-y-2 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900"
          message={<Trans>The figures could not be loaded.</Trans>}
          onRetry={() => void figures.refetch()}
        />
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="dashboard-figures">
            <Figure label={t({ message: "Members", context: "dashboard figure" })} value={data?.members} icon={Users} />
            <Figure label={t`Courses`} value={data?.courses} icon={BookOpen} />
            <Figure label={t`Questions`} value={data?.questions} icon={FileQuestion} />
            <Figure label={t`Exam attempts today`} value={data?.attemptsToday} icon={ClipboardList} />
          </div>
          {data && <DueThisWeek rooms={data.dueThisWeek ?? []} />}
          <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
            <h2 className="mb-3 font-semibold">
              <Trans>New members in the last 7 days</Trans>
            </h2>
            {data ? (
              <>
                <Suspense fallback={<PageSpinner className="my-16" />}>
                  <DashboardChart labels={labels} counts={counts} />
                </Suspense>
                <DataTable
                  frame={false}
                  head={false}
                  className="sr-only"
                  caption={t`New members in the last 7 days`}
                  data={data.newMembers}
                  rowKey={(d) => d.day}
                  columns={[
                    { id: "day", rowHeader: true, cell: (d) => d.day },
                    { id: "count", cell: (d) => d.count },
                  ]}
                />
              </>
            ) : (
              <PageSpinner className="my-16" />
            )}
          </div>
        </>
      )}
    </section>
  );
}
