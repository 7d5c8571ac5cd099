import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { SearchOperator } from "./crud.ts";

/**
 * Field declarations both sides of the back office share. A resource's fields are declared once
 * (`declareResource`): the server makes its resource's list fields, quick search and reorder of
 * them (crud/resources/fields.ts), the client its screen's columns (admin/crud/declared.ts).
 * What only one side knows stays there, attached by field name: the SQL of a joined field, the
 * hooks; a custom cell, a form's component.
 */

/** Types of a listed field: how a search value is read and which operators fit (the server's FieldType). */
export type SharedFieldType = "int" | "bigint" | "time" | "text" | "bool" | "enum" | "date";

/** A value of a field and what the admin reads for it (a tag, a select's or a radio's choice). */
export interface FieldOption {
  value: string | number;
  label: MessageDescriptor;
}

export interface FieldDecl {
  type: SharedFieldType;
  /** The values of an `enum` field (what the server accepts in a search). */
  values?: readonly string[];
  /** The values' labels, in the order the screen offers them; an `enum`'s are all its `values`. */
  options?: readonly FieldOption[];
  /** The field's name on screen (its column header); a field only the server uses has none. */
  label?: MessageDescriptor;
  /** Narrows the search operators the server allows on this field (default: all that fit its type). */
  operators?: readonly SearchOperator[];
  /** An amount of money stored in cents (fen): read (and exported) in yuan. */
  cents?: true;
}

/** An `enum` field whose values are its options' (so a label cannot go missing or name another value). */
export function enumField(options: readonly FieldOption[], label?: MessageDescriptor): FieldDecl {
  return { type: "enum", values: options.map((o) => String(o.value)), options, ...(label ? { label } : {}) };
}

/**
 * A row's choice of another resource's row: `<name>_id`, what the form sets and a select
 * searches, and that row's `<name>_<shown>` (its name or title), joined for the list.
 */
export function refFields<N extends string, S extends string>(name: N, shown: S, label?: MessageDescriptor): Record<`${N}_id` | `${N}_${S}`, FieldDecl> {
  const id: FieldDecl = { type: "int", ...(label ? { label } : {}) };
  return { [`${name}_id`]: id, [`${name}_${shown}`]: { type: "text" } } as Record<`${N}_id` | `${N}_${S}`, FieldDecl>;
}

/** How a list cell shows its value: "tag" and "switch" show the option's label. */
export type ColumnRender = "text" | "number" | "tag" | "switch" | "datetime";

/** Which input the search form gives a column, and so its operator: text LIKE, select eq, number and datetime RANGE. */
export type SearchKind = "text" | "select" | "number" | "datetime";

/** The list's behaviour of one column; its label and options are its field's unless given. */
export interface ColumnBehaviour {
  label?: MessageDescriptor;
  /** Default "text". */
  render?: ColumnRender;
  /** The column header sorts the list by this field (`order=field,asc|desc`). */
  sortable?: true;
  /** The search form has an input for this column. */
  search?: SearchKind;
  /** Another operator than the kind's default (e.g. "eq" for an exact text match). */
  operator?: SearchOperator;
  /** Hidden until the admin shows it in the column menu. */
  hidden?: true;
  /**
   * Heads each row's card on a phone, where the list's columns cannot stand side by side; without
   * it, the first text column shown other than the id does.
   */
  card?: "title";
  /** A "select" search whose choices are another resource's rows (`select=1`): `labelField` shown, `valueField` (default "id") sent. */
  remote?: { path: string; labelField: string; valueField?: string };
}

/**
 * A column of the list, in the screen's order: a field of the resource, or a value the
 * resource's list hook adds to each row (`hook`, with its own label; neither sorted nor searched).
 */
export type ColumnDecl<F extends string> =
  | ({ field: F } & ColumnBehaviour)
  | { hook: string; label: MessageDescriptor; render?: ColumnRender; hidden?: true; options?: readonly FieldOption[] };

/** One back-office resource as both sides see it. */
export interface ResourceDecl<F extends string = string> {
  /** The rule path, e.g. "course/lesson": the server's routes and the client's screen. */
  rule: string;
  title: MessageDescriptor;
  /** The resource's name in the admin log and the data-security rules' choice of data, where it is not the screen's title. */
  logTitle?: MessageDescriptor;
  /** The list's fields in the order the server answers them; `id` among them. */
  fields: Record<F, FieldDecl>;
  /** The fields the quick search looks in, and the box's placeholder naming them (no placeholder, no box on the screen). */
  quickSearch: { fields: readonly F[]; label?: MessageDescriptor };
  /** The list's columns in the screen's order; a picker has none. */
  columns: readonly ColumnDecl<F>[];
  /** No screen of its own: a source other screens' selects read (`select=1`). */
  picker?: true;
  /** Rows carry `weigh` and are reordered by swapping it. */
  sortable?: true;
  /** Rows form a tree by `pid`: the server checks the parent, the screen nests the rows. */
  tree?: true;
}

