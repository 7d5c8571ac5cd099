import { useMemo } from "react";
import { useLingui } from "@lingui/react/macro";
import {
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from "chart.js";
import { Chart } from "react-chartjs-2";
import { baseChartOptions, useChartTheme } from "../../ui/chartTheme.ts";

ChartJS.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Series colours after the theme's primary one. */
const SERIES = ["#059669", "#d97706", "#7c3aed", "#db2777", "#0891b2"];

export interface MasterySeries {
  label: string;
  /** Correct rate per week (0..100), null where nothing was answered that week. */
  values: (number | null)[];
}

/**
 * Correct rate over time per topic (lazy-loaded: chart.js is its own chunk, as for the score
 * history); the canvas is hidden from screen readers, which get the table beside it.
 */
export function MasteryChart({ weeks, series }: { weeks: string[]; series: MasterySeries[] }) {
  const { t } = useLingui();
  const { text, grid, primary } = useChartTheme();
  const rateLabel = t`Correct rate (%)`;
  const data = useMemo<ChartData<"line", (number | null)[], string>>(
    () => ({
      labels: weeks,
      datasets: series.map((s, i) => {
        const colour = i === 0 ? primary : SERIES[(i - 1) % SERIES.length]!;
        return { label: s.label, data: s.values, borderColor: colour, backgroundColor: colour, pointRadius: 4, spanGaps: true, tension: 0.2, clip: 6 };
      }),
    }),
    [weeks, series, primary],
  );
  const options = useMemo<ChartOptions<"line">>(() => {
    const base = baseChartOptions<"line">(text);
    return {
      ...base,
      scales: {
        ...base.scales,
        y: { min: 0, max: 100, ticks: { color: text }, grid: { color: grid }, title: { display: true, text: rateLabel, color: text } },
      },
    };
  }, [text, grid, rateLabel]);
  return (
    <div className="relative h-56 sm:h-64">
      <Chart type="line" data={data} options={options} aria-hidden="true" />
    </div>
  );
}
