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

// Only what a line chart with a legend and tooltips needs (the rest is tree-shaken).
ChartJS.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

/** The pass-mark line per theme (the scores take the theme's primary colour). */
const PASS_COLOUR = { light: "#b45309", dark: "#fbbf24" } as const;

export interface ScoreHistoryChartProps {
  /** Oldest first (e.g. "05-01 14:05"). */
  labels: string[];
  scores: number[];
  passScore: number | null;
  totalScore: number | null;
}

/**
 * Scores of past attempts of one paper, with the pass mark as a dashed line. Lazy-loaded
 * (chart.js is its own chunk); the canvas is hidden from screen readers, which get a table.
 */
export function ScoreHistoryChart({ labels, scores, passScore, totalScore }: ScoreHistoryChartProps) {
  const { t } = useLingui();
  const { theme, text, grid, primary: scoreColour } = useChartTheme();
  const passColour = PASS_COLOUR[theme];
  const scoreLabel = t`Score`;
  const passLabel = t`Pass mark`;

  const data = useMemo<ChartData<"line", number[], string>>(
    () => ({
      labels,
      datasets: [
        { label: scoreLabel, data: scores, borderColor: scoreColour, backgroundColor: scoreColour, pointRadius: 4, pointStyle: "circle", tension: 0.2 },
        ...(passScore === null
          ? []
          : [{ label: passLabel, data: labels.map(() => passScore), borderColor: passColour, backgroundColor: passColour, borderDash: [6, 4], pointRadius: 0 }]),
      ],
    }),
    [labels, scores, passScore, scoreLabel, passLabel, scoreColour, passColour],
  );

  const options = useMemo<ChartOptions<"line">>(() => {
    const base = baseChartOptions<"line">(text);
    return {
      ...base,
      scales: {
        ...base.scales,
        y: {
          min: 0,
          ...(totalScore !== null && totalScore > 0 ? { max: totalScore } : {}),
          ticks: { color: text },
          grid: { color: grid },
          title: { display: true, text: scoreLabel, color: text },
        },
      },
    };
  },
    [text, grid, scoreLabel, totalScore],
  );

  return (
    <div className="relative h-56 sm:h-64">
      <Chart type="line" data={data} options={options} aria-hidden="true" />
    </div>
  );
}
