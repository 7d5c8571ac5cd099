import { Trans, useLingui } from "@lingui/react/macro";
import { plural } from "@lingui/core/macro";
import { ArrowDown, ArrowUp, ChevronDown, ChevronRight, Columns3, Eye, GripVertical, Pencil, Plus, RefreshCw, RotateCcw, Search, Trash2 } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState, type DragEvent } from "react";
import { useForm } from "react-hook-form";
import { formatTime } from "../../../shared/time.ts";
import { Auth, useAuth, type AuthNode } from "../../routing/auth.tsx";
import { useAdminInfo } from "../../stores/adminInfo.ts";
import { listViewKey, useListViews } from "../../stores/listViews.ts";
import { Button } from "../../ui/Button.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { controlClass } from "../../ui/form/Field.tsx";
import { Pager, pageCountOf } from "../../ui/Pager.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import {
  COLUMN_WIDTH_MAX,
  COLUMN_WIDTH_MIN,
  DataTable,
  type ColumnSizingState,
  type ColumnVisibilityState,
  type DataColumn,
  type DataRow,
  type RowSelectionState,
  type SortingState,
} from "../../ui/DataTable.tsx";
import { PAGE_SIZES, useCrudDelete, useCrudList, useCrudSort, type ListQuery } from "./api.ts";
import { BatchActions } from "./BatchActions.tsx";
import { CrudFormDialog } from "./CrudForm.tsx";
import { DetailDialog } from "./DetailDialog.tsx";
import { nestRows } from "./tree.ts";
import { RowActionButton, RowActionDialog, useRowActions } from "./RowActionDialog.tsx";
import { ToolbarActions } from "./ToolbarActions.tsx";
import { SearchForm } from "./SearchForm.tsx";
import { ALL_BUTTONS, type CrudColumn, type CrudDefinition, type CrudRow, type CrudRowAction } from "./types.ts";

/** "field,asc|desc" <-> TanStack's sorting state. */
export function sortingOf(order: string): SortingState {
  const [id, dir] = order.split(",");
  return id && (dir === "asc" || dir === "desc") ? [{ id, desc: dir === "desc" }] : [];
}
function orderOf(sorting: SortingState): string {
  const first = sorting[0];
  return first ? `${first.id},${first.desc ? "desc" : "asc"}` : "";
}

/** A column of words (not a number, date, tag or switch) other than the id: what can head a row's card. */
function isTextColumn(column: CrudColumn): boolean {
  return column.field !== "id" && (column.render ?? "text") === "text";
}

/** The fields in the order an admin left them: those still declared, then any new ones in their declared place. */
export function orderedFields(fields: string[], saved: unknown): string[] {
  const kept = Array.isArray(saved) ? saved.filter((f, i): f is string => typeof f === "string" && fields.includes(f) && saved.indexOf(f) === i) : [];
  return [...kept, ...fields.filter((f) => !kept.includes(f))];
}

/** The widths an admin gave columns still declared, within what a column can be. */
function keptWidths(fields: string[], saved: unknown): ColumnSizingState {
  if (!saved || typeof saved !== "object") return {};
  return Object.fromEntries(
    Object.entries(saved).filter(([f, w]) => fields.includes(f) && typeof w === "number" && w >= COLUMN_WIDTH_MIN && w <= COLUMN_WIDTH_MAX),
  ) as ColumnSizingState;
}

