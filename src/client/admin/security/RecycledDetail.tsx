import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { formatTime } from "../../../shared/time.ts";
import { prettyJson } from "../crud/DetailDialog.tsx";
import { useFieldLabels } from "./labels.tsx";

type Row = Record<string, unknown>;

/** A kept value as text: JSON indented, times as dates, the rest as it was. */
function Value({ field, value }: { field: string; value: unknown }) {
  const json = prettyJson(value);
  if (json !== null) return <pre className="max-h-60 overflow-auto rounded-md bg-slate-100 p-2 font-mono text-xs whitespace-pre-wrap dark:bg-slate-800">{json}</pre>;
  if (/_time$/.test(field) && (typeof value === "number" || typeof value === "string")) return <span className="tabular-nums">{formatTime(value)}</span>;
  return <>{value === null || value === undefined ? "" : String(value)}</>;
}

function Entry({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr] sm:gap-3">
      <dt className="font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/**
 * A recycle-bin record's view: what was deleted, when and from where, then the deleted row field
 * by field as its screen's form names them, and the rows its delete removed with it.
 */
export function RecycledDetail({ row }: { row: Row }) {
  const { t } = useLingui();
  const labelOf = useFieldLabels(row.controller);
  const data = (row.data ?? {}) as { row?: Row; cascaded?: { table: string; rows: Row[] }[] };
  const kept = data.row && typeof data.row === "object" ? data.row : {};
  const cascaded = Array.isArray(data.cascaded) ? data.cascaded : [];
  return (
    <div className="space-y-4 text-sm">
      <dl className="divide-y divide-slate-200 dark:divide-slate-700">
        <Entry label={t`Name`}>{String(row.title ?? "")}</Entry>
        <Entry label={t`Table`}>{String(row.data_table ?? "")}</Entry>
        <Entry label={t`Row ID`}>{String(row.row_id ?? "")}</Entry>
        <Entry label={t`Time`}>
          <span className="tabular-nums">{formatTime(row.create_time as number | null)}</span>
        </Entry>
        <Entry label={t`IP`}>{String(row.ip ?? "")}</Entry>
      </dl>
      <section aria-labelledby="recycled-row">
        <h3 id="recycled-row" className="mb-1 font-semibold">
          <Trans>Deleted data</Trans>
        </h3>
        <dl className="divide-y divide-slate-200 dark:divide-slate-700" data-testid="recycled-row">
          {Object.entries(kept).map(([field, value]) => (
            <Entry key={field} label={<span title={field}>{labelOf(field)}</span>}>
              <Value field={field} value={value} />
            </Entry>
          ))}
        </dl>
      </section>
      {cascaded.length > 0 && (
        <section aria-labelledby="recycled-with">
          <h3 id="recycled-with" className="mb-1 font-semibold">
            <Trans>Deleted with it</Trans>
          </h3>
          {cascaded.map(({ table, rows }, i) => {
            const count = rows.length;
            return (
              <details key={`${table}-${String(i)}`} className="py-1">
                <summary className="cursor-pointer">{t`${table}: ${plural(count, { one: "# row", other: "# rows" })}`}</summary>
                <Value field="" value={rows} />
              </details>
            );
          })}
        </section>
      )}
    </div>
  );
}
