import {
  columnVisibilityFeature,
  createExpandedRowModel,
  functionalUpdate,
  rowExpandingFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type ExpandedState,
  type Row,
  type RowData,
  type RowSelectionState,
  type SortingState,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useMemo, useState, type HTMLAttributes, type ReactNode, type TableHTMLAttributes } from "react";
import { Button } from "./Button.tsx";
import { PlainTable, Table, TBody, Td, Th, THead, Tr } from "./Table.tsx";

const features = tableFeatures({
  rowSortingFeature,
  columnVisibilityFeature,
  rowSelectionFeature,
  rowExpandingFeature,
  expandedRowModel: createExpandedRowModel(),
});

/** A row as TanStack Table holds it: its data (`original`), depth, parent, selection and expansion. */
export type DataRow<T extends RowData> = Row<typeof features, T>;
export type { SortingState, RowSelectionState, ColumnVisibilityState };

export interface DataCellContext<T extends RowData> {
  row: DataRow<T>;
  /** The cell's place among the visible columns (0: the first one shown). */
  index: number;
}

export interface DataColumn<T extends RowData> {
  /** Unique in the table: the key of sorting and column visibility. */
  id: string;
  /** The column's heading (a table without a header row needs none). */
  header?: ReactNode;
  headerClassName?: string;
  cell: (row: T, context: DataCellContext<T>) => ReactNode;
  /** The body cells' class (or each row's). */
  className?: string | ((row: T) => string);
  /** The body cells are the rows' headers (`<th scope="row">`). */
  rowHeader?: boolean;
  /** The body cells' test id. */
  testId?: string;
  /** The header is a button that sorts by this column (with `sorting` given). */
  sortable?: boolean;
  /**
   * The value the column shows, as data: TanStack Table samples it to choose a column's first
   * sort direction (text ascending, anything else descending).
   */
  value?: (row: T) => unknown;
}

/** A column of figures (`{ id, header, ...FIGURES, cell }`): right-aligned and in digits of one width, so that they line up. */
export const FIGURES = { headerClassName: "text-right", className: "text-end tabular-nums" } as const;

/** A row spanning the table in place of data rows (loading, an error, nothing to list), and its cell's class. */
export interface TableMessage {
  content: ReactNode;
  className?: string;
}

type Frame =
  /** The framed region that scrolls sideways (ui/Table), named by the caption. */
  | { frame?: true; caption: ReactNode; busy?: boolean }
  /** The bare table (ui/PlainTable), for a box that scrolls it already or a table for screen readers only. */
  | { frame: false; caption?: ReactNode; busy?: never };

export type DataTableProps<T extends RowData> = Frame &
  Omit<TableHTMLAttributes<HTMLTableElement>, "children" | "caption"> & {
    data: T[];
    columns: DataColumn<T>[];
    rowKey: (row: T) => string | number;
    /** `false`: no header row (a two-column list whose first cells head their rows). */
    head?: boolean;
    headClassName?: string;
    bodyClassName?: string;
    /**
     * Spells out table, rowgroup and row roles, for a table whose parts CSS lays out as blocks
     * (a phone's cards): browsers drop the implicit roles of a table displayed otherwise.
     */
    explicitRoles?: boolean;
    rowProps?: (row: T, tableRow: DataRow<T>) => HTMLAttributes<HTMLTableRowElement>;
    /** Shown instead of the rows while set (the first load, a failed one). */
    status?: TableMessage | null;
    /** Shown when there are no rows. */
    empty?: TableMessage;
    /** With no rows yet: placeholder rows of grey bars, each with this test id, instead of `empty`. */
    skeleton?: { rows: number; testId?: string };
    /** Sorting by header buttons, done by the caller (the server sorts). */
    sorting?: { state: SortingState; onChange: (next: SortingState) => void };
    /** A first column of checkboxes; the labels name each row and the header's select-all. */
    selection?: { state: RowSelectionState; onChange: (next: RowSelectionState) => void; label: (row: T) => string; allLabel: string };
    columnVisibility?: ColumnVisibilityState;
    /** Rows nested under a row (a tree): expanded and collapsed by the table. */
    subRows?: (row: T) => T[] | undefined;
  };

const MESSAGE_CLASS = "px-3 py-8 text-center text-slate-500 dark:text-slate-400";

function SortIcon({ state }: { state: false | "asc" | "desc" }) {
  if (state === "asc") return <ArrowUp aria-hidden className="size-4" />;
  if (state === "desc") return <ArrowDown aria-hidden className="size-4" />;
  return <ArrowUpDown aria-hidden className="size-4 opacity-40" />;
}

/**
 * A list as a table, over TanStack Table: the caller's columns (heading, cell, optional sort),
 * one row per item keyed by `rowKey`, a message row while loading, on an error or when empty,
 * and optional row selection, column visibility and tree rows. Sorting is the caller's (a list
 * the server pages is sorted by the server); the markup is ui/Table's.
 */
