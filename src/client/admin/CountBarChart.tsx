import { BarController, BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip, type ChartData, type ChartOptions } from "chart.js";
import { useMemo } from "react";
import { Chart } from "react-chartjs-2";
import { baseChartOptions, useChartTheme } from "../ui/chartTheme.ts";

ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

/**
 * Whole counts as bars in the theme's primary colour, no legend, the y axis from zero in whole
 * steps (chart.js; reached only through the lazy chart chunks of the dashboard and room results).
 * The canvas is hidden from screen readers: each screen lists the numbers beside it.
 */
export function CountBarChart({ label, labels, counts, className }: { label: string; labels: string[]; counts: number[]; className: string }) {
  const { text, grid, primary } = useChartTheme();
  const data = useMemo<ChartData<"bar", number[], string>>(() => ({ labels, datasets: [{ label, data: counts, backgroundColor: primary, borderRadius: 4 }] }), [labels, counts, label, primary]);
  const options = useMemo<ChartOptions<"bar">>(() => {
    const base = baseChartOptions<"bar">(text);
    return { ...base, plugins: { ...base.plugins, legend: { display: false } }, scales: { ...base.scales, y: { beginAtZero: true, ticks: { color: text, precision: 0 }, grid: { color: grid } } } };
  }, [text, grid]);
  return (
    <div className={`relative ${className}`}>
      <Chart type="bar" data={data} options={options} aria-hidden="true" />
    </div>
  );
}
