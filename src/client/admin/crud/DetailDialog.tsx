import { Trans, useLingui } from "@lingui/react/macro";
import { formatTime } from "../../../shared/time.ts";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { useCrudRow } from "./api.ts";
import type { CrudDefinition } from "./types.ts";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { LoadRetry } from "../../ui/LoadRetry.tsx";

/** A JSON value (or JSON text) as indented text; null when it is neither. */
export function prettyJson(value: unknown): string | null {
  if (value !== null && typeof value === "object") return JSON.stringify(value, null, 2);
  if (typeof value === "string" && /^\s*[[{]/.test(value)) {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The read-only view of one row (`GET edit?id=`): the definition's own `detail` component, or
 * every field of the row, labelled by the definition's columns (or `detailLabels`), times as dates, JSON indented.
 */
export function DetailDialog({ definition, id, onClose }: { definition: CrudDefinition; id: number; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const row = useCrudRow(definition.path, id);
  const Custom = typeof definition.detail === "function" ? definition.detail : null;
  const columns = new Map(definition.columns.map((c) => [c.field, c]));
  const labelOf = (field: string) => {
    const label = columns.get(field)?.label ?? definition.detailLabels?.[field];
    return label ? i18n._(label) : field;
  };
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} size="lg" title={`${t`Details`} · ${i18n._(definition.title)}`}>
      {row.isError ? (
        <LoadRetry message={<Trans>The row could not be loaded.</Trans>} onRetry={() => void row.refetch()} />
      ) : !row.data ? (
        <PageSpinner />
      ) : Custom ? (
        <Custom row={row.data} />
      ) : (
        <dl className="divide-y divide-slate-200 text-sm dark:divide-slate-700">
          {Object.entries(row.data).map(([field, value]) => {
            const column = columns.get(field);
            const json = prettyJson(value);
            const time = column?.render === "datetime" || /_time$/.test(field);
            return (
              <div key={field} className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr] sm:gap-3">
                <dt className="font-medium text-slate-600 dark:text-slate-300">{labelOf(field)}</dt>
                <dd className="min-w-0 break-words">
                  {json !== null ? (
                    <pre className="max-h-72 overflow-auto rounded-md bg-slate-100 p-2 font-mono text-xs whitespace-pre-wrap dark:bg-slate-800">{json}</pre>
                  ) : time ? (
                    <span className="tabular-nums">{formatTime(value as number | string | null)}</span>
                  ) : (
                    String(value ?? "")
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </DialogFrame>
  );
}
