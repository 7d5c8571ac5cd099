import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { Select, type SelectOption } from "../../../ui/Select.tsx";
import { flattenTree, nestRows, subtreeIds } from "../tree.ts";
import { labelOf, useAllRows, type RowLabel } from "./treeData.ts";

/**
 * The parent of a tree row: the rows of a tree resource (`select=1`, every page) nested by
 * `pid` and indented, with "none" (0) on top. On edit, the row itself and everything under it
 * are left out (the server refuses them too). The choices are indented by depth in a Radix
 * select (keys, type-ahead, screen readers).
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
  const choices: SelectOption[] = [
    { value: "0", label: rootLabel ?? t`None (top level)` },
    // The current parent, while the rows load (or when it is no longer listed).
    ...(current !== 0 && !options.some((o) => o.row.id === current) ? [{ value: String(current), label: rows.isFetching ? t`Loading…` : `#${current}` }] : []),
    ...options.map(({ row, depth }) => ({ value: String(row.id), label: labelOf(row, label, i18n.locale), depth })),
  ];
  return <Select control={control} value={String(current)} onChange={(v) => onChange(Number(v))} onBlur={onBlur} busy={rows.isFetching} options={choices} />;
}
