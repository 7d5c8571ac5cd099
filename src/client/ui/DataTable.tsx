import {
  columnOrderingFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  createExpandedRowModel,
  functionalUpdate,
  rowExpandingFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnOrderState,
  type ColumnSizingState,
  type ColumnVisibilityState,
  type ExpandedState,
  type Row,
  type RowData,
  type RowSelectionState,
  type SortingState,
} from "@tanstack/react-table";
import { useLingui } from "@lingui/react/macro";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type HTMLAttributes, type KeyboardEvent, type PointerEvent, type ReactNode, type TableHTMLAttributes } from "react";
import { Button } from "./Button.tsx";
import { PlainTable, Table, TBody, Td, Th, THead, Tr } from "./Table.tsx";
import { SMALL_SCREEN, useMediaQuery } from "./useMediaQuery.ts";

const features = tableFeatures({
  rowSortingFeature,
  columnVisibilityFeature,
  columnOrderingFeature,
  columnSizingFeature,
  rowSelectionFeature,
  rowExpandingFeature,
  expandedRowModel: createExpandedRowModel(),
});

/** A row as TanStack Table holds it: its data (`original`), depth, parent, selection and expansion. */
export type DataRow<T extends RowData> = Row<typeof features, T>;
export type { SortingState, RowSelectionState, ColumnVisibilityState, ColumnOrderState, ColumnSizingState };

/** The narrowest and widest a column can be made (px, its padding included). */
export const COLUMN_WIDTH_MIN = 48;
export const COLUMN_WIDTH_MAX = 1200;
/** A cell's padding across (Th/Td's px-3): a column's width less this is its content's. */
const CELL_PADDING = 24;
/** One press of an arrow key on a column's resize handle. */
const RESIZE_STEP = 16;

export interface DataCellContext<T extends RowData> {
  row: DataRow<T>;
  /** The cell's place among the visible columns (0: the first one shown; in a card, its title). */
  index: number;
  /** The cell is drawn in a row's card (`cards` on a small screen), not in a table row. */
  card: boolean;
}

/**
 * A column's place in a row's card: "title" heads the card, "subtitle" joins the muted line
 * under it (label and value side by side), "actions" sits at the card's foot without a label,
 * "hidden" is left out; any other column is a label above its value.
 */
