import { useLingui } from "@lingui/react/macro";
import { BarController, BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip, type ChartData, type ChartOptions } from "chart.js";
import { useMemo } from "react";
import { Chart } from "react-chartjs-2";
import { baseChartOptions, useChartTheme } from "../../ui/chartTheme.ts";

ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

/** Finished attempts per score band (chart.js in its own lazy chunk, as the dashboard's); the numbers are listed beside it too. */
export default function RoomResultsChart({ labels, counts }: { labels: string[]; counts: number[] }) {
  const { t } = useLingui();
  const { text, grid, primary } = useChartTheme();
  const label = t`Attempts`;
  const data = useMemo<ChartData<"bar", number[], string>>(() => ({ labels, datasets: [{ label, data: counts, backgroundColor: primary, borderRadius: 4 }] }), [labels, counts, label, primary]);
  const options = useMemo<ChartOptions<"bar">>(() => {
    const base = baseChartOptions<"bar">(text);
    return { ...base, plugins: { ...base.plugins, legend: { display: false } }, scales: { ...base.scales, y: { beginAtZero: true, ticks: { color: text, precision: 0 }, grid: { color: grid } } } };
  }, [text, grid]);
  return (
    <div className="relative h-48 sm:h-56">
      <Chart type="bar" data={data} options={options} aria-hidden="true" />
    </div>
  );
}
