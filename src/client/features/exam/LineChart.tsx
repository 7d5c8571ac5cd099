import { useMemo } from "react";
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

export interface LineYAxis {
  title: string;
  min?: number;
  max?: number;
}

/**
 * The exam screens' line chart (score history, mastery over time): chart.js set up once, the
 * app's chart theme, one titled y axis. Lazy-loaded by its users (chart.js is its own chunk);
 * the canvas is hidden from screen readers, which get each screen's table or list.
 */
export function LineChart({ data, y }: { data: ChartData<"line", (number | null)[], string>; y: LineYAxis }) {
  const { text, grid } = useChartTheme();
  const { title, min, max } = y;
  const options = useMemo<ChartOptions<"line">>(() => {
    const base = baseChartOptions<"line">(text);
    return {
      ...base,
      scales: {
        ...base.scales,
        y: { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }), ticks: { color: text }, grid: { color: grid }, title: { display: true, text: title, color: text } },
      },
    };
  }, [text, grid, title, min, max]);
  return (
    <div className="relative h-56 sm:h-64">
      <Chart type="line" data={data} options={options} aria-hidden="true" />
    </div>
  );
}
