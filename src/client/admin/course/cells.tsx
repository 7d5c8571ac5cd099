import { useLingui } from "@lingui/react/macro";
import type { CrudRow } from "../crud/types.ts";
import { formatClock } from "../../ui/format.ts";

function Cover({ row }: { row: CrudRow }) {
  const { t } = useLingui();
  const url = typeof row.cover === "string" ? row.cover : "";
  const title = String(row.title ?? "");
  if (!url) return <span aria-hidden className="inline-block h-9 w-16 rounded bg-slate-200 dark:bg-slate-700" />;
  return <img src={url} alt={t`Cover of ${title}`} loading="lazy" className="h-9 w-16 rounded object-cover" />;
}

/** A course's cover thumbnail. */
export const coverCell = (row: CrudRow) => <Cover row={row} />;

/** A course price: "Free" or the amount in yuan. */
function Price({ cents }: { cents: number }) {
  const { t } = useLingui();
  return <span className="whitespace-nowrap tabular-nums">{cents > 0 ? (cents / 100).toFixed(2) : t`Free`}</span>;
}
export const priceCell = (row: CrudRow) => <Price cents={Number(row.price) || 0} />;

/** A lesson's length as a clock ("4:05"), empty for text lessons. */
export const durationCell = (row: CrudRow) => <span className="tabular-nums">{row.video_type ? formatClock(Number(row.duration)) : ""}</span>;

/** A category's title in the UI language (its English title in English, when it has one). */
export const categoryTitle = (row: CrudRow, locale: string): string => String((locale === "en" && row.title_en) || row.title || row.id);

function CategoryName({ row }: { row: CrudRow }) {
  const { i18n } = useLingui();
  return <span className="whitespace-nowrap">{String((i18n.locale === "en" && row.category_title_en) || row.category_title || "")}</span>;
}
/** A course's category in the UI language. */
export const categoryCell = (row: CrudRow) => <CategoryName row={row} />;