export type CardPlace = "title" | "subtitle" | "actions" | "hidden";

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
  /** Its place in a row's card (see `CardPlace`); without a title, the first column shown heads the card. */
  card?: CardPlace;
  /** `false`: no resize handle (with `columnSizing` given), for a column of buttons. */
  resizable?: boolean;
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
    /** A row's own attributes (a class, drag and drop), on its table row or its card. */
    rowProps?: (row: T, tableRow: DataRow<T>) => HTMLAttributes<HTMLElement>;
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
    /** The columns' order by id (columns not named follow, in their own order). A card keeps it too. */
    columnOrder?: ColumnOrderState;
    /**
     * Column widths by id (px) and resize handles on the headers (drag, or the arrow keys on the
     * focused handle); `done` is false while a drag goes on. A column not in the state takes the
     * width its content gives it. Cards (a phone) have no widths.
     */
    columnSizing?: { state: ColumnSizingState; onChange: (next: ColumnSizingState, done: boolean) => void };
    /** Rows nested under a row (a tree): expanded and collapsed by the table. */
    subRows?: (row: T) => T[] | undefined;
    /**
     * On a small screen (useMediaQuery's SMALL_SCREEN), each row as a card in a list instead of
     * a table row: a phone cannot show a wide list's columns side by side without squeezing its
     * text to a few letters or pushing the row's buttons out of sight.
     */
    cards?: boolean;
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
    columnOrder,
    columnSizing,
    subRows,
    cards = false,
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
        minSize: COLUMN_WIDTH_MIN,
        maxSize: COLUMN_WIDTH_MAX,
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
      ...(columnOrder ? { columnOrder } : {}),
      ...(columnSizing ? { columnSizing: columnSizing.state } : {}),
    },
    onExpandedChange: (updater) => setExpanded((old) => functionalUpdate(updater, old)),
    onSortingChange: sorting ? (updater) => sorting.onChange(functionalUpdate(updater, sorting.state)) : undefined,
    onRowSelectionChange: selection ? (updater) => selection.onChange(functionalUpdate(updater, selection.state)) : undefined,
  });

  const byId = new Map(columns.map((c) => [c.id, c]));
  const visibleColumns = table.getVisibleLeafColumns();
  const span = visibleColumns.length + (selection ? 1 : 0);
  const rows = table.getRowModel().rows;
  const small = useMediaQuery(SMALL_SCREEN);
  const rowRole = explicitRoles ? "row" : undefined;
  /** The width the admin gave a column, if any (its column's size once set). */
  const widthOf = (id: string): number | undefined => (columnSizing && columnSizing.state[id] !== undefined ? table.getColumn(id)?.getSize() : undefined);
  /**
   * A sized column's content in a box of its width: a table cell's own width is only a minimum
   * to the browser, so a column made narrower than its text would not shrink without it.
   */
  const fitted = (id: string, content: ReactNode) => {
    const width = widthOf(id);
    return width === undefined ? content : (
      <div style={{ width: width - CELL_PADDING }} className="overflow-hidden break-words">
        {content}
      </div>
    );
  };
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
            const content = fitted(cell.column.id, column.cell(row.original, { row, index, card: false }));
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

  if (cards && small)
    return (
      <CardList
        caption={caption}
        busy={busy}
        rows={rows}
        columns={visibleColumns.map((c) => byId.get(c.id)!)}
        rowProps={rowProps}
        status={status}
        empty={empty}
        skeleton={skeleton}
        selection={
          selection && {
            allLabel: selection.allLabel,
            label: selection.label,
            allChecked: table.getIsAllPageRowsSelected(),
            onAll: table.getToggleAllPageRowsSelectedHandler(),
            disabled: data.length === 0,
          }
        }
      />
    );

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
              const resizable = !!columnSizing && column.resizable !== false;
              const width = widthOf(column.id);
              const heading =
                sorting && tableColumn.getCanSort() ? (
                  <Button variant="bare" onClick={tableColumn.getToggleSortingHandler()} className="inline-flex max-w-full items-center gap-1 rounded hover:text-primary">
                    {column.header}
                    <SortIcon state={state} />
                  </Button>
                ) : (
                  column.header
                );
              return (
                <Th
                  key={column.id}
                  className={`${column.headerClassName ?? ""}${resizable ? " relative" : ""}`.trim() || undefined}
                  aria-sort={state === "asc" ? "ascending" : state === "desc" ? "descending" : undefined}
                  // The header's name is its heading alone, not the resize handle's label too.
                  aria-label={resizable && typeof column.header === "string" ? column.header : undefined}
                  style={width === undefined ? undefined : { width }}
                >
                  {width === undefined ? heading : <div style={{ width: width - CELL_PADDING }} className="overflow-hidden text-ellipsis">{heading}</div>}
                  {resizable && (
                    <ResizeHandle
                      name={typeof column.header === "string" ? column.header : column.id}
                      width={width}
                      onResize={(next, done) => columnSizing.onChange({ ...columnSizing.state, [column.id]: next }, done)}
                    />
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

const clampWidth = (width: number) => Math.round(Math.min(COLUMN_WIDTH_MAX, Math.max(COLUMN_WIDTH_MIN, width)));

/**
 * The grip at a header's end edge that sets its column's width: dragged with a mouse, a pen or a
 * finger, or focused and moved with the arrow keys (a splitter, as ARIA has it). A column never
 * resized starts from the width it is drawn at.
 */
function ResizeHandle({ name, width, onResize }: { name: string; width: number | undefined; onResize: (width: number, done: boolean) => void }) {
  const { t } = useLingui();
  const ref = useRef<HTMLSpanElement>(null);
  const drawnWidth = (handle: HTMLElement) => width ?? Math.round(handle.parentElement?.getBoundingClientRect().width ?? COLUMN_WIDTH_MIN);
  // A splitter says its value: the width set, or the one the column is drawn at (read after layout).
  useLayoutEffect(() => {
    if (ref.current) ref.current.setAttribute("aria-valuenow", String(drawnWidth(ref.current)));
  });
  const style: CSSProperties = { touchAction: "none" };
  return (
    <span
      ref={ref}
      role="separator"
      aria-orientation="vertical"
      aria-label={t`Column width: ${name}`}
      aria-valuemin={COLUMN_WIDTH_MIN}
      aria-valuemax={COLUMN_WIDTH_MAX}
      tabIndex={0}
      style={style}
      {...useResizeGestures(drawnWidth, onResize)}
      className="absolute inset-y-0 end-0 z-10 w-3 cursor-col-resize outline-none after:absolute after:inset-y-2 after:start-1/2 after:w-0.5 after:-translate-x-1/2 after:rounded after:bg-slate-300 hover:after:bg-primary focus-visible:after:bg-primary focus-visible:after:w-1 dark:after:bg-slate-600"
    />
  );
}

/**
 * The grip's gestures: a drag (pointer captured, so it follows outside the grip) sets the width
 * as it moves and once more, done, when let go or cancelled; the arrow keys move it a step.
 * `drawnWidth` is where a gesture starts from.
 */
function useResizeGestures(drawnWidth: (handle: HTMLElement) => number, onResize: (width: number, done: boolean) => void) {
  const drag = useRef<{ x: number; width: number; last: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const start = drawnWidth(e.currentTarget);
    drag.current = { x: e.clientX, width: start, last: start };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d) return;
    d.last = clampWidth(d.width + e.clientX - d.x);
    onResize(d.last, false);
  };
  const onPointerUp = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d) return;
    drag.current = null;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
    onResize(d.last, true);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const step = e.key === "ArrowRight" ? RESIZE_STEP : e.key === "ArrowLeft" ? -RESIZE_STEP : 0;
    if (!step) return;
    e.preventDefault();
    onResize(clampWidth(drawnWidth(e.currentTarget) + step), true);
  };
  return { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp, onKeyDown };
}

