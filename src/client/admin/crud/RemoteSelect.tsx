import { useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState } from "react";
import { controlClass, type FieldControlProps } from "../../ui/form/Field.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { useRemoteInitial, useRemoteOptions } from "./api.ts";
import type { CrudRow } from "./types.ts";

const SEARCH_DELAY_MS = 300;

/**
 * A select over another resource's rows: typing searches them (`select=1&quickSearch=`, after a
 * short pause), the current value's label is loaded before any search (`initKey`/`initValue`).
 * A combobox with a listbox (arrow keys move, Enter picks, Escape closes).
 */
export function RemoteSelect({
  control,
  remote,
  value,
  onChange,
  placeholder,
  fallbackLabel,
  describe,
}: {
  control: FieldControlProps;
  remote: { path: string; labelField: string; valueField?: string };
  value: unknown;
  /** The picked value, and its row as the source listed it (e.g. a question's score, a paper's total). */
  onChange: (value: unknown, row?: CrudRow) => void;
  placeholder?: string;
  /** The current value's label when the source does not list it (the form's row names it). */
  fallbackLabel?: unknown;
  /** A second line under each suggestion, telling rows of the same label apart (e.g. a question's id, type and bank). */
  describe?: (row: CrudRow) => string;
}) {
  const { t } = useLingui();
  const valueField = remote.valueField ?? "id";
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [term, setTerm] = useState("");
  const [active, setActive] = useState(0);
  const [picked, setPicked] = useState<CrudRow | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setTerm(text ?? ""), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const initial = useRemoteInitial(remote.path, valueField, picked ? null : value);
  const options = useRemoteOptions(remote.path, term, open);
  const unlisted = initial.isSuccess && !initial.data && typeof fallbackLabel === "string" && fallbackLabel !== "" ? ({ id: Number(value), [valueField]: value, [remote.labelField]: fallbackLabel } as CrudRow) : null;
  const current = picked ?? initial.data ?? unlisted;
  const labelOf = (row: CrudRow | null) => (row ? String(row[remote.labelField] ?? row[valueField] ?? "") : "");
  const rows = options.data ?? [];

  const pick = (row: CrudRow) => {
    setPicked(row);
    onChange(row[valueField], row);
    setText(null);
    setOpen(false);
  };

  return (
    <div className="relative">
      <input
        {...control}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        autoComplete="off"
        placeholder={placeholder ?? t`Type to search`}
        className={controlClass(control["aria-invalid"])}
        value={text ?? labelOf(current)}
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setOpen(true);
            setActive((i) => Math.min(i + 1, rows.length - 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((i) => Math.max(i - 1, 0));
          } else if (e.key === "Enter" && open && rows[active]) {
            e.preventDefault();
            pick(rows[active]);
          } else if (e.key === "Escape" && open) {
            e.stopPropagation();
            setOpen(false);
            setText(null);
          }
        }}
        onBlur={() => {
          // Leave time for a click on an option to land.
          setTimeout(() => {
            setOpen(false);
            setText(null);
          }, 150);
        }}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          className="absolute z-10 mt-1 max-h-60 w-full overflow-y-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-800"
        >
          {options.isFetching && rows.length === 0 && (
            <li className="flex justify-center py-2">
              <Spinner className="size-5" />
            </li>
          )}
          {!options.isFetching && rows.length === 0 && <li className="px-3 py-2 text-sm text-slate-500 dark:text-slate-400">{t`No matches`}</li>}
          {rows.map((row, i) => (
            <li
              key={String(row[valueField])}
              role="option"
              aria-selected={row[valueField] === value}
              className={`cursor-pointer px-3 py-2 ${i === active ? "bg-slate-100 dark:bg-slate-700" : ""}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(row)}
            >
              {labelOf(row)}
              {describe && <span className="block text-xs text-slate-600 dark:text-slate-300">{describe(row)}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
