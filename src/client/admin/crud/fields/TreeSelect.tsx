import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { controlClass, type FieldControlProps } from "../../../ui/form/Field.tsx";
import { flattenTree, nestRows, subtreeIds } from "../tree.ts";
import { labelOf, useAllRows, type RowLabel } from "./treeData.ts";

/**
 * The parent of a tree row: the rows of a tree resource (`select=1`, every page) nested by
 * `pid` and indented, with "none" (0) on top. On edit, the row itself and everything under it
 * are left out (the server refuses them too). A native select: keys, screen readers and phones
 * handle it as any select.
 */
export function TreeSelect({
  control,
  path,
  label,
  value,
  onChange,
  onBlur,
  rowId,
  rootLabel,
}: {
  control: FieldControlProps;
  path: string;
  label: RowLabel;
  value: unknown;
  onChange: (value: number) => void;
  onBlur?: () => void;
  /** The row being edited (null when adding). */
  rowId: number | null;
  rootLabel?: string;
}) {
  const { t, i18n } = useLingui();
  const rows = useAllRows(path);
  const options = useMemo(() => {
    const all = rows.data ?? [];
    const excluded = rowId === null ? new Set<number>() : subtreeIds(all, rowId);
    return flattenTree(nestRows(all.filter((r) => !excluded.has(r.id))));
  }, [rows.data, rowId]);
  const current = Number(value ?? 0) || 0;
  return (
    <select
      {...control}
      value={String(current)}
      onChange={(e) => onChange(Number(e.target.value))}
      onBlur={onBlur}
      aria-busy={rows.isFetching || undefined}
      className={controlClass(control["aria-invalid"])}
    >
      <option value="0">{rootLabel ?? t`None (top level)`}</option>
      {/* The current parent, while the rows load (or when it is no longer listed). */}
      {current !== 0 && !options.some((o) => o.row.id === current) && <option value={String(current)}>{rows.isFetching ? t`Loading…` : `#${current}`}</option>}
      {options.map(({ row, depth }) => (
        <option key={row.id} value={String(row.id)}>
          {`${"\u3000".repeat(depth)}${depth > 0 ? "└ " : ""}${labelOf(row, label, i18n.locale)}`}
        </option>
      ))}
    </select>
  );
}
