import { useMemo } from "react";
import { useLingui } from "@lingui/react/macro";
import type { ChartData } from "chart.js";
import { useChartTheme } from "../../ui/chartTheme.ts";
import { LineChart } from "./LineChart.tsx";

/** The pass-mark line per theme (the scores take the theme's primary colour). */
const PASS_COLOUR = { light: "#b45309", dark: "#fbbf24" } as const;

export interface ScoreHistoryChartProps {
  /** Oldest first (e.g. "05-01 14:05"). */
  labels: string[];
  scores: number[];
  passScore: number | null;
  totalScore: number | null;
}

/** Scores of past attempts of one paper, with the pass mark as a dashed line (lazy-loaded: LineChart). */
export function ScoreHistoryChart({ labels, scores, passScore, totalScore }: ScoreHistoryChartProps) {
  const { t } = useLingui();
  const { theme, primary: scoreColour } = useChartTheme();
  const passColour = PASS_COLOUR[theme];
  const scoreLabel = t`Score`;
  const passLabel = t`Pass mark`;

  const data = useMemo<ChartData<"line", (number | null)[], string>>(
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

  return <LineChart data={data} y={{ title: scoreLabel, min: 0, ...(totalScore !== null && totalScore > 0 ? { max: totalScore } : {}) }} />;
}
