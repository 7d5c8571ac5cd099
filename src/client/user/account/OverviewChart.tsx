import { useMemo } from "react";
import { useLingui } from "@lingui/react/macro";
import { BarController, BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, Tooltip, type ChartData, type ChartOptions } from "chart.js";
import { Chart } from "react-chartjs-2";
import { alignedZeroRanges, baseChartOptions, useChartTheme } from "../../ui/chartTheme.ts";

// Only what a two-axis bar chart with a legend and tooltips needs (the rest is tree-shaken).
ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Colours per theme: points take the theme's primary colour, balance an amber that reads on both. */
const MONEY_COLOUR = { light: "#d97706", dark: "#fbbf24" } as const;

export interface OverviewChartProps {
  /** Axis labels, oldest first (e.g. "05-01"). */
  labels: string[];
  score: number[];
  money: number[];
}

/**
 * Daily changes of points (left axis) and balance (right axis) as bars. Lazy-loaded (chart.js is
 * its own chunk); the canvas is hidden from screen readers, which get the numbers as a table.
 */
export function OverviewChart({ labels, score, money }: OverviewChartProps) {
  const { t } = useLingui();
  const { theme, text, grid, primary: pointsColour } = useChartTheme();
  const moneyColour = MONEY_COLOUR[theme];
  const pointsLabel = t`Points`;
  const balanceLabel = t`Balance`;

  const data = useMemo<ChartData<"bar", number[], string>>(
    () => ({
      labels,
      datasets: [
        { label: pointsLabel, data: score, backgroundColor: pointsColour, borderRadius: 4, yAxisID: "y" },
        { label: balanceLabel, data: money, backgroundColor: moneyColour, borderRadius: 4, yAxisID: "y1" },
      ],
    }),
    [labels, score, money, pointsLabel, balanceLabel, pointsColour, moneyColour],
  );

  const options = useMemo<ChartOptions<"bar">>(() => {
    const base = baseChartOptions<"bar">(text);
    // One zero line for both axes: points and balance bars start from the same baseline.
    const [pointsRange, moneyRange] = alignedZeroRanges(score, money);
    return {
      ...base,
      scales: {
        ...base.scales,
        y: {
          ...pointsRange,
          position: "left",
          ticks: { color: text, precision: 0 },
          grid: { color: grid },
          title: { display: true, text: pointsLabel, color: text },
        },
        y1: {
          ...moneyRange,
          position: "right",
          ticks: { color: text, callback: (value) => Number(value).toFixed(2) },
          grid: { drawOnChartArea: false },
          title: { display: true, text: balanceLabel, color: text },
        },
      },
    };
  },
    [text, grid, pointsLabel, balanceLabel, score, money],
  );

  return (
    <div className="relative h-64 sm:h-72">
      <Chart type="bar" data={data} options={options} aria-hidden="true" />
    </div>
  );
}
