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
import { useConfig } from "../../stores/config.ts";

// Only what a line chart with a legend and tooltips needs (the rest is tree-shaken).
ChartJS.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

const PALETTE = {
  light: { pass: "#b45309", text: "#334155", grid: "#e2e8f0" },
  dark: { pass: "#fbbf24", text: "#cbd5e1", grid: "#334155" },
} as const;

export interface ScoreHistoryChartProps {
  /** Oldest first (e.g. "05-01 14:05"). */
  labels: string[];
  scores: number[];
  passScore: number | null;
  totalScore: number | null;
}

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Scores of past attempts of one paper, with the pass mark as a dashed line. Lazy-loaded
 * (chart.js is its own chunk); the canvas is hidden from screen readers, which get a table.
 */
export function ScoreHistoryChart({ labels, scores, passScore, totalScore }: ScoreHistoryChartProps) {
  const { t } = useLingui();
  const isDark = useConfig((s) => s.layout.isDark);
  const primary = useConfig((s) => s.layout.primaryColor);
  const theme = isDark ? "dark" : "light";
  const colours = PALETTE[theme];
  const scoreColour = primary[theme];
  const scoreLabel = t`Score`;
  const passLabel = t`Pass mark`;

  const data = useMemo<ChartData<"line", number[], string>>(
    () => ({
      labels,
      datasets: [
        { label: scoreLabel, data: scores, borderColor: scoreColour, backgroundColor: scoreColour, pointRadius: 4, pointStyle: "circle", tension: 0.2 },
        ...(passScore === null
          ? []
          : [{ label: passLabel, data: labels.map(() => passScore), borderColor: colours.pass, backgroundColor: colours.pass, borderDash: [6, 4], pointRadius: 0 }]),
      ],
    }),
    [labels, scores, passScore, scoreLabel, passLabel, scoreColour, colours.pass],
  );

  const options = useMemo<ChartOptions<"line">>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: prefersReducedMotion() ? false : undefined,
      interaction: { mode: "index", intersect: false },
      plugins: {
        legend: { position: "bottom", labels: { color: colours.text, boxWidth: 14, padding: 16 } },
        tooltip: { enabled: true },
      },
      scales: {
        x: { ticks: { color: colours.text }, grid: { display: false } },
        y: {
          min: 0,
          ...(totalScore !== null && totalScore > 0 ? { max: totalScore } : {}),
          ticks: { color: colours.text },
          grid: { color: colours.grid },
          title: { display: true, text: scoreLabel, color: colours.text },
        },
      },
    }),
    [colours, scoreLabel, totalScore],
  );

  return (
    <div className="relative h-56 sm:h-64">
      <Chart type="line" data={data} options={options} aria-hidden="true" />
    </div>
  );
}
