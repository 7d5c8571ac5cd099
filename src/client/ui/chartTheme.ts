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

/**
 * Ranges for two value axes of one chart whose zero lines meet: each axis spans its own values
 * and zero, and the one with less room below zero (in proportion) gets more, so bars of both
 * series grow from one baseline. All zeros: 0 to 1.
 */
export function alignedZeroRanges(first: readonly number[], second: readonly number[]): [{ min: number; max: number }, { min: number; max: number }] {
  const extent = (values: readonly number[]) => {
    const below = Math.max(0, -Math.min(0, ...values));
    const above = Math.max(0, ...values);
    return below === 0 && above === 0 ? { below: 0, above: 1 } : { below, above };
  };
  const a = extent(first);
  const b = extent(second);
  // The share of each axis below zero: both take the larger, unless that leaves no room above
  // zero for an axis with values there (one series all down, the other up): then half each.
  const larger = Math.max(a.below / (a.below + a.above), b.below / (b.below + b.above));
  const share = larger === 1 && (a.above > 0 || b.above > 0) ? 0.5 : larger;
  // Each axis keeps the side its values fill exactly and stretches the other to the share.
  const range = (e: { below: number; above: number }) => {
    if (share === 0) return { min: 0, max: e.above };
    if (share === 1) return { min: -e.below, max: 0 };
    const fromAbove = e.above / (1 - share) >= e.below / share;
    return fromAbove ? { min: -(e.above * share) / (1 - share), max: e.above } : { min: -e.below, max: (e.below * (1 - share)) / share };
  };
  return [range(a), range(b)];
}
