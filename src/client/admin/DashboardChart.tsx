import { useLingui } from "@lingui/react/macro";
import { CountBarChart } from "./CountBarChart.tsx";

/** New members per day as bars, in its own lazy chunk; the dashboard lists the numbers too. */
export default function DashboardChart({ labels, counts }: { labels: string[]; counts: number[] }) {
  const { t } = useLingui();
  return <CountBarChart label={t`New members`} labels={labels} counts={counts} className="h-56 sm:h-64" />;
}
