import { useLingui } from "@lingui/react/macro";
import type { CrudRow } from "../crud/types.ts";

/** Cents -> "12.34" (money is kept in cents). */
export function formatCents(value: unknown): string {
  const n = Number(value);
  return Number.isFinite(n) ? (n / 100).toFixed(2) : "";
}

/** A money cell: the amount in yuan, right-aligned figures. */
export function moneyCell(field: string) {
  return (row: CrudRow) => <span className="tabular-nums">{formatCents(row[field])}</span>;
}

/** A change cell: signed, green when added, red when taken. */
export function changeCell(field: string, money: boolean) {
  return (row: CrudRow) => {
    const n = Number(row[field]);
    const text = money ? formatCents(n) : String(n);
    return <span className={`tabular-nums ${n < 0 ? "text-red-700 dark:text-red-400" : "text-green-700 dark:text-green-400"}`}>{n > 0 ? `+${text}` : text}</span>;
  };
}

function Avatar({ row }: { row: CrudRow }) {
  const { t } = useLingui();
  const url = typeof row.avatar === "string" ? row.avatar : "";
  const name = String(row.nickname || row.username || "");
  if (!url) {
    return (
      <span aria-hidden className="inline-flex size-8 items-center justify-center rounded-full bg-slate-200 text-xs font-semibold uppercase text-slate-600 dark:bg-slate-700 dark:text-slate-200">
        {name.slice(0, 1)}
      </span>
    );
  }
  return <img src={url} alt={t`Avatar of ${name}`} loading="lazy" className="size-8 rounded-full object-cover" />;
}

export const avatarCell = (row: CrudRow) => <Avatar row={row} />;

/** The member of a log row: username and nickname. */
export const memberCell = (row: CrudRow) => (
  <span className="flex flex-col leading-tight">
    <span>{String(row.username ?? "")}</span>
    {row.nickname ? <span className="text-xs text-slate-500 dark:text-slate-400">{String(row.nickname)}</span> : null}
  </span>
);

/** A member's group name, on one line. */
export const groupCell = (row: CrudRow) => <span className="whitespace-nowrap">{String(row.group_name ?? "")}</span>;
