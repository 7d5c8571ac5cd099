import { useId, useState, type ReactNode } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Coins, Star, Wallet } from "lucide-react";
import { Link } from "react-router-dom";
import { WELCOME_BACK, greetingFor } from "../../../shared/greeting.ts";
import { fullUrl } from "../../../shared/url.ts";
import { request } from "../../api/index.ts";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { useUserInfo } from "../../stores/userInfo.ts";
import { Button } from "../../ui/Button.tsx";
import { AvatarCircle } from "../../ui/AvatarCircle.tsx";
import { LoadFailed } from "../../ui/LoadFailed.tsx";
import { FiguresTable } from "../../ui/FiguresTable.tsx";
import { formatAmount, serverMessage, signedAmount } from "./amounts.ts";
import { ModuleBlocks } from "./ModuleBlocks.tsx";
import { NoticeSettings } from "./NoticeSettings.tsx";
import { OverviewChart } from "./OverviewChart.tsx";
import { Reminders } from "./Reminders.tsx";

/** `GET /api/account/overview`: per-day changes of the last 7 days, oldest first. */
export interface AccountOverview {
  days: string[];
  score: number[];
  money: string[];
}

/** One of the greeting card's figures (balance, points), a link to its log. */
function StatLink({ to, icon, label, value }: { to: string; icon: ReactNode; label: string; value: string }) {
  return (
    <Link
      to={to}
      className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 outline-none hover:border-primary focus-visible:ring-2 focus-visible:ring-primary dark:border-slate-700 dark:bg-slate-800"
    >
      {icon}
      <span className="flex flex-col">
        <span className="text-sm text-slate-600 dark:text-slate-300">{label}</span>
        <span className="text-lg font-semibold tabular-nums">{value}</span>
      </span>
    </Link>
  );
}

function ChartSkeleton() {
  return <div data-testid="chart-skeleton" className="h-64 animate-pulse rounded-lg bg-slate-100 sm:h-72 dark:bg-slate-800" />;
}

/** `/user/account/overview`: greeting card with balance and points, and the last 7 days as a chart. */
export default function Overview() {
  const { t, i18n } = useLingui();
  const tableId = useId();
  const [showTable, setShowTable] = useState(false);
  const name = useUserInfo((s) => s.nickname || s.username);
  const avatar = useUserInfo((s) => s.avatar);
  const money = useUserInfo((s) => s.money);
  const score = useUserInfo((s) => s.score);
  const cdnUrl = useSiteConfig((s) => s.cdnUrl);
  const apiUrl = useSiteConfig((s) => s.apiUrl);
  const query = useQuery({
    queryKey: ["account", "overview"],
    // Days as the member lives them: a purchase at 02:55 in Shanghai is on that day, not the one before.
    queryFn: async ({ signal }) =>
      (await request<AccountOverview>({ url: "/api/account/overview", method: "get", params: { tz: Intl.DateTimeFormat().resolvedOptions().timeZone }, signal })).data,
  });

  const days = query.data?.days ?? [];
  const labels = days.map((d) => d.slice(5));
  const scoreValues = days.map((_, i) => Number(query.data?.score[i] ?? 0));
  const moneyValues = days.map((_, i) => Number(query.data?.money[i] ?? 0));
  const avatarSrc = fullUrl(avatar, cdnUrl, apiUrl);
  const balance = formatAmount(money, 2);
  const points = formatAmount(score, 0);

  return (
    <div className="space-y-6">
      <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <div className="flex items-center gap-4">
          <AvatarCircle src={avatarSrc} alt="" size="md" />
          <div className="min-w-0">
            <h1 className="text-xl font-semibold break-words">
              {i18n._(greetingFor(new Date().getHours()))}, {name}
            </h1>
            <p className="text-sm text-slate-600 dark:text-slate-300">{i18n._(WELCOME_BACK)}</p>
          </div>
        </div>
        <div className="mt-5 grid gap-3 sm:grid-cols-2">
          <StatLink to="/user/account/balance" icon={<Wallet aria-hidden className="size-6 text-amber-600 dark:text-amber-400" />} label={t`Balance`} value={balance} />
          <StatLink to="/user/account/integral" icon={<Star aria-hidden className="size-6 text-primary dark:text-blue-400" />} label={t`Points`} value={points} />
        </div>
      </section>

      <ModuleBlocks />

      <section aria-labelledby={`${tableId}-title`} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h2 id={`${tableId}-title`} className="flex items-center gap-2 text-lg font-semibold">
            <Coins aria-hidden className="size-5 text-primary dark:text-blue-400" />
            <Trans>Points and balance changes, last 7 days</Trans>
          </h2>
          {query.data && (
            <Button aria-pressed={showTable} onClick={() => setShowTable(!showTable)} className="text-sm">
              <Trans>Show as table</Trans>
            </Button>
          )}
        </div>
        {query.isPending ? (
          <ChartSkeleton />
        ) : query.isError ? (
          <LoadFailed message={t`The overview could not be loaded.`} detail={serverMessage(query.error)} onRetry={() => void query.refetch()} />
        ) : (
          <>
            {!showTable && <OverviewChart labels={labels} score={scoreValues} money={moneyValues} />}
            {/* The numbers behind the chart: always there for screen readers, on screen on request
                (seven rows: FiguresTable, not the lists' DataTable and its table library). */}
            <div className={showTable ? "overflow-x-auto" : "sr-only"}>
              <FiguresTable
                caption={<Trans>Points and balance changes, last 7 days</Trans>}
                id={tableId}
                className="tabular-nums"
                data={days.map((day, i) => ({ day, score: scoreValues[i], money: moneyValues[i] }))}
                rowKey={(d) => d.day}
                columns={[
                  { id: "day", header: t`Date`, rowHeader: true, cell: (d) => d.day },
                  { id: "score", header: t`Points`, cell: (d) => signedAmount(d.score, 0).text },
                  { id: "money", header: t`Balance`, cell: (d) => signedAmount(d.money, 2).text },
                ]}
              />
            </div>
          </>
        )}
      </section>

      <NoticeSettings />
      <Reminders />
    </div>
  );
}
