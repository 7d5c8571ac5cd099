import { useMemo } from "react";
import { useLingui } from "@lingui/react/macro";
import { BarController, BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, Tooltip, type ChartData, type ChartOptions } from "chart.js";
import { Chart } from "react-chartjs-2";
import { useConfig } from "../../stores/config.ts";

// Only what a two-axis bar chart with a legend and tooltips needs (the rest is tree-shaken).
ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Colours per theme: points take the theme's primary colour, balance an amber that reads on both. */
const PALETTE = {
  light: { money: "#d97706", text: "#334155", grid: "#e2e8f0" },
  dark: { money: "#fbbf24", text: "#cbd5e1", grid: "#334155" },
} as const;

export interface OverviewChartProps {
  /** Axis labels, oldest first (e.g. "05-01"). */
  labels: string[];
  score: number[];
  money: number[];
}

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Daily changes of points (left axis) and balance (right axis) as bars. Lazy-loaded (chart.js is
 * its own chunk); the canvas is hidden from screen readers, which get the numbers as a table.
 */
export function OverviewChart({ labels, score, money }: OverviewChartProps) {
  const { t } = useLingui();
  const isDark = useConfig((s) => s.layout.isDark);
  const primary = useConfig((s) => s.layout.primaryColor);
  const theme = isDark ? "dark" : "light";
  const colours = PALETTE[theme];
  const pointsColour = primary[theme];
  const pointsLabel = t`Points`;
  const balanceLabel = t`Balance`;

  const data = useMemo<ChartData<"bar", number[], string>>(
    () => ({
      labels,
      datasets: [
        { label: pointsLabel, data: score, backgroundColor: pointsColour, borderRadius: 4, yAxisID: "y" },
        { label: balanceLabel, data: money, backgroundColor: colours.money, borderRadius: 4, yAxisID: "y1" },
      ],
    }),
    [labels, score, money, pointsLabel, balanceLabel, pointsColour, colours.money],
  );

  const options = useMemo<ChartOptions<"bar">>(
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
          position: "left",
          ticks: { color: colours.text, precision: 0 },
          grid: { color: colours.grid },
          title: { display: true, text: pointsLabel, color: colours.text },
        },
        y1: {
          position: "right",
          ticks: { color: colours.text, callback: (value) => Number(value).toFixed(2) },
          grid: { drawOnChartArea: false },
          title: { display: true, text: balanceLabel, color: colours.text },
        },
      },
    }),
    [colours, pointsLabel, balanceLabel],
  );

  return (
    <div className="relative h-64 sm:h-72">
      <Chart type="bar" data={data} options={options} aria-hidden="true" />
    </div>
  );
}
