import type { ChartOptions, ChartType } from "chart.js";
import { useConfig } from "../stores/config.ts";

/** Text and grid colours of charts per theme (series colours are each chart's own). */
const CHART_COLOURS = {
  light: { text: "#334155", grid: "#e2e8f0" },
  dark: { text: "#cbd5e1", grid: "#334155" },
} as const;

export type ChartTheme = "light" | "dark";

/** The theme in use, its chart text/grid colours and the theme's primary colour. */
export function useChartTheme(): { theme: ChartTheme; text: string; grid: string; primary: string } {
  const isDark = useConfig((s) => s.layout.isDark);
  const primaryColor = useConfig((s) => s.layout.primaryColor);
  const theme: ChartTheme = isDark ? "dark" : "light";
  return { theme, ...CHART_COLOURS[theme], primary: primaryColor[theme] };
}

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * What every chart of the app shares: fills its box, no animation for reduced motion, tooltips
 * for the whole column, the legend below, a plain x axis. Charts add their y axes.
 */
export function baseChartOptions<T extends ChartType>(text: string): ChartOptions<T> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: prefersReducedMotion() ? false : undefined,
    interaction: { mode: "index", intersect: false },
    plugins: {
      legend: { position: "bottom", labels: { color: text, boxWidth: 14, padding: 16 } },
      tooltip: { enabled: true },
    },
    scales: { x: { ticks: { color: text }, grid: { display: false } } },
  } as ChartOptions<T>;
}
