import { Trans, useLingui } from "@lingui/react/macro";
import { plural } from "@lingui/core/macro";
import {
  columnVisibilityFeature,
  createExpandedRowModel,
  rowExpandingFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ExpandedState,
  type RowSelectionState,
  type SortingState,
  type Updater,
  type ColumnVisibilityState,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronDown, ChevronRight, Columns3, Eye, GripVertical, Pencil, Plus, RefreshCw, Search, Trash2 } from "lucide-react";
import { useId, useMemo, useRef, useState, type ReactNode } from "react";
import { formatTime } from "../../../shared/time.ts";
import { Auth, useAuth, type AuthNode } from "../../routing/auth.tsx";
import { Button } from "../../ui/Button.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { controlClass } from "../../ui/form/Field.tsx";
import { Pager, pageCountOf } from "../../ui/Pager.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { Table, TBody, Td, Th, THead, Tr } from "../../ui/Table.tsx";
import { PAGE_SIZES, useCrudDelete, useCrudList, useCrudSort, type ListQuery } from "./api.ts";
import { BatchActions } from "./BatchActions.tsx";
import { CrudFormDialog } from "./CrudForm.tsx";
import { DetailDialog } from "./DetailDialog.tsx";
import { nestRows } from "./tree.ts";
import { RowActionButton, RowActionDialog, useRowActions } from "./RowActionDialog.tsx";
import { ToolbarActions } from "./ToolbarActions.tsx";
import { SearchForm } from "./SearchForm.tsx";
import { ALL_BUTTONS, type CrudColumn, type CrudDefinition, type CrudRow, type CrudRowAction } from "./types.ts";

const features = tableFeatures({
  rowSortingFeature,
  columnVisibilityFeature,
  rowSelectionFeature,
  rowExpandingFeature,
  expandedRowModel: createExpandedRowModel(),
});

const apply = <T,>(updater: Updater<T>, old: T): T => (typeof updater === "function" ? (updater as (old: T) => T)(old) : updater);

/** "field,asc|desc" <-> TanStack's sorting state. */
export function sortingOf(order: string): SortingState {
  const [id, dir] = order.split(",");
  return id && (dir === "asc" || dir === "desc") ? [{ id, desc: dir === "desc" }] : [];
}
function orderOf(sorting: SortingState): string {
  const first = sorting[0];
  return first ? `${first.id},${first.desc ? "desc" : "asc"}` : "";
}

/** The permission node of an action of this screen: the rule `<path>/<action>` under the screen's menu. */
export function actionNode(path: string, action: string): AuthNode {
  const base = `/admin/${path.replace(/^\/+|\/+$/g, "")}`;
  return { name: base, subNodeName: `${base}/${action}` };
}