export function DataTable<T extends RowData>(props: DataTableProps<T>) {
  const {
    data,
    columns,
    rowKey,
    head = true,
    headClassName,
    bodyClassName,
    explicitRoles = false,
    rowProps,
    status,
    empty,
    skeleton,
    sorting,
    selection,
    columnVisibility,
    subRows,
    frame,
    caption,
    busy,
    ...tableProps
  } = props;
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const defs = useMemo<ColumnDef<typeof features, T>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        ...(column.value ? { accessorFn: column.value } : {}),
        enableSorting: !!column.sortable,
        enableHiding: true,
      })),
    [columns],
  );
  const table = useTable({
    features,
    columns: defs,
    data,
    getRowId: (row) => String(rowKey(row)),
    getSubRows: subRows,
    manualSorting: true,
    enableMultiSort: false,
    enableSubRowSelection: false,
    state: {
      expanded,
      ...(sorting ? { sorting: sorting.state } : {}),
      ...(selection ? { rowSelection: selection.state } : {}),
      ...(columnVisibility ? { columnVisibility } : {}),
    },
    onExpandedChange: (updater) => setExpanded((old) => functionalUpdate(updater, old)),
    onSortingChange: sorting ? (updater) => sorting.onChange(functionalUpdate(updater, sorting.state)) : undefined,
    onRowSelectionChange: selection ? (updater) => selection.onChange(functionalUpdate(updater, selection.state)) : undefined,
  });

  const byId = new Map(columns.map((c) => [c.id, c]));
  const visibleColumns = table.getVisibleLeafColumns();
  const span = visibleColumns.length + (selection ? 1 : 0);
  const rows = table.getRowModel().rows;
  const rowRole = explicitRoles ? "row" : undefined;
  const groupRole = explicitRoles ? "rowgroup" : undefined;

  const message = (m: TableMessage) => (
    <tr role={rowRole}>
      <td colSpan={span} className={m.className ?? MESSAGE_CLASS}>
        {m.content}
      </td>
    </tr>
  );

  let body: ReactNode;
  if (status) body = message(status);
  else if (rows.length === 0 && skeleton)
    body = Array.from({ length: skeleton.rows }, (_, i) => (
      <Tr key={i} role={rowRole} data-testid={skeleton.testId}>
        {Array.from({ length: span }, (_, j) => (
          <Td key={j}>
            <span className="block h-4 w-full max-w-24 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
          </Td>
        ))}
      </Tr>
    ));
  else if (rows.length === 0) body = empty ? message(empty) : null;
  else
    body = rows.map((row) => {
      const extra = rowProps?.(row.original, row) ?? {};
      const selected = !!selection && row.getIsSelected();
      return (
        <Tr key={row.id} role={rowRole} {...extra} className={selection ? `${selected ? "bg-primary/5" : ""}${extra.className ? ` ${extra.className}` : ""}` : extra.className}>
          {selection && (
            <Td className="w-10">
              <input type="checkbox" className="size-4 accent-primary" aria-label={selection.label(row.original)} checked={selected} onChange={row.getToggleSelectedHandler()} />
            </Td>
          )}
          {row.getVisibleCells().map((cell, index) => {
            const column = byId.get(cell.column.id)!;
            const content = column.cell(row.original, { row, index });
            const className = typeof column.className === "function" ? column.className(row.original) : column.className;
            return column.rowHeader ? (
              <Th key={cell.id} scope="row" className={className} data-testid={column.testId}>
                {content}
              </Th>
            ) : (
              <Td key={cell.id} className={className} data-testid={column.testId}>
                {content}
              </Td>
            );
          })}
        </Tr>
      );
    });

  const parts = (
    <>
      {head && (
        <THead role={groupRole} className={headClassName}>
          <tr role={rowRole}>
            {selection && (
              <Th className="w-10">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  aria-label={selection.allLabel}
                  checked={table.getIsAllPageRowsSelected()}
                  onChange={table.getToggleAllPageRowsSelectedHandler()}
                  disabled={data.length === 0}
                />
              </Th>
            )}
            {visibleColumns.map((tableColumn) => {
              const column = byId.get(tableColumn.id)!;
              const state = tableColumn.getIsSorted();
              return (
                <Th key={column.id} className={column.headerClassName} aria-sort={state === "asc" ? "ascending" : state === "desc" ? "descending" : undefined}>
                  {sorting && tableColumn.getCanSort() ? (
                    <Button variant="bare" onClick={tableColumn.getToggleSortingHandler()} className="inline-flex items-center gap-1 rounded hover:text-primary">
                      {column.header}
                      <SortIcon state={state} />
                    </Button>
                  ) : (
                    column.header
                  )}
                </Th>
              );
            })}
          </tr>
        </THead>
      )}
      <TBody role={groupRole} className={bodyClassName}>
        {body}
      </TBody>
    </>
  );

  const role = explicitRoles ? "table" : tableProps.role;
  if (frame === false)
    return (
      <PlainTable caption={caption} {...tableProps} role={role}>
        {parts}
      </PlainTable>
    );
  return (
    <Table caption={caption} busy={busy} {...tableProps} role={role}>
      {parts}
    </Table>
  );
}
