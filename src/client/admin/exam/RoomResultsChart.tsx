import { useLingui } from "@lingui/react/macro";
import { CountBarChart } from "../CountBarChart.tsx";

/** Finished attempts per score band, in its own lazy chunk as the dashboard's; the numbers are listed beside it too. */
export default function RoomResultsChart({ labels, counts }: { labels: string[]; counts: number[] }) {
  const { t } = useLingui();
  return <CountBarChart label={t`Attempts`} labels={labels} counts={counts} className="h-48 sm:h-56" />;
}
