import { Trans, useLingui } from "@lingui/react/macro";
import { Button } from "../../../ui/Button.tsx";
import { Spinner } from "../../../ui/Spinner.tsx";
import type { CrudRow } from "../types.ts";
import { rowLabel, useRemoteRows } from "./RemoteOptions.tsx";

/**
 * The "checkboxList" field kind: the rows of another resource (up to 100, `select=1`) as
 * checkboxes; the value is the list of chosen `valueField`s, or "*" (all, shown as all ticked:
 * unticking one turns it into the explicit list). Children of a `pid` tree are indented.
 */
export function CheckboxList({
  remote,
  value,
  onChange,
  invalid,
}: {
  remote: { path: string; labelField: string; valueField?: string };
  value: unknown;
  onChange: (value: unknown) => void;
  invalid?: boolean;
}) {
  const { t, i18n } = useLingui();
  const valueField = remote.valueField ?? "id";
  const rows = useRemoteRows(remote.path);
  if (!rows.data) return rows.isError ? <p role="alert">{t`The list could not be loaded.`}</p> : <Spinner className="size-5" />;
  const all = value === "*";
  const chosen = new Set(Array.isArray(value) ? value.map(String) : []);
  const keyOf = (row: CrudRow) => String(row[valueField]);
  const depthOf = (row: CrudRow) => {
    let depth = 0;
    let pid = row.pid;
    const byId = new Map(rows.data.map((r) => [r.id, r]));
    while (typeof pid === "number" && pid > 0 && depth < 8) {
      const parent = byId.get(pid);
      if (!parent) break;
      depth++;
      pid = parent.pid;
    }
    return depth;
  };
  const toggle = (row: CrudRow, on: boolean) => {
    const next = all ? new Set(rows.data.map(keyOf)) : new Set(chosen);
    if (on) next.add(keyOf(row));
    else next.delete(keyOf(row));
    onChange(rows.data.filter((r) => next.has(keyOf(r))).map((r) => r[valueField]));
  };
  return (
    <div aria-invalid={invalid || undefined} className="max-h-64 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2 dark:border-slate-700">
      <div className="flex gap-3 border-b border-slate-100 pb-1 text-sm dark:border-slate-800">
        <Button variant="link" className="min-h-9" onClick={() => onChange(rows.data.map((r) => r[valueField]))}>
          <Trans>Select all</Trans>
        </Button>
        <Button variant="link" className="min-h-9" onClick={() => onChange([])}>
          <Trans>Select none</Trans>
        </Button>
      </div>
      {rows.data.length === 0 && <p className="text-sm text-slate-500 dark:text-slate-400">{t`No data`}</p>}
      {rows.data.map((row) => (
        <label key={keyOf(row)} className="flex min-h-9 items-center gap-2" style={{ paddingInlineStart: `${depthOf(row) * 1.25}rem` }}>
          <input type="checkbox" className="size-4 accent-primary" checked={all || chosen.has(keyOf(row))} onChange={(e) => toggle(row, e.target.checked)} />
          {rowLabel(row, remote.labelField, i18n.locale, valueField)}
        </label>
      ))}
    </div>
  );
}
