import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { controlClass } from "../../ui/form/Field.tsx";
import { useRemoteInitial } from "../crud/api.ts";
import { RemoteSelect } from "../crud/RemoteSelect.tsx";
import type { CustomFieldProps } from "../crud/types.ts";

/**
 * Fields of the paper and room forms: a duration typed in minutes (the wire and the
 * database keep seconds), the room's paper whose pick prefills the room's time and pass score and
 * says whether the paper's questions add up to its total, and the paper form's own note of that.
 */

/** Seconds as the minutes an admin reads ("" for none); a duration not in whole minutes keeps its fraction. */
export const minutesOf = (seconds: unknown): string => {
  const n = typeof seconds === "number" ? seconds : typeof seconds === "string" && seconds.trim() !== "" ? Number(seconds) : Number.NaN;
  return Number.isFinite(n) ? String(Math.round((n / 60) * 100) / 100) : "";
};

/** Minutes typed -> whole seconds (null while empty, NaN when unreadable: the schema refuses both). */
export const secondsOf = (minutes: string): number | null => (minutes.trim() === "" ? null : Math.round(Number(minutes) * 60));

/** A duration entered in minutes, held (and sent) in seconds. */
export function MinutesField({ value, onChange, control }: CustomFieldProps) {
  // The text as typed, so "1." or "" survive while editing; the form holds the seconds.
  const [text, setText] = useState<string | null>(null);
  const shown = text !== null && secondsOf(text) === value ? text : minutesOf(value);
  return (
    <input
      {...control}
      type="number"
      inputMode="decimal"
      min={1}
      step="any"
      value={shown}
      onChange={(e) => {
        setText(e.target.value);
        onChange(secondsOf(e.target.value));
      }}
      className={controlClass(control["aria-invalid"] ? "x" : undefined)}
    />
  );
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === "" ? null : Number(v));

/** Whether a paper's rows give exactly its total (to the cent). */
const addsUp = (rowsTotal: number, total: number) => Math.round(rowsTotal * 100) === Math.round(total * 100);

/** A paper's total and its rows' sum, and a warning when they differ (a room cannot use it then). */
function PaperTotals({ total, rowsTotal }: { total: number; rowsTotal: number }) {
  const { t } = useLingui();
  const ok = addsUp(rowsTotal, total);
  return (
    <p role="status" data-testid="paper-totals" className={`text-sm ${ok ? "text-slate-600 dark:text-slate-300" : "font-medium text-red-700 dark:text-red-400"}`}>
      {ok ? t`Total ${total} points; its questions add up to ${rowsTotal}` : t`Its questions add up to ${rowsTotal} points, not its total of ${total}: a room cannot use it until they do`}
    </p>
  );
}

/**
 * The room's paper: picking one fills in the room's time per attempt and pass score from the
 * paper (staff may change them), and shows the paper's total against what its questions add up to.
 */
export function RoomPaperField({ value, onChange, control, setValue }: CustomFieldProps) {
  const current = useRemoteInitial("exam/paper", "id", value);
  const paper = current.data ?? null;
  const total = num(paper?.total_score);
  const rowsTotal = num(paper?.rows_total);
  return (
    <div className="space-y-1">
      <RemoteSelect
        control={{ id: control.id, "aria-describedby": control["aria-describedby"], "aria-invalid": control["aria-invalid"] ? true : undefined }}
        remote={{ path: "exam/paper", labelField: "title" }}
        value={value}
        onChange={(id, row) => {
          onChange(id);
          if (!row) return;
          const duration = num(row.duration);
          const pass = num(row.pass_score);
          if (duration !== null && Number.isFinite(duration)) setValue("duration", duration);
          if (pass !== null && Number.isFinite(pass)) setValue("pass_score", pass);
        }}
      />
      {total !== null && rowsTotal !== null && <PaperTotals total={total} rowsTotal={rowsTotal} />}
    </div>
  );
}

/** The paper form's note (edit): what its questions add up to against the total being entered. */
export function PaperRowsTotal({ value, values }: CustomFieldProps) {
  const rowsTotal = num(value) ?? 0;
  const total = num(values.total_score);
  if (total === null || !Number.isFinite(total)) return null;
  return (
    <div className="space-y-1">
      <PaperTotals total={total} rowsTotal={rowsTotal} />
      <p className="text-xs text-slate-500 dark:text-slate-400">
        <Trans>Compose the questions with the row action "Compose questions".</Trans>
      </p>
    </div>
  );
}
