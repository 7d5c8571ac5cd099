import { Trans, useLingui } from "@lingui/react/macro";
import { ChevronDown, ChevronRight } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { Spinner } from "../../../ui/Spinner.tsx";
import { nestRows, type TreeRow } from "../tree.ts";
import { checkIndex, stateOf, toggle, type CheckIndex, type CheckState } from "./checkTree.ts";
import { labelOf, useAllRows, type RowLabel } from "./treeData.ts";

/** The ids a value stands for: an id list, or "*" (every row). */
function chosenOf(value: unknown, all: number[]): Set<number> {
  if (value === "*") return new Set(all);
  return new Set(Array.isArray(value) ? value.map(Number).filter(Number.isFinite) : []);
}

function Box({ state, label, onToggle }: { state: CheckState; label: string; onToggle: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === "partial";
  }, [state]);
  return (
    <label className="inline-flex min-h-9 items-center gap-2">
      <input ref={ref} type="checkbox" className="size-4 accent-primary" checked={state === "checked"} onChange={onToggle} />
      {label}
    </label>
  );
}

function Nodes({ rows, depth, ctx }: { rows: TreeRow[]; depth: number; ctx: { index: CheckIndex; chosen: Set<number>; label: RowLabel; locale: string; folded: Set<number>; fold: (id: number) => void; pick: (id: number) => void } }) {
  const { t } = useLingui();
  return (
    <ul role={depth === 0 ? "tree" : "group"} className={depth === 0 ? "" : "ms-6"}>
      {rows.map((row) => {
        const open = !ctx.folded.has(row.id);
        const name = labelOf(row, ctx.label, ctx.locale);
        const hasChildren = !!row.children?.length;
        return (
          <li key={row.id} role="treeitem" aria-expanded={hasChildren ? open : undefined} aria-selected={ctx.chosen.has(row.id)}>
            <span className="flex items-center gap-1">
              {hasChildren ? (
                <Button variant="ghost" size="iconSm" onClick={() => ctx.fold(row.id)} aria-label={open ? t`Collapse ${name}` : t`Expand ${name}`}>
                  {open ? <ChevronDown aria-hidden className="size-4" /> : <ChevronRight aria-hidden className="size-4" />}
                </Button>
              ) : (
                <span aria-hidden className="inline-block w-9 shrink-0" />
              )}
              <Box state={stateOf(ctx.index, ctx.chosen, row.id)} label={name} onToggle={() => ctx.pick(row.id)} />
            </span>
            {hasChildren && open && <Nodes rows={row.children!} depth={depth + 1} ctx={ctx} />}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Rules (or any tree resource's rows) as a checkbox tree: checking a parent checks everything
 * under it, a parent with some of its rows checked is half-checked. The value is the chosen ids
 * (half-checked parents included, so their menus show) or "*" until the admin changes it.
 */
export function CheckboxTree({ control, path, label, value, onChange }: { control: FieldControlProps; path: string; label: RowLabel; value: unknown; onChange: (value: number[]) => void }) {
  const { i18n } = useLingui();
  const rows = useAllRows(path);
  const all = useMemo(() => rows.data ?? [], [rows.data]);
  const index = useMemo(() => checkIndex(all), [all]);
  const roots = useMemo(() => nestRows(all), [all]);
  const chosen = chosenOf(value, index.ids);
  // Big trees start with only their top level open (a rule tree: directories open, menus' buttons folded).
  const [folded, setFolded] = useState<Set<number> | null>(null);
  const foldedNow = folded ?? new Set(all.filter((r) => index.parent.has(r.id) && index.children.has(r.id)).map((r) => r.id));
  if (rows.isPending) return <Spinner className="my-2 size-6" />;
  if (rows.isError) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        <Trans>The list could not be loaded.</Trans>
      </p>
    );
  }
  const pickAll = (on: boolean) => onChange(on ? [...index.ids] : []);
  return (
    <div aria-describedby={control["aria-describedby"]} className="max-h-80 overflow-y-auto rounded-md border border-slate-300 p-2 dark:border-slate-600">
      <div className="mb-1 flex gap-3 text-sm">
        <Button variant="link" onClick={() => pickAll(true)}>
          <Trans>Check all</Trans>
        </Button>
        <Button variant="link" onClick={() => pickAll(false)}>
          <Trans>Uncheck all</Trans>
        </Button>
      </div>
      <Nodes
        rows={roots}
        depth={0}
        ctx={{
          index,
          chosen,
          label,
          locale: i18n.locale,
          folded: foldedNow,
          fold: (id) => {
            const next = new Set(foldedNow);
            if (next.has(id)) next.delete(id);
            else next.add(id);
            setFolded(next);
          },
          pick: (id) => onChange([...toggle(index, chosen, id)].sort((a, b) => a - b)),
        }}
      />
    </div>
  );
}
