import { useLingui } from "@lingui/react/macro";
import { alignedZeroRanges, useChartTheme } from "../../ui/chartTheme.ts";

/** Colours per theme: points take the theme's primary colour, balance an amber that reads on both. */
const MONEY_COLOUR = { light: "#d97706", dark: "#fbbf24" } as const;

export interface OverviewChartProps {
  /** Axis labels, oldest first (e.g. "05-01"). */
  labels: string[];
  score: number[];
  money: number[];
}

/** About five round steps from `min` to `max` (1, 2 or 5 times a power of ten), zero among them when the range holds it. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  const span = max - min;
  if (!(span > 0)) return [min];
  const rough = span / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  // Counted in whole steps (no sums of 0.1 drifting), written to 12 digits, zero never negative.
  for (let i = Math.ceil(min / step - 1e-9); i * step <= max + step * 1e-9; i++) ticks.push(Number((i * step).toPrecision(12)) + 0);
  return ticks;
}

/** Where `value` sits on an axis from `min` (0 %) to `max` (100 %). */
const percentOf = (value: number, { min, max }: { min: number; max: number }) => (max === min ? 0 : ((value - min) / (max - min)) * 100);

/** The part of a column a bar takes: from the zero line to its value, as CSS insets. */
function barInsets(value: number, range: { min: number; max: number }): { bottom: string; top: string } {
  const zero = percentOf(0, range);
  const at = percentOf(value, range);
  return { bottom: `${Math.min(zero, at)}%`, top: `${100 - Math.max(zero, at)}%` };
}

/**
 * Daily changes of points (left axis) and balance (right axis) as bars whose zero lines meet,
 * drawn with plain elements (a chart library for seven pairs of bars cost the member center
 * about 60 KiB gzipped and, on Lighthouse's phone, most of its blocking time). Hidden from
 * screen readers, which get the numbers as a table; each day's figures are its hover title.
 */
export function OverviewChart({ labels, score, money }: OverviewChartProps) {
  const { t } = useLingui();
  const { theme, text, grid, primary: pointsColour } = useChartTheme();
  const moneyColour = MONEY_COLOUR[theme];
  const [pointsRange, moneyRange] = alignedZeroRanges(score, money);
  const pointsTicks = niceTicks(pointsRange.min, pointsRange.max).filter((v) => Number.isInteger(v));
  const moneyTicks = niceTicks(moneyRange.min, moneyRange.max);
  const pointsLabel = t`Points`;
  const balanceLabel = t`Balance`;
  const axisText = "pointer-events-none absolute text-xs tabular-nums leading-none";

  return (
    <div aria-hidden="true" data-testid="overview-chart" className="flex h-64 flex-col gap-2 sm:h-72" style={{ color: text }}>
      <div className="flex justify-between text-xs font-medium">
        <span>{pointsLabel}</span>
        <span>{balanceLabel}</span>
      </div>
      <div className="flex min-h-0 flex-1 gap-2">
        <div className="relative w-8 shrink-0">
          {pointsTicks.map((v) => (
            <span key={v} className={`${axisText} right-0 translate-y-1/2`} style={{ bottom: `${percentOf(v, pointsRange)}%` }}>
              {v}
            </span>
          ))}
        </div>
        <div className="relative flex-1">
          {pointsTicks.map((v) => (
            <div key={v} className="absolute inset-x-0 border-t" style={{ bottom: `${percentOf(v, pointsRange)}%`, borderColor: grid }} />
          ))}
          <div className="absolute inset-0 flex">
            {labels.map((label, i) => (
              <div key={label} title={`${label}: ${pointsLabel} ${score[i] ?? 0}, ${balanceLabel} ${(money[i] ?? 0).toFixed(2)}`} className="relative flex-1">
                <div className="absolute left-[18%] w-[30%] rounded-sm" style={{ ...barInsets(score[i] ?? 0, pointsRange), backgroundColor: pointsColour }} />
                <div className="absolute left-[52%] w-[30%] rounded-sm" style={{ ...barInsets(money[i] ?? 0, moneyRange), backgroundColor: moneyColour }} />
              </div>
            ))}
          </div>
        </div>
        <div className="relative w-12 shrink-0">
          {moneyTicks.map((v) => (
            <span key={v} className={`${axisText} left-0 translate-y-1/2`} style={{ bottom: `${percentOf(v, moneyRange)}%` }}>
              {v.toFixed(2)}
            </span>
          ))}
        </div>
      </div>
      <div className="ml-10 mr-14 flex text-[0.625rem] sm:text-xs">
        {labels.map((label) => (
          <span key={label} className="flex-1 text-center whitespace-nowrap tabular-nums">
            {label}
          </span>
        ))}
      </div>
      <div className="flex justify-center gap-4 text-xs">
        <span className="inline-flex items-center gap-1.5">
          <span className="size-3.5 rounded-sm" style={{ backgroundColor: pointsColour }} />
          {pointsLabel}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="size-3.5 rounded-sm" style={{ backgroundColor: moneyColour }} />
          {balanceLabel}
        </span>
      </div>
    </div>
  );
}
