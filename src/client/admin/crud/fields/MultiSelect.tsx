import { useLingui } from "@lingui/react/macro";
import { ChevronDown, X } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { SearchPopover } from "../../../ui/SearchPopover.tsx";
import { Spinner } from "../../../ui/Spinner.tsx";
import { flattenTree, nestRows } from "../tree.ts";
import { labelOf, useAllRows, type RowLabel } from "./treeData.ts";

/** The chosen ids of a multi-select value (an id list; anything else is none). */
export function idsOf(value: unknown): number[] {
  return Array.isArray(value) ? value.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [];
}

/**
 * Several rows of another resource (e.g. an admin's groups): the chosen ones as chips, a
 * popover lists every row (nested when the resource is a tree) with a filter and a checkbox each.
 */
export function MultiSelect({ control, path, label, value, onChange }: { control: FieldControlProps; path: string; label: RowLabel; value: unknown; onChange: (value: number[]) => void }) {
  const { t, i18n } = useLingui();
  const rows = useAllRows(path);
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState("");
  const chosen = idsOf(value);
  const options = useMemo(() => flattenTree(nestRows(rows.data ?? [])), [rows.data]);
  const nameOf = (id: number) => {
    const row = rows.data?.find((r) => r.id === id);
    return row ? labelOf(row, label, i18n.locale) : `#${id}`;
  };
  const term = filter.trim().toLowerCase();
  const shown = term ? options.filter(({ row }) => labelOf(row, label, i18n.locale).toLowerCase().includes(term)) : options;
  const flip = (id: number) => onChange(chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id]);
  return (
    <div className="space-y-2">
      <SearchPopover
        control={control}
        open={open}
        onOpenChange={setOpen}
        trigger={
          <>
            <span className={chosen.length ? "" : "text-slate-500 dark:text-slate-400"}>{chosen.length ? chosen.map(nameOf).join(", ") : t`Please select`}</span>
            <ChevronDown aria-hidden className="size-4 shrink-0" />
          </>
        }
        triggerClassName="justify-between"
        contentClassName="w-[var(--radix-popover-trigger-width)] min-w-56 max-w-[calc(100vw-1rem)]"
        search={filter}
        onSearch={setFilter}
        searchLabel={t`Type to search`}
      >
        <div className="mt-2 max-h-60 overflow-y-auto">
          {rows.isPending && <Spinner className="mx-auto my-2 size-5" />}
          {!rows.isPending && shown.length === 0 && <p className="px-2 py-2 text-sm text-slate-500 dark:text-slate-400">{t`No matches`}</p>}
          {shown.map(({ row, depth }) => (
            <label key={row.id} className="flex min-h-11 items-center gap-2 rounded px-2 hover:bg-slate-100 dark:hover:bg-slate-700" style={{ paddingInlineStart: `${0.5 + (term ? 0 : depth) * 1.25}rem` }}>
              <input type="checkbox" className="size-4 accent-primary" checked={chosen.includes(row.id)} onChange={() => flip(row.id)} />
              {labelOf(row, label, i18n.locale)}
            </label>
          ))}
        </div>
      </SearchPopover>
      {chosen.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={t`Chosen`}>
          {chosen.map((id) => {
            const name = nameOf(id);
            return (
              <li key={id} className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 ps-3 pe-1 text-sm dark:bg-slate-800">
                {name}
                {/* Sized to sit inside the chip, round like it. */}
                <Button variant="bare" aria-label={t`Remove ${name}`} onClick={() => flip(id)} className="inline-flex min-h-7 min-w-7 items-center justify-center rounded-full hover:bg-slate-200 dark:hover:bg-slate-700">
                  <X aria-hidden className="size-3" />
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