const CARD_CLASS = "rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900";

/**
 * The rows of a DataTable as a list of cards (a phone): the title column heads each card (a
 * tree's rows indented by depth), the subtitle columns share a muted line under it, the other
 * columns are labels above values two to a line, and the actions column ends the card, its
 * buttons always in view. A row's checkbox sits beside its title; the select-all checkbox,
 * which a table keeps in its header, goes above the list with its label written out.
 */
function CardList<T extends RowData>({
  caption,
  busy,
  rows,
  columns,
  rowProps,
  status,
  empty,
  skeleton,
  selection,
}: {
  caption?: ReactNode;
  busy?: boolean;
  rows: DataRow<T>[];
  columns: DataColumn<T>[];
  rowProps?: DataTableProps<T>["rowProps"];
  status?: TableMessage | null;
  empty?: TableMessage;
  skeleton?: { rows: number; testId?: string };
  selection?: { allLabel: string; label: (row: T) => string; allChecked: boolean; onAll: (e: unknown) => void; disabled: boolean };
}) {
  const shown = columns.filter((c) => c.card !== "hidden");
  const title = shown.find((c) => c.card === "title") ?? shown.find((c) => c.card !== "actions" && c.card !== "subtitle") ?? shown[0];
  const subtitles = shown.filter((c) => c !== title && c.card === "subtitle");
  const actions = shown.filter((c) => c !== title && c.card === "actions");
  const lines = shown.filter((c) => c !== title && !subtitles.includes(c) && !actions.includes(c));
  // The title first: a cell that draws a tree's toggle in the first column draws it there.
  const order = [title, ...subtitles, ...lines, ...actions].filter((c): c is DataColumn<T> => !!c);
  const label = typeof caption === "string" ? caption : undefined;

  const message = (m: TableMessage) => <div className={`${CARD_CLASS} ${m.className ?? MESSAGE_CLASS}`}>{m.content}</div>;
  const classOf = (column: DataColumn<T>, row: T) => (typeof column.className === "function" ? column.className(row) : column.className) ?? "";

  let body: ReactNode;
  if (status) body = message(status);
  else if (rows.length === 0 && skeleton)
    body = Array.from({ length: skeleton.rows }, (_, i) => (
      <div key={i} data-testid={skeleton.testId} className={`${CARD_CLASS} space-y-2`}>
        <span className="block h-4 w-3/4 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
        <span className="block h-4 w-1/2 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
      </div>
    ));
  else if (rows.length === 0) body = empty ? message(empty) : null;
  else
    body = (
      <ul aria-label={label} className="space-y-2">
        {rows.map((row) => {
          const extra = rowProps?.(row.original, row) ?? {};
          const selected = !!selection && row.getIsSelected();
          const cellOf = (column: DataColumn<T>) => column.cell(row.original, { row, index: order.indexOf(column), card: true });
          return (
            <li
              key={row.id}
              {...extra}
              style={{ ...extra.style, marginInlineStart: row.depth ? `${row.depth * 1}rem` : undefined }}
              className={`${CARD_CLASS} ${selected ? "border-primary/60 bg-primary/5 dark:bg-primary/10" : ""} ${extra.className ?? ""}`}
            >
              <div className="flex items-start gap-1">
                {selection && (
                  // The label widens the checkbox's touch target to 44 px without growing the box.
                  <label className="-m-1.5 flex size-11 shrink-0 cursor-pointer items-center justify-center">
                    <input type="checkbox" className="size-5 accent-primary" aria-label={selection.label(row.original)} checked={selected} onChange={row.getToggleSelectedHandler()} />
                  </label>
                )}
                <div className="min-w-0 flex-1 pt-0.5">
                  {title && <div className={`font-medium break-words ${classOf(title, row.original)}`}>{cellOf(title)}</div>}
                  {subtitles.length > 0 && (
                    <p className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
                      {subtitles.map((column) => (
                        <span key={column.id} className="inline-flex items-center gap-1">
                          <span>{column.header}</span>
                          <span className={classOf(column, row.original)}>{cellOf(column)}</span>
                        </span>
                      ))}
                    </p>
                  )}
                </div>
              </div>
              {lines.length > 0 && (
                <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
                  {lines.map((column) => (
                    <div key={column.id} className="min-w-0">
                      <dt className="text-xs text-slate-600 dark:text-slate-300">{column.header}</dt>
                      <dd className="break-words">{cellOf(column)}</dd>
                    </div>
                  ))}
                </dl>
              )}
              {actions.map((column) => (
                <div key={column.id} className="mt-2 flex justify-end border-t border-slate-100 pt-2 dark:border-slate-800">
                  {cellOf(column)}
                </div>
              ))}
            </li>
          );
        })}
      </ul>
    );

  return (
    <div role={label ? "region" : undefined} aria-label={label} aria-busy={busy || undefined} className={`space-y-2 ${busy ? "opacity-60" : ""}`}>
      {selection && (
        <label className="flex min-h-11 w-fit cursor-pointer items-center gap-3 px-3 text-sm">
          <input type="checkbox" className="size-5 accent-primary" checked={selection.allChecked} onChange={selection.onAll} disabled={selection.disabled} />
          {selection.allLabel}
        </label>
      )}
      {body}
    </div>
  );
}