/**
 * Declares a resource (typed: its quick search and columns may name only its fields). Every
 * resource's rows have an `id`, the first field of its list: given here as STANDARD_FIELDS
 * declares it, unless `fields` declares its own (with another label).
 */
export function declareResource<F extends string>(
  decl: { fields: Record<F, FieldDecl> } & Omit<ResourceDecl<NoInfer<F | "id">>, "fields">,
): ResourceDecl<F | "id"> {
  const fields: Record<F | "id", FieldDecl> = { id: STANDARD_FIELDS.id, ...decl.fields };
  return { ...decl, fields };
}

/** The status of a row an admin may switch off (most back-office tables). */
export const STATUS_OPTIONS = [
  { value: "enable", label: msg`Enabled` },
  { value: "disable", label: msg`Disabled` },
] as const satisfies readonly FieldOption[];
export const STATUS_VALUES = ["enable", "disable"] as const;

/** A `bool` field's values as its tag reads them (the list answers them as true / false). */
export const YES_NO_OPTIONS = [
  { value: "true", label: msg`Yes` },
  { value: "false", label: msg`No` },
] as const satisfies readonly FieldOption[];

/** The columns most tables have, each declared once: row id, tree parent, name, order, status, times. */
export const STANDARD_FIELDS = {
  id: { type: "int", label: msg`ID` },
  pid: { type: "int" },
  name: { type: "text", label: msg`Name` },
  weigh: { type: "int", label: msg`Weight` },
  status: { type: "enum", values: STATUS_VALUES, options: STATUS_OPTIONS, label: msg`Status` },
  create_time: { type: "time", label: msg`Created` },
  update_time: { type: "time", label: msg`Updated` },
} as const satisfies Record<string, FieldDecl>;

export type StandardField = keyof typeof STANDARD_FIELDS;

/** When a log's row was written (its `create_time`), as every log labels it. */
export const LOG_TIME_FIELD = { ...STANDARD_FIELDS.create_time, label: msg`Time` } as const satisfies FieldDecl;

/** The quick search of a resource whose rows are known by their name. */
export const NAME_SEARCH = { fields: ["id", "name"], label: msg`ID, name` } as const;

/** Standard fields (as declared in STANDARD_FIELDS), in the order named, to spread into a declaration's `fields`. */
export function standardDecls<K extends StandardField>(...names: K[]): Record<K, FieldDecl> {
  const decls: Record<StandardField, FieldDecl> = STANDARD_FIELDS;
  return Object.fromEntries(names.map((name) => [name, decls[name]])) as Record<K, FieldDecl>;
}

/** How a list shows a standard field, and the search input that fits it. */
const STANDARD_COLUMNS = {
  id: { render: "number", search: "number" },
  pid: { render: "number", search: "number" },
  name: { render: "text", search: "text" },
  weigh: { render: "number", search: "number" },
  status: { render: "tag", search: "select" },
  create_time: { render: "datetime", search: "datetime" },
  update_time: { render: "datetime", search: "datetime" },
} as const satisfies Record<StandardField, { render: ColumnRender; search: SearchKind }>;

/** Which of a list's behaviours a standard column has: its render and search input are the field's own. */
export interface StandardColumn {
  sortable?: true;
  search?: true;
  hidden?: true;
  label?: MessageDescriptor;
}

/**
 * Columns of standard fields, in the order named: `standardColumns({ status: { search: true },
 * create_time: { sortable: true, hidden: true } })`. Each shows its field the one way it is shown
 * (a number, a tag, a date and time) and searches it with the input that fits.
 */
export function standardColumns<K extends StandardField>(columns: Record<K, StandardColumn>): ColumnDecl<K>[] {
  return (Object.entries(columns) as [K, StandardColumn][]).map(([field, { search, ...rest }]) => ({
    field,
    render: STANDARD_COLUMNS[field].render,
    ...rest,
    ...(search ? { search: STANDARD_COLUMNS[field].search } : {}),
  }));
}
