import { useMemo } from "react";
import { useLingui } from "@lingui/react/macro";
import type { ChartData } from "chart.js";
import { useChartTheme } from "../../ui/chartTheme.ts";
import { LineChart } from "./LineChart.tsx";

/** Series colours after the theme's primary one. */
const SERIES = ["#059669", "#d97706", "#7c3aed", "#db2777", "#0891b2"];

export interface MasterySeries {
  label: string;
  /** Correct rate per week (0..100), null where nothing was answered that week. */
  values: (number | null)[];
}

/** Correct rate over time per topic (lazy-loaded, as the score history: LineChart). */
export function MasteryChart({ weeks, series }: { weeks: string[]; series: MasterySeries[] }) {
  const { t } = useLingui();
  const { primary } = useChartTheme();
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
  return <LineChart data={data} y={{ title: t`Correct rate (%)`, min: 0, max: 100 }} />;
}
