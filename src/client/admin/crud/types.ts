import type { MessageDescriptor } from "@lingui/core";
import type { ComponentType, ReactNode } from "react";
import type { z } from "zod";
import type { ColumnRender, SearchKind } from "../../../shared/admin/fields.ts";

export type { ColumnRender, SearchKind };

/** The search operators of API.md's generic CRUD protocol. */
export type Operator = "eq" | "ne" | "gt" | "egt" | "lt" | "elt" | "LIKE" | "NOT LIKE" | "IN" | "NOT IN" | "NULL" | "NOT NULL" | "RANGE" | "NOT RANGE";

/** A row as the server lists it: its fields by name, `id` always; `children` for tree resources. */
export interface CrudRow {
  id: number;
  [field: string]: unknown;
}

/** A choice of a select, radio or tag: the stored value and what the admin reads. */
export interface CrudOption {
  value: string | number;
  label: MessageDescriptor;
}

export interface CrudColumn {
  /** The row field (and the name the server's allow-list knows for order and search). */
  field: string;
  label: MessageDescriptor;
  /** Default "text"; "tag" and "switch" show the option's label (`options`). */
  render?: ColumnRender;
  options?: CrudOption[];
  /** A custom cell (wins over `render`). */
  cell?: (row: CrudRow) => ReactNode;
  /** The column header sorts the list by this field (`order=field,asc|desc`). */
  sortable?: boolean;
  /** The search form has an input for this column. */
  search?: SearchKind;
  /** Another operator than the kind's default (e.g. "eq" for an exact text match). */
  operator?: Operator;
  /** Hidden until the admin shows it in the column menu. */
  hidden?: boolean;
  /** Heads each row's card on a phone (otherwise the first text column shown other than the id does). */
  card?: "title";
  /** A "select" search whose choices are another resource's rows (`select=1`): `labelField` shown, `valueField` (default "id") sent. */
  remote?: { path: string; labelField: string; valueField?: string };
  /**
   * Not a field of the server resource: its list hook adds it to each row (a count, a summary),
   * so it is neither sorted nor searched. tests/client/crud-contract.test.ts holds every other
   * column to the resource's fields.
   */
  viaHook?: true;
}

/** The input kinds of the add/edit form. */
export type FormFieldKind =
  | "text"
  | "textarea"
  | "number"
  | "switch"
  | "radio"
  | "select"
  | "remoteSelect"
  | "date"
  | "datetime"
  | "password"
  /** Uploads through `/admin/ajax/upload` (fields/ImageField, FileField): a url, a list of urls, a url. */
  | "image"
  | "images"
  | "file"
  /** HTML edited with TipTap (fields/RichTextField, lazy), sanitised by the server. */
  | "richText"
  /** Province and city codes `[province, city]` (fields/AreaField). */
  | "area"
  /** A component of the definition's own (`component`), given the form's values. */
  | "custom"
  /** The parent of a tree row: `tree` names the resource (fields/TreeSelect.tsx). */
  | "treeSelect"
  /** Rows of a tree resource as checkboxes, parents checking their children (fields/CheckboxTree.tsx). */
  | "checkboxTree"
  /** Several rows of another resource (fields/MultiSelect.tsx). */
  | "multiSelect"
  /** A menu icon from the side menu's icon set (fields/IconPicker.tsx). */
  | "iconPicker"
  /** Rows of another resource as a checkbox list (fields/CheckboxList.tsx). */
  | "checkboxList";

/** What a "custom" field's component gets: its value, the form's other values, and the input's ids and aria state. */
export interface CustomFieldProps {
  value: unknown;
  onChange: (value: unknown) => void;
  values: Record<string, unknown>;
  control: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean };
  editing: boolean;
  /** Sets another field of the form (e.g. a question's answer follows its reordered options). */
  setValue: (field: string, value: unknown) => void;
}

export interface CrudFormField {
  field: string;
  label: MessageDescriptor;
  kind: FormFieldKind;
  /** Choices of "radio" and "select". */
  options?: CrudOption[];
  /**
   * "remoteSelect": rows of another resource (`GET /admin/<path>/index?select=1&quickSearch=`),
   * showing `labelField` and storing `valueField` (default "id"). "checkboxList": the rows
   * (up to 100) as checkboxes, the value a list of `valueField`s (or "*" for all).
   * `rowLabel`: a field of the edited row naming its current value, shown when the source does
   * not list that value to this admin (e.g. a head teacher a super admin chose outside the company).
   */
  remote?: { path: string; labelField: string; valueField?: string; rowLabel?: string };
  /**
   * "treeSelect", "checkboxTree", "multiSelect": every row of this resource (`select=1`, nested
   * by `pid`), labelled by a field or by a function of the row and the UI language.
   */
  tree?: { path: string; label: string | ((row: CrudRow, locale: string) => string) };
  /** Shown (and sent) only while this holds for the form's current values, e.g. `(v) => v.type === "menu"`. */
  when?: (values: Record<string, unknown>) => boolean;
  placeholder?: MessageDescriptor;
  hint?: MessageDescriptor;
  /** "switch": sent as true / false instead of 1 / 0 (a boolean column). */
  boolean?: boolean;
  /** Only in the add form, or only in the edit form (e.g. a password set once). */
  only?: "add" | "edit";
  /** "image", "images", "file": the upload topic (storage folder; default "default"). */
  topic?: string;
  /** The add form's initial value (otherwise empty: "", 0 for switch, null for selects). */
  initial?: unknown;
  /** The input of a "custom" field (e.g. choices that depend on another field's value). */
  component?: ComponentType<CustomFieldProps>;
  /**
   * Not a column the resource's edit row has: its hooks read it into the edit row and write it
   * (memberships, a password to hash, a confirmation), so only its add/edit schema names it.
   */
  viaHook?: true;
  /** Only shown (a preview, a history, a total): the resource's schemas do not take it. */
  display?: true;
}

