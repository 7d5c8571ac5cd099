import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Download, FileUp, Pencil, Play, Plus, Table2, Trash2, X } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import {
  controlsOf,
  designProblem,
  emptyDesign,
  FIELD_TYPES,
  genDesign,
  INDEX_KINDS,
  newField,
  searchOpsOf,
  type DesignRow,
  type GenDesign,
  type GenField,
  type GenFieldType,
  type GeneratePlan,
} from "../../../shared/admin/codegen.ts";
import { formatTime } from "../../../shared/time.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { FileUploadButton } from "../../ui/FileUploadButton.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { useConfirmDiscard, useDirtyForm } from "../../ui/discardGuard.tsx";
import { DropDataConfirm } from "../DropDataConfirm.tsx";
import { UploadFailure } from "../UploadFailure.tsx";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { DataTable } from "../../ui/DataTable.tsx";
import { PlainTable } from "../../ui/Table.tsx";
import { reloadAdminMenus } from "../session.ts";
import { definitionOf } from "./definition.ts";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { PageHeader } from "../../ui/PageTitle.tsx";

/**
 * The code generator (`crud/crud`, super admins only): the designs, and the designer of one —
 * table name and title, fields (type, length, default, comment, index, form control, list
 * column and search), quick search, reordering, recycle bin and sensitive fields —, a preview of
 * its list and form and of the SQL, then "Generate": the server creates or changes the table and
 * the screen appears in the side menu at once. A design may start from an existing table, be
 * exported as JSON and imported again.
 */

const KEY = ["admin", "codegen", "designs"] as const;
/** The list preview's rows: none, it shows the columns. */
const NO_ROWS: { id: number }[] = [];

const TYPE_LABELS: Record<GenFieldType, MessageDescriptor> = {
  string: msg`Short text`,
  text: msg`Long text`,
  int: msg`Integer`,
  bigint: msg`Big integer`,
  decimal: msg`Decimal`,
  bool: msg`Yes / no`,
  datetime: msg`Date and time`,
  enum: msg`Choice`,
};
const CONTROL_LABELS: Record<GenField["form"], MessageDescriptor> = {
  text: msg`Text input`,
  textarea: msg`Text area`,
  number: msg`Number input`,
  switch: msg`Switch`,
  select: msg`Drop-down`,
  radio: msg`Radio buttons`,
  datetime: msg`Date-time picker`,
  none: msg`Not in the form`,
};
const SEARCH_LABELS: Record<GenField["search"], MessageDescriptor> = {
  none: msg`Not searched`,
  eq: msg`Equals`,
  LIKE: msg`Contains`,
  RANGE: msg`Between`,
};
const INDEX_LABELS: Record<GenField["index"], MessageDescriptor> = { none: msg`None`, index: msg`Index`, unique: msg`Unique` };

interface Editing {
  /** Keeps the designer mounted while a design it opened is generated (its id set). */
  key: string;
  id: number | null;
  status: "draft" | "generated" | "new";
  design: GenDesign;
}

/** The headings of the field table's columns, in order (the last, the row's actions, is named for screen readers only). */
const FIELD_COLUMNS: MessageDescriptor[] = [
  msg`Name`,
  msg`Type`,
  msg`Length / digits`,
  msg`Default`,
  msg`Comment (label)`,
  msg`Index`,
  msg`Form control`,
  msg`Search`,
  msg`Options`,
];

/** A field whose type changed keeps a control and search that fit the new type. */
function retype(field: GenField, type: GenFieldType): GenField {
  const controls = controlsOf(type);
  const ops = searchOpsOf(type);
  return {
    ...field,
    type,
    form: controls[0]!,
    search: ops.includes(field.search) ? field.search : "none",
    default: "",
    options: type === "enum" ? field.options : [],
  };
}