function CellValue({ column, row }: { column: CrudColumn; row: CrudRow }) {
  const { t, i18n } = useLingui();
  if (column.cell) return <>{column.cell(row)}</>;
  const value = row[column.field];
  switch (column.render) {
    case "datetime":
      return <span className="whitespace-nowrap tabular-nums">{formatTime(value as number | string | null)}</span>;
    case "number":
      return <span className="tabular-nums">{value === null || value === undefined ? "" : String(value)}</span>;
    case "switch": {
      const on = value === 1 || value === "1" || value === true;
      return (
        <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${on ? "bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-200" : "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300"}`}>
          {on ? t`On` : t`Off`}
        </span>
      );
    }
    case "tag": {
      const option = column.options?.find((o) => String(o.value) === String(value));
      return <span className="inline-flex whitespace-nowrap rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium dark:bg-slate-800">{option ? i18n._(option.label) : String(value ?? "")}</span>;
    }
    default:
      return <>{value === null || value === undefined ? "" : String(value)}</>;
  }
}

/**
 * A back-office screen rendered from its definition: toolbar (refresh, add, batch delete, quick
 * search, columns, search form), the table (sort by header, selection, tree rows, reorder, row
 * buttons), paging; the add/edit form in a dialog. Every write button is shown only to admins
 * whose rules contain `<path>/<action>`; the server checks the same rule on each request.
 */
export function CrudScreen({ definition }: { definition: CrudDefinition }) {
  const { t, i18n } = useLingui();
  const { path } = definition;
  const offered = new Set(definition.buttons ?? ALL_BUTTONS);
  const hasForm = (definition.form?.length ?? 0) > 0;
  const canDelete = useAuth(actionNode(path, "del")) && offered.has("delete");
  const canEdit = useAuth(actionNode(path, "edit")) && offered.has("edit") && hasForm;
  const canSort = useAuth(actionNode(path, "sortable")) && offered.has("sortable") && !!definition.sortable;
  const batchActions = definition.batchActions ?? [];
  /** Rows can be selected for a batch delete or a batch action. */
  const canSelect = canDelete || batchActions.length > 0;
  const rowActions = useRowActions(definition);
  const [acting, setActing] = useState<{ action: CrudRowAction; row: CrudRow } | null>(null);

  const [query, setQuery] = useState<ListQuery>({ page: 1, limit: definition.pageSize ?? PAGE_SIZES[0], order: definition.defaultOrder ?? "", quickSearch: "", search: [] });
  const [quickText, setQuickText] = useState("");
  const [visibility, setVisibility] = useState<ColumnVisibilityState>(() => Object.fromEntries(definition.columns.map((c) => [c.field, !c.hidden])));
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const [showSearch, setShowSearch] = useState(false);
  const [showColumns, setShowColumns] = useState(false);
  const [editing, setEditing] = useState<number | null | undefined>(undefined);
  const [viewing, setViewing] = useState<number | null>(null);
  const [confirmIds, setConfirmIds] = useState<number[] | null>(null);
  // The row being dragged: a ref, as the drop may come before a re-render.
  const dragged = useRef<number | null>(null);
  const columnsPanel = useId();

  // A tree lists all its rows (no pages), so branches stay whole.
  const list = useCrudList(path, query, !!definition.tree);
  const remove = useCrudDelete(path);
  const sort = useCrudSort(path);
  // A tree's rows come flat with `pid`: nested here (a row whose parent is not on the page is a root).
  const rows = useMemo(() => (definition.tree ? nestRows(list.data?.list ?? []) : (list.data?.list ?? [])), [list.data, definition.tree]);
  const changed = () => void definition.afterChange?.();
  const total = list.data?.total ?? 0;
  // Past the last page (its rows were deleted, or the total shrank): go to the last one.
  const lastPage = pageCountOf(total, query.limit);
  if (!definition.tree && list.data && !list.isPlaceholderData && query.page > lastPage) setQuery((q) => ({ ...q, page: lastPage }));

  const change = (part: Partial<ListQuery>) => {
    setQuery((q) => ({ ...q, page: 1, ...part }));
    setSelection({});
  };

  const columns = useMemo<ColumnDef<typeof features, CrudRow>[]>(
    () =>
      definition.columns.map((column) => ({
        id: column.field,
        accessorFn: (row: CrudRow) => row[column.field],
        header: () => i18n._(column.label),
        enableSorting: !!column.sortable,
        enableHiding: true,
      })),
    [definition.columns, i18n],
  );

  const sorting = sortingOf(query.order);
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => String(row.id),
    getSubRows: definition.tree ? (row) => (Array.isArray(row.children) ? (row.children as CrudRow[]) : undefined) : undefined,
    manualSorting: true,
    enableMultiSort: false,
    state: { sorting, columnVisibility: visibility, rowSelection: selection, expanded },
    onSortingChange: (updater) => change({ order: orderOf(apply(updater, sorting)) }),
    onColumnVisibilityChange: (updater) => setVisibility((v) => apply(updater, v)),
    onRowSelectionChange: (updater) => setSelection((s) => apply(updater, s)),
    onExpandedChange: (updater) => setExpanded((e) => apply(updater, e)),
    enableSubRowSelection: false,
  });

  const visibleRows = table.getRowModel().rows;
  const selectedIds = Object.keys(selection)
    .filter((k) => selection[k])
    .map(Number);
  const columnById = new Map(definition.columns.map((c) => [c.field, c]));

  /** Keyboard reorder: swap with the previous / next row of the same parent. */
  const moveBy = (rowId: string, step: -1 | 1) => {
    const index = visibleRows.findIndex((r) => r.id === rowId);
    const row = visibleRows[index];
    if (!row) return;
    for (let i = index + step; i >= 0 && i < visibleRows.length; i += step) {
      const other = visibleRows[i]!;
      if (other.depth < row.depth) return;
      if (other.depth === row.depth && other.parentId === row.parentId) {
        sort.mutate({ id: row.original.id, targetId: other.original.id }, { onSuccess: changed });
        return;
      }
    }
  };

  const sortIcon = (state: false | "asc" | "desc") => (state === "asc" ? <ArrowUp aria-hidden className="size-4" /> : state === "desc" ? <ArrowDown aria-hidden className="size-4" /> : <ArrowUpDown aria-hidden className="size-4 opacity-40" />);
  const hasRowButtons = canEdit || canDelete || canSort || !!definition.detail || rowActions.length > 0;
  const visibleColumnCount = table.getVisibleLeafColumns().length + (canSelect ? 1 : 0) + (hasRowButtons ? 1 : 0);
  const title = i18n._(definition.title);
  const confirmCount = confirmIds?.length ?? 0;
  const DeleteNotice = definition.deleteNotice;

  let body: ReactNode;
  if (list.isError && !list.data) {
    body = (
      <tr>
        <td colSpan={visibleColumnCount} className="px-3 py-8 text-center">
          <p role="alert">
            <Trans>The list could not be loaded.</Trans>
          </p>
          <Button className="mt-2" onClick={() => void list.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </td>
      </tr>
    );
  } else if (!list.data) {
    body = (
      <tr>
        <td colSpan={visibleColumnCount} className="py-8">
          <Spinner className="mx-auto size-8" />
        </td>
      </tr>
    );
  } else if (visibleRows.length === 0) {
    body = (
      <tr>
        <td colSpan={visibleColumnCount} className="px-3 py-8 text-center text-slate-500 dark:text-slate-400">
          <Trans>No data</Trans>
        </td>
      </tr>
    );
  } else {
    body = visibleRows.map((row) => {
      const rowId = row.original.id;
      return (
        <Tr
          key={row.id}
          draggable={canSort || undefined}
          onDragStart={
              canSort
                ? (e) => {
                    dragged.current = rowId;
                    // Firefox starts a drag only with data set.
                    e.dataTransfer?.setData("text/plain", String(rowId));
                  }
                : undefined
            }
          onDragOver={canSort ? (e) => e.preventDefault() : undefined}
          onDrop={
            canSort
              ? (e) => {
                  e.preventDefault();
                  const from = dragged.current;
                  dragged.current = null;
                  if (from !== null && from !== rowId) sort.mutate({ id: from, targetId: rowId }, { onSuccess: changed });
                }
              : undefined
          }
          className={row.getIsSelected() ? "bg-primary/5" : ""}
        >
          {canSelect && (
            <Td className="w-10">
              <input type="checkbox" className="size-4 accent-primary" aria-label={t`Select row ${rowId}`} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
            </Td>
          )}
          {row.getVisibleCells().map((cell, i) => {
            const column = columnById.get(cell.column.id)!;
            return (
              <Td key={cell.id}>
                <span className="inline-flex items-center gap-1" style={i === 0 && definition.tree ? { paddingInlineStart: `${row.depth * 1.25}rem` } : undefined}>
                  {i === 0 && definition.tree && (row.getCanExpand() ? (
                    <Button variant="ghost" size="iconSm" onClick={row.getToggleExpandedHandler()} aria-expanded={row.getIsExpanded()} aria-label={row.getIsExpanded() ? t`Collapse` : t`Expand`}>
                      {row.getIsExpanded() ? <ChevronDown aria-hidden className="size-4" /> : <ChevronRight aria-hidden className="size-4" />}
                    </Button>
                  ) : (
                    <span aria-hidden className="inline-block w-9" />
                  ))}
                  <CellValue column={column} row={row.original} />
                </span>
              </Td>
            );
          })}
          {hasRowButtons && (
            <Td className="whitespace-nowrap">
              <span className="flex items-center gap-1">
                {canSort && (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t`Move row ${rowId} (arrow keys)`}
                    onKeyDown={(e) => {
                      if (e.key === "ArrowUp" || e.key === "ArrowDown") {
                        e.preventDefault();
                        moveBy(row.id, e.key === "ArrowUp" ? -1 : 1);
                      }
                    }}
                    className="cursor-grab"
                  >
                    <GripVertical aria-hidden className="size-4" />
                  </Button>
                )}
                {definition.detail && (
                  <Button variant="ghost" size="icon" aria-label={t`View row ${rowId}`} onClick={() => setViewing(row.original.id)}>
                    <Eye aria-hidden className="size-4" />
                  </Button>
                )}
                {rowActions.map((action) => (
                  <RowActionButton key={action.key} action={action} row={row.original} onOpen={() => setActing({ action, row: row.original })} />
                ))}
                {canEdit && (
                  <Button variant="ghost" size="icon" aria-label={t`Edit row ${rowId}`} onClick={() => setEditing(row.original.id)}>
                    <Pencil aria-hidden className="size-4" />
                  </Button>
                )}
                {canDelete && (
                  <Button variant="dangerGhost" size="icon" aria-label={t`Delete row ${rowId}`} onClick={() => setConfirmIds([row.original.id])}>
                    <Trash2 aria-hidden className="size-4" />
                  </Button>
                )}
              </span>
            </Td>
          )}
        </Tr>
      );
    });
  }

  return (
    <section className="space-y-4 p-4">
      <h1 className="text-xl font-semibold">{title}</h1>
      {list.data?.remark && <p className="text-sm text-slate-600 dark:text-slate-300">{list.data.remark}</p>}

      <div className="flex flex-wrap items-center gap-2">
        {offered.has("refresh") && (
          <Button aria-label={t`Refresh`} onClick={() => void list.refetch()} disabled={list.isFetching}>
            <RefreshCw aria-hidden className={`size-4 ${list.isFetching ? "animate-spin" : ""}`} />
          </Button>
        )}
        {offered.has("add") && hasForm && (
          <Auth node={actionNode(path, "add")}>
            <Button variant="primary" onClick={() => setEditing(null)}>
              <Plus aria-hidden className="size-4" />
              <Trans>Add</Trans>
            </Button>
          </Auth>
        )}
        {canDelete && (
          <Button variant="danger" disabled={selectedIds.length === 0} onClick={() => setConfirmIds(selectedIds)}>
            <Trash2 aria-hidden className="size-4" />
            <Trans>Delete</Trans>
          </Button>
        )}
        {batchActions.length > 0 && <BatchActions path={path} actions={batchActions} ids={selectedIds} onDone={() => setSelection({})} />}
        {definition.toolbarActions && <ToolbarActions definition={definition} />}
        <div className="ms-auto flex flex-wrap items-center gap-2">
          {definition.quickSearch && (
            <form
              role="search"
              aria-label={t`Quick search`}
              onSubmit={(e) => {
                e.preventDefault();
                change({ quickSearch: quickText });
              }}
            >
              <input type="search" value={quickText} onChange={(e) => setQuickText(e.target.value)} placeholder={i18n._(definition.quickSearch)} aria-label={i18n._(definition.quickSearch)} className={`${controlClass()} w-56 max-w-full`} />
            </form>
          )}
          {offered.has("columns") && (
            <div className="relative">
              <Button aria-label={t`Columns`} aria-expanded={showColumns} aria-controls={columnsPanel} onClick={() => setShowColumns((v) => !v)}>
                <Columns3 aria-hidden className="size-4" />
              </Button>
              {showColumns && (
                <fieldset id={columnsPanel} className="absolute end-0 z-20 mt-1 min-w-48 space-y-1 rounded-md border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-800">
                  <legend className="sr-only">{t`Columns`}</legend>
                  {table.getAllLeafColumns().map((column) => (
                    <label key={column.id} className="flex min-h-9 items-center gap-2 px-1">
                      <input type="checkbox" className="size-4 accent-primary" checked={column.getIsVisible()} onChange={column.getToggleVisibilityHandler()} />
                      {i18n._(columnById.get(column.id)!.label)}
                    </label>
                  ))}
                </fieldset>
              )}
            </div>
          )}
          {offered.has("search") && definition.columns.some((c) => c.search) && (
            <Button aria-label={t`Search form`} aria-expanded={showSearch} onClick={() => setShowSearch((v) => !v)}>
              <Search aria-hidden className="size-4" />
            </Button>
          )}
        </div>
      </div>

      {showSearch && <SearchForm columns={definition.columns} onSearch={(search) => change({ search })} />}

      <Table caption={title} busy={list.isFetching && !!list.data}>
        <THead>
          <tr>
            {canSelect && (
              <Th className="w-10">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  aria-label={t`Select all rows`}
                  checked={table.getIsAllPageRowsSelected()}
                  onChange={table.getToggleAllPageRowsSelectedHandler()}
                  disabled={rows.length === 0}
                />
              </Th>
            )}
            {table.getFlatHeaders().filter((h) => h.column.getIsVisible()).map((header) => {
              const label = i18n._(columnById.get(header.column.id)!.label);
              const state = header.column.getIsSorted();
              return (
                <Th key={header.id} aria-sort={state === "asc" ? "ascending" : state === "desc" ? "descending" : undefined}>
                  {header.column.getCanSort() ? (
                    <Button variant="bare" onClick={header.column.getToggleSortingHandler()} className="inline-flex items-center gap-1 rounded hover:text-primary">
                      {label}
                      {sortIcon(state)}
                    </Button>
                  ) : (
                    label
                  )}
                </Th>
              );
            })}
            {hasRowButtons && (
              <Th>
                <Trans>Actions</Trans>
              </Th>
            )}
          </tr>
        </THead>
        <TBody>{body}</TBody>
      </Table>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600 dark:text-slate-300">{t`${plural(total, { one: "# record in total", other: "# records in total" })}`}</p>
        {!definition.tree && (
          <label className="flex items-center gap-2 text-sm whitespace-nowrap">
            <Trans>Rows per page</Trans>
            <select value={query.limit} onChange={(e) => change({ limit: Number(e.target.value) })} className={`${controlClass()} w-24`}>
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
        )}
        {!definition.tree && <Pager page={query.page} pageCount={pageCountOf(total, query.limit)} onPage={(page) => setQuery((q) => ({ ...q, page }))} className="w-full sm:w-auto" />}
      </div>

      {acting && <RowActionDialog action={acting.action} row={acting.row} onClose={() => setActing(null)} />}
      {editing !== undefined && <CrudFormDialog definition={definition} id={editing} onClose={() => setEditing(undefined)} />}
      {viewing !== null && <DetailDialog definition={definition} id={viewing} onClose={() => setViewing(null)} />}
      <ConfirmDialog
        open={confirmIds !== null}
        onOpenChange={(open) => !open && setConfirmIds(null)}
        title={t`Delete`}
        description={
          <>
            {t`Delete ${plural(confirmCount, { one: "# row", other: "# rows" })}? This cannot be undone here.`}
            {DeleteNotice && confirmIds && confirmIds.length > 0 && (
              <span className="mt-2 block">
                <DeleteNotice ids={confirmIds} />
              </span>
            )}
          </>
        }
        confirmLabel={t`Delete`}
        busy={remove.isPending}
        onConfirm={() => {
          const ids = confirmIds ?? [];
          remove.mutate(ids, {
            onSuccess: () => {
              setSelection({});
              changed();
            },
            onSettled: () => setConfirmIds(null),
          });
        }}
      />
    </section>
  );
}

/** A registry entry for a definition: the screen's chunk loads the definition and renders it. */
export default CrudScreen;