/** A write on the selected rows beyond delete: `POST /admin/<path>/<name> {ids}` after a confirm. */
export interface CrudBatchAction {
  /** The action (and the rule `<path>/<name>` the button needs). */
  name: string;
  label: MessageDescriptor;
  /** The question asked before it runs. */
  confirm: MessageDescriptor;
  icon?: ReactNode;
}

/**
 * A button on each row (beside edit and delete) that opens `component` in a dialog with the row,
 * e.g. "adjust balance". Shown only to admins holding the rule `action` (a full rule path such
 * as "user/moneyLog/add", or an action of this screen's path such as "edit").
 */
export interface CrudRowAction {
  /** Tells the actions of a row apart (and names the button for tests). */
  key: string;
  label: MessageDescriptor;
  icon?: ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  action: string;
  /** The dialog's content; `onDone` closes it (the list is fetched again after a write). */
  component: ComponentType<{ row: CrudRow; onDone: () => void }>;
  /** The dialog's width (default "sm"; "xl" for a report). */
  size?: "sm" | "lg" | "xl";
}

/**
 * A toolbar button (beside add) that opens `component` in a dialog, e.g. "import". Shown only
 * to admins holding the rule `action` (a full rule path or an action of this screen's path).
 */
export interface CrudToolbarAction {
  key: string;
  label: MessageDescriptor;
  icon?: ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  action: string;
  /** The dialog's width (default "sm"). */
  size?: "sm" | "lg";
  /** The dialog's content; `onDone` closes it (the list is fetched again). */
  component: ComponentType<{ onDone: () => void }>;
}

/** The buttons a screen offers; each is shown only when the admin's rules contain `<path>/<action>`. */
export type CrudButton = "refresh" | "add" | "edit" | "delete" | "sortable" | "columns" | "search";
export const ALL_BUTTONS: readonly CrudButton[] = ["refresh", "add", "edit", "delete", "sortable", "columns", "search"];

/**
 * A back-office screen as data: the list (columns, search, paging, tree, reorder) and the
 * add/edit form are rendered from it by `<CrudScreen>`.
 */
export interface CrudDefinition {
  /** The menu rule path, e.g. "auth/admin": requests go to `/admin/auth/admin/<action>`, rules are `auth/admin/<action>`. */
  path: string;
  title: MessageDescriptor;
  columns: CrudColumn[];
  /** The add/edit form; no form, no add/edit buttons. */
  form?: CrudFormField[];
  /**
   * Validates the add form before it is sent (the resource's shared zod schema, when it has one),
   * on the values as sent: datetimes as unix seconds, an empty edit password left out.
   */
  schema?: z.ZodType;
  /** The edit form's schema (default `schema`). */
  editSchema?: z.ZodType;
  /** Placeholder of the quick-search box; no box without it. */
  quickSearch?: MessageDescriptor;
  /** Rows carry their sub-rows in `children` (pid trees): rows expand and collapse. */
  tree?: boolean;
  /** Rows can be reordered (the server swaps their `weigh`). */
  sortable?: boolean;
  /** Default all of ALL_BUTTONS that apply. */
  buttons?: CrudButton[];
  /** `order` until the admin sorts by a column (default the server's, `id,desc`). */
  defaultOrder?: string;
  /** Toolbar actions on the selected rows (e.g. restore). */
  batchActions?: CrudBatchAction[];
  /** The first page size (default 10); a tree lists more so its branches stay together. */
  pageSize?: number;
  /** After a successful add, edit, delete or reorder (e.g. the side menu reloads after a rule changes). */
  afterChange?: () => unknown;
  /**
   * A row's read-only view behind a "view" button: a component given the row as `GET edit`
   * answers it, or `true` for the engine's own (every field of that row).
   */
  detail?: true | ComponentType<{ row: Record<string, unknown> }>;
  /** The engine's own detail view: labels of the row's fields that are not list columns. */
  detailLabels?: Record<string, MessageDescriptor>;
  /** Extra buttons on each row, each opening its own dialog with the row. */
  rowActions?: CrudRowAction[];
  /** Extra toolbar buttons, each opening its own dialog. */
  toolbarActions?: CrudToolbarAction[];
  /**
   * Said in the delete confirm below its question, given the rows about to be deleted (e.g. which
   * of them are in use and will be hidden instead). Inline content only: it sits in a paragraph.
   */
  deleteNotice?: ComponentType<{ ids: number[] }>;
  /**
   * After the add form saves, it stays open as the new row's edit form (a part of the form works
   * only on a saved row, such as a course's lessons), instead of closing.
   */
  editAfterAdd?: boolean;
}

/** One `search[]` item of the list request. */
export interface SearchItem {
  field: string;
  val: string;
  operator: Operator;
}

/** What `GET index` answers. */
export interface ListData {
  list: CrudRow[];
  total: number;
  remark?: string;
  /** A resource with deletes: whether they are kept in the recycle bin now (an enabled recycle rule). */
  recycle?: boolean;
}