export default function CodeGenerator() {
  const { t } = useLingui();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<DesignRow | null>(null);
  const [dropTable, setDropTable] = useState(false);
  const designs = useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) => (await request<{ list: DesignRow[] }>({ url: "/admin/crud/crud/index", method: "get", signal })).data.list,
  });

  const open = async (row: DesignRow) => {
    const res = await request<{ row: { id: number; status: "draft" | "generated"; design: GenDesign | null } }>({ url: "/admin/crud/crud/edit", method: "get", params: { id: row.id } });
    const { design } = res.data.row;
    if (design) setEditing({ key: `design-${row.id}`, id: row.id, status: res.data.row.status, design });
  };

  const exportDesign = async (row: DesignRow) => {
    const res = await request<{ version: number; design: GenDesign }>({ url: "/admin/crud/crud/export", method: "get", params: { id: row.id } });
    const blob = new Blob([JSON.stringify(res.data, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `design-${row.name}.json`;
    a.click();
    URL.revokeObjectURL(url);
  };

  const importDesign = useMutation({
    mutationFn: async (file: File) => {
      let body: unknown;
      try {
        body = JSON.parse(await file.text());
      } catch {
        throw new Error(t`The file is not a JSON design`);
      }
      return request({ url: "/admin/crud/crud/import", method: "post", data: body }, { showSuccessMessage: true });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });

  const remove = useMutation({
    mutationFn: (row: DesignRow) => request({ url: "/admin/crud/crud/del", method: "post", data: { id: row.id, dropTable } }, { showSuccessMessage: true }),
    onSuccess: async () => {
      setDeleting(null);
      await client.invalidateQueries({ queryKey: KEY });
      await reloadAdminMenus();
    },
  });

  const deletingTable = deleting?.table_name ?? "";
  if (editing) {
    return (
      <Designer
        key={editing.key}
        editing={editing}
        onClose={() => setEditing(null)}
        onGenerated={async (id, design) => {
          setEditing((e) => ({ key: e?.key ?? `design-${id}`, id, status: "generated", design }));
          await client.invalidateQueries({ queryKey: KEY });
          await client.invalidateQueries({ queryKey: ["admin", "gen"] });
          await reloadAdminMenus();
        }}
      />
    );
  }

  return (
    <section className="space-y-4" aria-labelledby="codegen-title">
      <PageHeader id="codegen-title" title={<Trans>Code generator</Trans>}>
        <div className="flex flex-wrap gap-2">
          <FileUploadButton disabled={importDesign.isPending} accept="application/json,.json" inputLabel={t`Design file`} onFiles={([file]) => importDesign.mutate(file!)}>
            <FileUp className="size-4" aria-hidden />
            <Trans>Import a design</Trans>
          </FileUploadButton>
          <Button variant="primary" onClick={() => setEditing({ key: `new-${Date.now()}`, id: null, status: "new", design: emptyDesign() })}>
            <Plus className="size-4" aria-hidden />
            <Trans>New design</Trans>
          </Button>
        </div>
      </PageHeader>
      <UploadFailure error={importDesign.error} />
      <p className="text-sm text-slate-600 dark:text-slate-400">
        <Trans>Design a back-office screen: its table gets the prefix gen_, and once generated the screen is in the side menu at once.</Trans>
      </p>
      {designs.isPending ? (
        <PageSpinner />
      ) : (
        <DataTable
          caption={<Trans>Designs</Trans>}
          data={designs.data ?? []}
          rowKey={(row) => row.id}
          empty={{ content: <Trans>No designs yet.</Trans>, className: "px-3 py-2 align-middle text-center text-slate-500" }}
          columns={[
            {
              id: "title",
              header: t`Title`,
              cell: (row) =>
                row.status === "generated" ? (
                  <Link className="text-primary underline" to={`/admin/gen/${row.name}`}>
                    {row.title}
                  </Link>
                ) : (
                  row.title
                ),
            },
            { id: "table", header: t`Table`, className: "font-mono text-sm", cell: (row) => row.table_name },
            { id: "fields", header: t`Fields`, className: "tabular-nums", cell: (row) => row.fields },
            { id: "status", header: t`Status`, cell: (row) => (row.status === "generated" ? <Trans>Generated</Trans> : <Trans>Draft</Trans>) },
            { id: "updated", header: t`Updated`, className: "whitespace-nowrap tabular-nums", cell: (row) => formatTime(row.update_time) },
            {
              id: "actions",
              header: t`Actions`,
              cell: (row) => {
                const title = row.title;
                return (
                  <div className="flex flex-wrap gap-1">
                    <Button variant="ghost" aria-label={t`Edit ${title}`} onClick={() => void open(row)}>
                      <Pencil className="size-4" aria-hidden />
                    </Button>
                    <Button variant="ghost" aria-label={t`Export ${title}`} onClick={() => void exportDesign(row)}>
                      <Download className="size-4" aria-hidden />
                    </Button>
                    <Button
                      variant="ghost"
                      aria-label={t`Delete ${title}`}
                      onClick={() => {
                        setDropTable(false);
                        setDeleting(row);
                      }}
                    >
                      <Trash2 className="size-4" aria-hidden />
                    </Button>
                  </div>
                );
              },
            },
          ]}
        />
      )}
      <DropDataConfirm
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        title={<Trans>Delete the design?</Trans>}
        notice={<Trans>Its screen and menu are removed. The table {deletingTable} and its rows are kept unless you choose to drop it.</Trans>}
        dropLabel={<Trans>Also drop the table and all its rows</Trans>}
        drop={dropTable}
        onDropChange={setDropTable}
        confirmLabel={<Trans>Delete</Trans>}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </section>
  );
}

function Designer({ editing, onClose, onGenerated }: { editing: Editing; onClose: () => void; onGenerated: (id: number, design: GenDesign) => Promise<void> }) {
  const { t, i18n } = useLingui();
  const [design, setDesign] = useState<GenDesign>(editing.design);
  const [plan, setPlan] = useState<GeneratePlan | null>(null);
  const [drops, setDrops] = useState<string[] | null>(null);
  const [fromTable, setFromTable] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const baseId = useId();
  const generated = editing.status === "generated";
  // Unsaved: the design differs from the one opened or last generated.
  const dirty = useMemo(() => JSON.stringify(design) !== JSON.stringify(editing.design), [design, editing.design]);
  useDirtyForm(dirty);
  const discard = useConfirmDiscard(dirty);

  const set = (patch: Partial<GenDesign>) => {
    setDesign((d) => ({ ...d, ...patch }));
    setPlan(null);
  };
  const setField = (i: number, patch: Partial<GenField>) => set({ fields: design.fields.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  const moveField = (i: number, by: number) => {
    const fields = [...design.fields];
    const [f] = fields.splice(i, 1);
    fields.splice(i + by, 0, f!);
    set({ fields });
  };
  const toggle = (list: string[], name: string, on: boolean) => (on ? [...new Set([...list, name])] : list.filter((n) => n !== name));

  /** The design as the server would take it, or the first problem. */
  const checked = useMemo((): { design: GenDesign } | { problem: string } => {
    const parsed = genDesign.safeParse(design);
    if (!parsed.success) {
      const at = parsed.error.issues[0]?.path.join(".") ?? "";
      return { problem: t`The design is not complete (${at})` };
    }
    const problem = designProblem(parsed.data);
    return problem ? { problem: i18n._(problem) } : { design: parsed.data };
  }, [design, t, i18n]);
  const preview = useMemo(() => ("design" in checked ? definitionOf(checked.design) : null), [checked]);

  const body = (confirmDrop?: boolean) => ({ id: editing.id ?? undefined, design, ...(confirmDrop ? { confirmDrop } : {}) });
  const previewSql = useMutation({
    mutationFn: async () => (await request<{ plan: GeneratePlan }>({ url: "/admin/crud/crud/preview", method: "post", data: body() })).data.plan,
    onSuccess: setPlan,
  });
  const generate = useMutation({
    mutationFn: async (confirmDrop: boolean) =>
      (await request<{ id: number; rule: string }>({ url: "/admin/crud/crud/generate", method: "post", data: body(confirmDrop) }, { showSuccessMessage: true, showCodeMessage: false })).data,
    onSuccess: async (data) => {
      setDrops(null);
      setDone(data.rule);
      await onGenerated(data.id, design);
    },
    onError: (error) => {
      const refusal = serverRefusal(error);
      const wanted = (refusal?.data as { drops?: unknown } | null)?.drops;
      if (Array.isArray(wanted)) setDrops(wanted.map(String));
    },
  });
  const generateError = serverRefusal(generate.error);
  const loadTable = useMutation({
    mutationFn: async () =>
      (
        await request<{ fieldList: { name: string; type: GenFieldType; length: number; default: string; comment: string }[] }>({
          url: "/admin/ajax/getTableFieldList",
          method: "get",
          params: { table: fromTable.trim(), clean: 1 },
        })
      ).data.fieldList,
    onSuccess: (list) => {
      const fields = list.map((c) => {
        const base = retype(newField(c.name), c.type);
        return { ...base, length: c.type === "string" || c.type === "decimal" ? c.length : 0, default: c.default.slice(0, 255), comment: c.comment.slice(0, 100) };
      });
      if (fields.length > 0) set({ fields, quickSearch: [], sensitive: [] });
    },
  });

  const id = (part: string) => `${baseId}-${part}`;
  const editingTitle = editing.design.title;
  const tableName = design.name || "…";
  const planTable = plan?.table ?? "";
  const planDrops = plan?.drops.join(", ") ?? "";
  const dropList = drops?.join(", ") ?? "";
  const cell = `${controlClass().replace("w-full", "")} px-2 py-1 text-sm`;

  return (
    <section className="space-y-5" aria-labelledby={id("title")}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 id={id("title")} className="text-xl font-semibold">
          {editing.status === "new" ? <Trans>New design</Trans> : <Trans>Design: {editingTitle}</Trans>}
        </h1>
        <Button onClick={() => discard.ask(onClose)}>
          <X className="size-4" aria-hidden />
          <Trans>Back to the designs</Trans>
        </Button>
        {discard.confirm}
      </div>

      <div className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-3 dark:border-slate-700">
        <FieldFrame label={<Trans>Table name</Trans>} hint={<Trans>Lowercase letters, digits and _; the table is gen_{tableName}</Trans>}>
          {(control) => <input {...control} className={controlClass()} value={design.name} disabled={generated} maxLength={41} onChange={(e) => set({ name: e.target.value })} />}
        </FieldFrame>
        <FieldFrame label={<Trans>Title</Trans>} hint={<Trans>The menu and screen title</Trans>}>
          {(control) => <input {...control} className={controlClass()} value={design.title} maxLength={50} onChange={(e) => set({ title: e.target.value })} />}
        </FieldFrame>
        <FieldFrame label={<Trans>English title</Trans>} hint={<Trans>Shown in English; empty: the title</Trans>}>
          {(control) => <input {...control} className={controlClass()} value={design.titleEn} maxLength={50} onChange={(e) => set({ titleEn: e.target.value })} />}
        </FieldFrame>
        <div className="flex flex-wrap gap-4 sm:col-span-3">
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={design.sortable} onChange={(e) => set({ sortable: e.target.checked })} />
            <Trans>Rows can be reordered (weigh)</Trans>
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={design.recycle} onChange={(e) => set({ recycle: e.target.checked })} />
            <Trans>Keep deleted rows in the recycle bin</Trans>
          </label>
        </div>
        {!generated && (
          <div className="flex flex-wrap items-end gap-2 sm:col-span-3">
            <FieldFrame label={<Trans>Start from an existing table</Trans>}>
              {(control) => <input {...control} className={controlClass()} value={fromTable} placeholder="member" maxLength={63} onChange={(e) => setFromTable(e.target.value)} />}
            </FieldFrame>
            <Button disabled={fromTable.trim() === "" || loadTable.isPending} onClick={() => loadTable.mutate()}>
              <Table2 className="size-4" aria-hidden />
              <Trans>Load its fields</Trans>
            </Button>
          </div>
        )}
      </div>

      <div className="space-y-2">
        <div className="flex items-center justify-between">
          <h2 className="text-lg font-semibold">
            <Trans>Fields</Trans>
          </h2>
          <Button onClick={() => set({ fields: [...design.fields, newField(`field${design.fields.length + 1}`)] })}>
            <Plus className="size-4" aria-hidden />
            <Trans>Add a field</Trans>
          </Button>
        </div>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          <Trans>Every table also has id, weigh, create_time and update_time.</Trans>
        </p>
        <div className="overflow-x-auto">
          <PlainTable className="min-w-[80rem] border-collapse">
            <thead>
              <tr className="text-left text-xs text-slate-600 dark:text-slate-300">
                {FIELD_COLUMNS.map((column) => (
                  <th key={column.id} className="p-1">
                    {i18n._(column)}
                  </th>
                ))}
                <th className="p-1">
                  <span className="sr-only">
                    <Trans>Actions</Trans>
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {design.fields.map((field, i) => {
                const label = field.comment || field.name;
                const position = i + 1;
                return (
                  <tr key={i} className="border-t border-slate-200 align-top dark:border-slate-700" data-testid="codegen-field">
                    <td className="p-1">
                      <input className={`${cell} w-32 font-mono`} aria-label={t`Field ${position} name`} value={field.name} maxLength={41} onChange={(e) => setField(i, { name: e.target.value })} />
                    </td>
                    <td className="p-1">
                      <CellSelect className={`${cell} w-36`} label={t`Type of ${label}`} value={field.type} options={FIELD_TYPES} labels={TYPE_LABELS} onChange={(value) => set({ fields: design.fields.map((f, j) => (j === i ? retype(f, value) : f)) })} />
                    </td>
                    <td className="p-1">
                      <input
                        className={`${cell} w-20`}
                        type="number"
                        min={0}
                        max={4000}
                        aria-label={t`Length of ${label}`}
                        disabled={field.type !== "string" && field.type !== "decimal"}
                        value={field.length || ""}
                        placeholder={field.type === "string" ? "255" : field.type === "decimal" ? "10" : ""}
                        onChange={(e) => setField(i, { length: Math.max(0, Math.min(4000, Number(e.target.value) || 0)) })}
                      />
                    </td>
                    <td className="p-1">
                      <input className={`${cell} w-28`} aria-label={t`Default of ${label}`} value={field.default} maxLength={255} onChange={(e) => setField(i, { default: e.target.value })} />
                    </td>
                    <td className="p-1">
                      <input className={`${cell} w-36`} aria-label={t`Comment of ${label}`} value={field.comment} maxLength={100} onChange={(e) => setField(i, { comment: e.target.value })} />
                    </td>
                    <td className="p-1">
                      <CellSelect className={`${cell} w-24`} label={t`Index of ${label}`} value={field.index} options={INDEX_KINDS} labels={INDEX_LABELS} onChange={(value) => setField(i, { index: value })} />
                    </td>
                    <td className="p-1">
                      <CellSelect className={`${cell} w-36`} label={t`Form control of ${label}`} value={field.form} options={controlsOf(field.type)} labels={CONTROL_LABELS} onChange={(value) => setField(i, { form: value })} />
                    </td>
                    <td className="p-1">
                      <CellSelect className={`${cell} w-32`} label={t`Search of ${label}`} value={field.search} options={searchOpsOf(field.type)} labels={SEARCH_LABELS} onChange={(value) => setField(i, { search: value, list: value !== "none" ? true : field.list })} />
                    </td>
                    <td className="min-w-[9rem] space-y-1 p-1 text-xs whitespace-nowrap">
                      {field.type === "enum" && (
                        <input
                          className={`${cell} w-40`}
                          aria-label={t`Choices of ${label}`}
                          placeholder={t`Choices, comma separated`}
                          value={field.options.join(",")}
                          onChange={(e) => setField(i, { options: e.target.value.split(",").map((o) => o.trim()).filter(Boolean).slice(0, 50) })}
                        />
                      )}
                      <label className="flex items-center gap-1">
                        <input type="checkbox" checked={field.required} onChange={(e) => setField(i, { required: e.target.checked })} />
                        <Trans>Required</Trans>
                      </label>
                      <label className="flex items-center gap-1">
                        <input type="checkbox" checked={field.list} onChange={(e) => setField(i, { list: e.target.checked, search: e.target.checked ? field.search : "none" })} />
                        <Trans>List column</Trans>
                      </label>
                      {(field.type === "string" || field.type === "text" || field.type === "enum" || field.type === "decimal") && (
                        <label className="flex items-center gap-1">
                          <input type="checkbox" checked={design.quickSearch.includes(field.name)} onChange={(e) => set({ quickSearch: toggle(design.quickSearch, field.name, e.target.checked) })} />
                          <Trans>Quick search</Trans>
                        </label>
                      )}
                      <label className="flex items-center gap-1">
                        <input type="checkbox" checked={design.sensitive.includes(field.name)} onChange={(e) => set({ sensitive: toggle(design.sensitive, field.name, e.target.checked) })} />
                        <Trans>Sensitive</Trans>
                      </label>
                    </td>
                    <td className="p-1">
                      <div className="flex gap-1">
                        <Button variant="ghost" aria-label={t`Move ${label} up`} disabled={i === 0} onClick={() => moveField(i, -1)}>
                          <ArrowUp className="size-4" aria-hidden />
                        </Button>
                        <Button variant="ghost" aria-label={t`Move ${label} down`} disabled={i === design.fields.length - 1} onClick={() => moveField(i, 1)}>
                          <ArrowDown className="size-4" aria-hidden />
                        </Button>
                        <Button
                          variant="ghost"
                          aria-label={t`Remove ${label}`}
                          disabled={design.fields.length === 1}
                          onClick={() =>
                            set({
                              fields: design.fields.filter((_, j) => j !== i),
                              quickSearch: design.quickSearch.filter((q) => q !== field.name),
                              sensitive: design.sensitive.filter((s) => s !== field.name),
                            })
                          }
                        >
                          <Trash2 className="size-4" aria-hidden />
                        </Button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </PlainTable>
        </div>
      </div>

      <div className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
        <h2 className="text-lg font-semibold">
          <Trans>Preview</Trans>
        </h2>
        {"problem" in checked ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {checked.problem}
          </p>
        ) : (
          preview && (
            <div className="grid gap-4 lg:grid-cols-2">
              <div className="min-w-0 space-y-1">
                <h3 className="text-sm font-medium">
                  <Trans>List</Trans>
                </h3>
                <div className="overflow-x-auto">
                  <DataTable
                    caption={<Trans>Preview of the list</Trans>}
                    data={NO_ROWS}
                    rowKey={(row) => row.id}
                    empty={{ content: <Trans>Rows appear here</Trans>, className: "px-3 py-2 align-middle text-center text-slate-500" }}
                    columns={preview.columns
                      .filter((c) => !c.hidden)
                      .map((c) => ({
                        id: c.field,
                        header: (
                          <>
                            {i18n._(c.label)}
                            {c.search && <span className="ml-1 text-xs text-slate-500">⌕</span>}
                          </>
                        ),
                        cell: () => null,
                      }))}
                  />
                </div>
              </div>
              <div className="min-w-0 space-y-2">
                <h3 className="text-sm font-medium">
                  <Trans>Form</Trans>
                </h3>
                <div className="space-y-2 rounded-md bg-slate-50 p-3 dark:bg-slate-800/50">
                  {(preview.form ?? []).map((f) => (
                    <div key={f.field} className="grid grid-cols-3 items-center gap-2 text-sm">
                      <span className="text-slate-700 dark:text-slate-300">{i18n._(f.label)}</span>
                      <span className="col-span-2 rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-500 dark:border-slate-600 dark:bg-slate-900">
                        {i18n._(CONTROL_LABELS[design.fields.find((d) => d.name === f.field)?.form ?? "text"])}
                      </span>
                    </div>
                  ))}
                </div>
              </div>
            </div>
          )
        )}
        {plan && (
          <div className="space-y-1">
            <h3 className="text-sm font-medium">
              <Trans>SQL to run on {planTable}</Trans>
            </h3>
            {plan.drops.length > 0 && (
              <p className="text-sm text-red-700 dark:text-red-400">
                <Trans>These columns and their data will be dropped: {planDrops}</Trans>
              </p>
            )}
            <pre className="max-h-64 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100" data-testid="codegen-sql">
              {plan.statements.length > 0 ? plan.statements.join(";\n") + ";" : t`Nothing to change.`}
            </pre>
          </div>
        )}
        {generateError && <p className="text-sm text-red-700 dark:text-red-400">{generateError.msg}</p>}
        {done && (
          <p className="text-sm text-green-800 dark:text-green-300" role="status">
            <Trans>Generated.</Trans>{" "}
            <Link className="underline" to={`/admin/${done}`}>
              <Trans>Open the screen</Trans>
            </Link>
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button disabled={"problem" in checked || previewSql.isPending} onClick={() => previewSql.mutate()}>
            <Trans>Preview the SQL</Trans>
          </Button>
          <Button variant="primary" disabled={"problem" in checked || generate.isPending} onClick={() => generate.mutate(false)}>
            <Play className="size-4" aria-hidden />
            {generated ? <Trans>Generate again</Trans> : <Trans>Generate</Trans>}
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={drops !== null}
        onOpenChange={(o) => !o && setDrops(null)}
        title={<Trans>Drop columns?</Trans>}
        description={<Trans>The columns {dropList} are not in the design any more. Generating drops them and all their data.</Trans>}
        confirmLabel={<Trans>Drop and generate</Trans>}
        busy={generate.isPending}
        onConfirm={() => generate.mutate(true)}
      />
    </section>
  );
}

/** A choice in a row of the field table: `options` by their labels. */
function CellSelect<V extends string>({ className, label, value, options, labels, onChange }: { className: string; label: string; value: V; options: readonly V[]; labels: Record<V, MessageDescriptor>; onChange: (value: V) => void }) {
  const { i18n } = useLingui();
  return (
    <select className={className} aria-label={label} value={value} onChange={(e) => onChange(e.target.value as V)}>
      {options.map((option) => (
        <option key={option} value={option}>
          {i18n._(labels[option])}
        </option>
      ))}
    </select>
  );
}
