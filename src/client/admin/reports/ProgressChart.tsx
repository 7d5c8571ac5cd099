import { useLingui } from "@lingui/react/macro";
import { CountBarChart } from "../CountBarChart.tsx";

/** A target's members by status as bars, in its own lazy chunk; the screen lists the numbers too. */
export default function ProgressChart({ labels, counts }: { labels: string[]; counts: number[] }) {
  const { t } = useLingui();
  return <CountBarChart label={t`Members`} labels={labels} counts={counts} className="h-48 sm:h-56" />;
}