/** The row buttons' column: an id no field (an SQL column name) can have. */
const ACTIONS_COLUMN = "$actions";

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

  // The columns and page size this admin left this list with (stores/listViews.ts).
  const viewKey = listViewKey(useAdminInfo((s) => s.id), definition.path);
  const [saved] = useState(() => useListViews.getState().views[viewKey] ?? {});
  const saveView = useListViews((s) => s.save);
  const [query, setQuery] = useState<ListQuery>(() => ({
    page: 1,
    limit: saved.limit !== undefined && (PAGE_SIZES as readonly number[]).includes(saved.limit) ? saved.limit : (definition.pageSize ?? PAGE_SIZES[0]),
    order: definition.defaultOrder ?? "",
    quickSearch: "",
    search: [],
  }));
  const quick = useForm<{ text: string }>({ defaultValues: { text: "" } });
  const [visibility, setVisibility] = useState<ColumnVisibilityState>(() =>
    Object.fromEntries(definition.columns.map((c) => [c.field, typeof saved.columns?.[c.field] === "boolean" ? saved.columns[c.field]! : !c.hidden])),
  );
  const showColumn = (field: string, shown: boolean) => {
    setVisibility((v) => ({ ...v, [field]: shown }));
    saveView(viewKey, { columns: { ...useListViews.getState().views[viewKey]?.columns, [field]: shown } });
  };
  const fields = definition.columns.map((c) => c.field);
  const [order, setOrder] = useState<string[]>(() => orderedFields(fields, saved.order));
  const [widths, setWidths] = useState<ColumnSizingState>(() => keptWidths(fields, saved.widths));
  // The column menu's move button pressed last, focused again once the list is redrawn (a moved
  // row's button can lose focus as its element moves, or be disabled at the top or the bottom).
  const movedButton = useRef<{ field: string; step: -1 | 1 } | null>(null);
  const moveColumn = (field: string, step: -1 | 1) => {
    const from = order.indexOf(field);
    const to = from + step;
    if (from < 0 || to < 0 || to >= order.length) return;
    const next = [...order];
    [next[from], next[to]] = [next[to]!, next[from]!];
    movedButton.current = { field, step };
    setOrder(next);
    saveView(viewKey, { order: next });
  };
  const resizeColumn = (next: ColumnSizingState, done: boolean) => {
    setWidths(next);
    if (done) saveView(viewKey, { widths: next });
  };
  const resetColumns = () => {
    useListViews.getState().resetColumns(viewKey);
    setVisibility(Object.fromEntries(definition.columns.map((c) => [c.field, !c.hidden])));
    setOrder(fields);
    setWidths({});
  };
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [showSearch, setShowSearch] = useState(false);
  const [showColumns, setShowColumns] = useState(false);
  const [editing, setEditing] = useState<number | null | undefined>(undefined);
  const [viewing, setViewing] = useState<number | null>(null);
  const [confirmIds, setConfirmIds] = useState<number[] | null>(null);
  // The row being dragged: a ref, as the drop may come before a re-render.
  const dragged = useRef<number | null>(null);
  const columnsPanel = useId();
  useEffect(() => {
    const moved = movedButton.current;
    if (!moved) return;
    movedButton.current = null;
    const panel = document.getElementById(columnsPanel);
    const button = (step: number) => panel?.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(moved.field)}:${step}"]`);
    const same = button(moved.step);
    (same && !same.disabled ? same : button(-moved.step))?.focus();
  }, [order, columnsPanel]);

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

  const sorting = sortingOf(query.order);
  const selectedIds = Object.keys(selection)
    .filter((k) => selection[k])
    .map(Number);

  /** Keyboard reorder: swap with the previous / next row of the same parent (the order shown is the data's). */
  const moveBy = (row: DataRow<CrudRow>, step: -1 | 1) => {
    const parent = row.getParentRow();
    const siblings = parent ? parent.subRows.map((r) => r.original) : rows;
    const index = siblings.indexOf(row.original);
    const other = index < 0 ? undefined : siblings[index + step];
    if (other) sort.mutate({ id: row.original.id, targetId: other.id }, { onSuccess: changed });
  };

  const hasRowButtons = canEdit || canDelete || canSort || !!definition.detail || rowActions.length > 0;
  const title = i18n._(definition.title);
  const confirmCount = confirmIds?.length ?? 0;
  const DeleteNotice = definition.deleteNotice;

  // A phone's card is headed by the column the declaration names, else by the first text column shown.
  const cardTitle = (definition.columns.find((c) => c.card === "title" && visibility[c.field] !== false) ?? definition.columns.find((c) => isTextColumn(c) && visibility[c.field] !== false))?.field;
  const dataColumns = useMemo<DataColumn<CrudRow>[]>(
    () =>
      definition.columns.map((column) => ({
        id: column.field,
        header: i18n._(column.label),
        value: (row: CrudRow) => row[column.field],
        sortable: !!column.sortable,
        card: column.field === cardTitle ? "title" : column.field === "id" ? "subtitle" : undefined,
        cell: (original, { row, index, card }) => (
          // A card indents itself by depth; a table row indents its first cell.
          <span className="inline-flex items-center gap-1" style={index === 0 && definition.tree && !card ? { paddingInlineStart: `${row.depth * 1.25}rem` } : undefined}>
            {index === 0 && definition.tree && (row.getCanExpand() ? (
              <Button variant="ghost" size="iconSm" onClick={row.getToggleExpandedHandler()} aria-expanded={row.getIsExpanded()} aria-label={row.getIsExpanded() ? t`Collapse` : t`Expand`}>
                {row.getIsExpanded() ? <ChevronDown aria-hidden className="size-4" /> : <ChevronRight aria-hidden className="size-4" />}
              </Button>
            ) : (
              <span aria-hidden className="inline-block w-9" />
            ))}
            <CellValue column={column} row={original} />
          </span>
        ),
      })),
    [definition.columns, definition.tree, cardTitle, i18n, t],
  );
  const actionsColumn: DataColumn<CrudRow> = {
    id: ACTIONS_COLUMN,
    header: <Trans>Actions</Trans>,
    className: "whitespace-nowrap",
    card: "actions",
    resizable: false,
    cell: (original, { row, card }) => {
      const rowId = original.id;
      return (
        <span className={`flex items-center gap-1 ${card ? "flex-wrap justify-end" : ""}`}>
          {canSort && (
            <Button
              variant="ghost"
              size="icon"
              aria-label={t`Move row ${rowId} (arrow keys)`}
              onKeyDown={(e) => {
                if (e.key === "ArrowUp" || e.key === "ArrowDown") {
                  e.preventDefault();
                  moveBy(row, e.key === "ArrowUp" ? -1 : 1);
                }
              }}
              className="cursor-grab"
            >
              <GripVertical aria-hidden className="size-4" />
            </Button>
          )}
          {definition.detail && (
            <Button variant="ghost" size="icon" aria-label={t`View row ${rowId}`} onClick={() => setViewing(original.id)}>
              <Eye aria-hidden className="size-4" />
            </Button>
          )}
          {rowActions.map((action) => (
            <RowActionButton key={action.key} action={action} row={original} onOpen={() => setActing({ action, row: original })} />
          ))}
          {canEdit && (
            <Button variant="ghost" size="icon" aria-label={t`Edit row ${rowId}`} onClick={() => setEditing(original.id)}>
              <Pencil aria-hidden className="size-4" />
            </Button>
          )}
          {canDelete && (
            <Button variant="dangerGhost" size="icon" aria-label={t`Delete row ${rowId}`} onClick={() => setConfirmIds([original.id])}>
              <Trash2 aria-hidden className="size-4" />
            </Button>
          )}
        </span>
      );
    },
  };
  const columns = hasRowButtons ? [...dataColumns, actionsColumn] : dataColumns;

  const status =
    list.isError && !list.data
      ? {
          className: "px-3 py-8 text-center",
          content: (
            <>
              <p role="alert">
                <Trans>The list could not be loaded.</Trans>
              </p>
              <Button className="mt-2" onClick={() => void list.refetch()}>
                <Trans>Try again</Trans>
              </Button>
            </>
          ),
        }
      : !list.data
        ? { className: "py-8", content: <Spinner className="mx-auto size-8" /> }
        : null;

  /** A row's drag and drop, when rows can be reordered. */
  const rowProps = (original: CrudRow) => {
    const rowId = original.id;
    return {
      draggable: true,
      onDragStart: (e: DragEvent<HTMLElement>) => {
        dragged.current = rowId;
        // Firefox starts a drag only with data set.
        e.dataTransfer?.setData("text/plain", String(rowId));
      },
      onDragOver: (e: DragEvent<HTMLElement>) => e.preventDefault(),
      onDrop: (e: DragEvent<HTMLElement>) => {
        e.preventDefault();
        const from = dragged.current;
        dragged.current = null;
        if (from !== null && from !== rowId) sort.mutate({ id: from, targetId: rowId }, { onSuccess: changed });
      },
    };
  };

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
        <ToolbarActions definition={definition} query={query} />
        {/* On a phone the search box takes the line the buttons leave, beside the column and search-form buttons. */}
        <div className="ms-auto flex items-center gap-2 max-sm:w-full">
          {definition.quickSearch && (
            <form
              role="search"
              aria-label={t`Quick search`}
              className="max-sm:min-w-0 max-sm:flex-1"
              onSubmit={(e) => void quick.handleSubmit(({ text }) => change({ quickSearch: text }))(e)}
            >
              <input type="search" {...quick.register("text")} placeholder={i18n._(definition.quickSearch)} aria-label={i18n._(definition.quickSearch)} className={`${controlClass()} w-56 max-w-full max-sm:w-full`} />
            </form>
          )}
          {offered.has("columns") && (
            <div className="relative">
              <Button aria-label={t`Columns`} aria-expanded={showColumns} aria-controls={columnsPanel} onClick={() => setShowColumns((v) => !v)}>
                <Columns3 aria-hidden className="size-4" />
              </Button>
              {showColumns && (
                <fieldset id={columnsPanel} className="absolute end-0 z-20 mt-1 min-w-64 space-y-1 rounded-md border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-800">
                  <legend className="sr-only">{t`Columns`}</legend>
                  {order.map((field, index) => {
                    const column = definition.columns.find((c) => c.field === field)!;
                    const label = i18n._(column.label);
                    return (
                      <div key={field} className="flex items-center gap-1">
                        <label className="flex min-h-9 flex-1 items-center gap-2 px-1">
                          <input type="checkbox" className="size-4 accent-primary" checked={visibility[field] !== false} onChange={(e) => showColumn(field, e.target.checked)} />
                          {label}
                        </label>
                        <Button variant="ghost" size="iconSm" data-move={`${field}:-1`} aria-label={t`Move ${label} up`} disabled={index === 0} onClick={() => moveColumn(field, -1)}>
                          <ArrowUp aria-hidden className="size-4" />
                        </Button>
                        <Button variant="ghost" size="iconSm" data-move={`${field}:1`} aria-label={t`Move ${label} down`} disabled={index === order.length - 1} onClick={() => moveColumn(field, 1)}>
                          <ArrowDown aria-hidden className="size-4" />
                        </Button>
                      </div>
                    );
                  })}
                  <Button size="sm" onClick={resetColumns} className="mt-1 w-full">
                    <RotateCcw aria-hidden className="size-4" />
                    {t`Reset columns`}
                  </Button>
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

      <DataTable
        caption={title}
        busy={list.isFetching && !!list.data}
        data={rows}
        columns={columns}
        rowKey={(row) => row.id}
        subRows={definition.tree ? (row) => (Array.isArray(row.children) ? (row.children as CrudRow[]) : undefined) : undefined}
        columnVisibility={visibility}
        columnOrder={order}
        columnSizing={{ state: widths, onChange: resizeColumn }}
        sorting={{ state: sorting, onChange: (next: SortingState) => change({ order: orderOf(next) }) }}
        selection={canSelect ? { state: selection, onChange: setSelection, label: ({ id: rowId }) => t`Select row ${rowId}`, allLabel: t`Select all rows` } : undefined}
        rowProps={canSort ? rowProps : undefined}
        cards
        status={status}
        empty={{ content: <Trans>No data</Trans> }}
      />

      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600 dark:text-slate-300">{t`${plural(total, { one: "# record in total", other: "# records in total" })}`}</p>
        {!definition.tree && (
          <label className="flex items-center gap-2 text-sm whitespace-nowrap">
            <Trans>Rows per page</Trans>
            <select
              value={query.limit}
              onChange={(e) => {
                change({ limit: Number(e.target.value) });
                saveView(viewKey, { limit: Number(e.target.value) });
              }}
              className={`${controlClass()} w-24`}
            >
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
            {list.data?.recycle
              ? t`Delete ${plural(confirmCount, { one: "# row", other: "# rows" })}? They go to the recycle bin, where they can be restored.`
              : t`Delete ${plural(confirmCount, { one: "# row", other: "# rows" })}? This cannot be undone here.`}
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
