import { useLingui } from "@lingui/react/macro";
import { BarController, BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip, type ChartData, type ChartOptions } from "chart.js";
import { useMemo } from "react";
import { Chart } from "react-chartjs-2";
import { baseChartOptions, useChartTheme } from "../ui/chartTheme.ts";

ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

/**
 * New members per day as bars (chart.js, already the app's chart library, in its own lazy
 * chunk). The canvas is hidden from screen readers: the dashboard lists the numbers too.
 */
export default function DashboardChart({ labels, counts }: { labels: string[]; counts: number[] }) {
  const { t } = useLingui();
  const { text, grid, primary } = useChartTheme();
  const label = t`New members`;
  const data = useMemo<ChartData<"bar", number[], string>>(() => ({ labels, datasets: [{ label, data: counts, backgroundColor: primary, borderRadius: 4 }] }), [labels, counts, label, primary]);
  const options = useMemo<ChartOptions<"bar">>(() => {
    const base = baseChartOptions<"bar">(text);
    return { ...base, plugins: { ...base.plugins, legend: { display: false } }, scales: { ...base.scales, y: { beginAtZero: true, ticks: { color: text, precision: 0 }, grid: { color: grid } } } };
  }, [text, grid]);
  return (
    <div className="relative h-56 sm:h-64">
      <Chart type="bar" data={data} options={options} aria-hidden="true" />
    </div>
  );
}
