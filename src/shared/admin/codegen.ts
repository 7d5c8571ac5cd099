import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { DB_INT_MAX, DB_INT_MIN, safeText, withMessage } from "../schema.ts";

/**
 * The code generator (`/admin/crud/crud`): a design of a back-office resource as data. The
 * server turns it into a table (`gen_<name>`), a resource of the CRUD engine at
 * `/admin/gen/<name>/...` and its menu rules; the client renders it with the same list and form
 * screen as the built-in resources. Both sides validate a design with `designBody` and
 * `designProblem`, and a row of a generated resource with `rowSchema`.
 */

/** Generated tables are `gen_<name>`: apart from the system's own tables. */
export const GEN_TABLE_PREFIX = "gen_";
/** Generated resources' rule paths are `gen/<name>`. */
export const GEN_RULE_BASE = "gen";
/** The menu rule component every generated screen uses (the screen reads its definition from the server). */
export const GEN_COMPONENT = "crud/generated";
/** A design's name and its field names. */
export const GEN_NAME = /^[a-z][a-z0-9_]{0,40}$/;
/** Columns every generated table has; no field may take their names. */
export const GEN_RESERVED_COLUMNS = ["id", "weigh", "create_time", "update_time"] as const;

/** Field types and the SQL column each becomes (length: string size, decimal precision). */
export const FIELD_TYPES = ["string", "text", "int", "bigint", "decimal", "bool", "datetime", "enum"] as const;
export type GenFieldType = (typeof FIELD_TYPES)[number];
/** The form control of a field ("none": not in the form). */
export const FORM_CONTROLS = ["text", "textarea", "number", "switch", "select", "radio", "datetime", "none"] as const;
export type GenFormControl = (typeof FORM_CONTROLS)[number];
/** The search operator of a list column ("none": not searched). */
export const SEARCH_OPS = ["none", "eq", "LIKE", "RANGE"] as const;
export type GenSearchOp = (typeof SEARCH_OPS)[number];
export const INDEX_KINDS = ["none", "index", "unique"] as const;

/**
 * PostgreSQL's reserved key words (and the DDL verbs), refused as table and field names even
 * though they would be quoted: a name that reads as SQL is a mistake or an attack.
 */
export const SQL_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "all analyse analyze and any array as asc asymmetric authorization binary both case cast check collate collation column " +
    "concurrently constraint create cross current_catalog current_date current_role current_schema current_time current_timestamp " +
    "current_user default deferrable desc distinct do else end except false fetch for foreign freeze from full grant group having " +
    "ilike in initially inner intersect into is isnull join lateral leading left like limit localtime localtimestamp natural not " +
    "notnull null offset on only or order outer overlaps placing primary references returning right select session_user similar " +
    "some symmetric system_user table tablesample then to trailing true union unique user using variadic verbose when where window " +
    "with drop delete insert update alter truncate index revoke begin commit rollback exec execute schema database view trigger function"
  ).split(" "),
);

/** Lengths: a string column's size (default 255), a decimal's digits (default 10, two after the point). */
export const STRING_LENGTH = { default: 255, max: 4000 } as const;
export const DECIMAL_DIGITS = { default: 10, max: 30 } as const;
export const MAX_FIELDS = 60;

const name = (message: MessageDescriptor) => withMessage(z.string().max(41).regex(GEN_NAME), message);

export const genField = z.object({
  name: name(msg`A field name starts with a lowercase letter and has only lowercase letters, digits and underscores (at most 41)`),
  type: withMessage(z.enum(FIELD_TYPES), msg`Please choose the field type`),
  /** 0: the type's default. */
  length: withMessage(z.number().int().min(0).max(STRING_LENGTH.max).default(0), msg`The length must be between 0 and 4000`),
  default: withMessage(safeText(255).default(""), msg`The default value is too long`),
  /** The column's comment, shown as the field's label. */
  comment: withMessage(safeText(100).default(""), msg`The comment is too long (at most 100 characters)`),
  index: z.enum(INDEX_KINDS).default("none"),
  required: z.boolean().default(false),
  /** The choices of an `enum` field. */
  options: withMessage(z.array(safeText(64).min(1)).max(50).default([]), msg`At most 50 choices of at most 64 characters`),
  /** How a choice of an `enum` field is shown (value -> label); a choice without one shows its value. */
  optionLabels: withMessage(z.record(z.string().max(64), safeText(64)).default({}), msg`At most 50 choices of at most 64 characters`),
  form: withMessage(z.enum(FORM_CONTROLS).default("text"), msg`Please choose the form control`),
  /** Shown as a list column. */
  list: z.boolean().default(true),
  search: withMessage(z.enum(SEARCH_OPS).default("none"), msg`Please choose the search operator`),
});
export type GenField = z.infer<typeof genField>;

export const genDesign = z.object({
  name: name(msg`The table name starts with a lowercase letter and has only lowercase letters, digits and underscores (at most 41)`),
  title: withMessage(safeText(50).trim().min(1), msg`Please enter the title (at most 50 characters)`),
  titleEn: withMessage(safeText(50).trim().default(""), msg`The English title is too long (at most 50 characters)`),
  fields: withMessage(z.array(genField).min(1).max(MAX_FIELDS), msg`A design has 1 to 60 fields`),
  quickSearch: withMessage(z.array(z.string().max(41)).max(10).default([]), msg`At most 10 quick-search fields`),
  /** Rows carry `weigh` and can be reordered. */
  sortable: z.boolean().default(false),
  /** Deleted rows are kept in the recycle bin (a data-recycle rule). */
  recycle: z.boolean().default(false),
  /** Fields whose changes are logged (a sensitive-data rule). */
  sensitive: withMessage(z.array(z.string().max(41)).max(MAX_FIELDS).default([]), msg`The sensitive fields are not valid`),
});
export type GenDesign = z.infer<typeof genDesign>;

/** `POST /admin/crud/crud/preview` and `generate`: the design, the design row it replaces, the confirmation to drop columns. */
export const generateBody = z.object({
  id: z.number().int().min(1).max(DB_INT_MAX).optional(),
  design: genDesign,
  confirmDrop: z.boolean().optional(),
});
/** `POST /admin/crud/crud/del`. */
export const designDelBody = z.object({ id: z.number().int().min(1).max(DB_INT_MAX), dropTable: z.boolean().optional() });
/** `POST /admin/crud/crud/import`: an exported design (`{version, design}`). */
export const importBody = z.object({ version: z.literal(1).optional(), design: genDesign });
/** `GET /admin/ajax/getTablePk`, `getTableFieldList`. */
export const tableQuery = z.object({
  table: withMessage(z.string().max(63).regex(/^[a-z_][a-z0-9_]{0,62}$/), msg`The table name is not valid`),
  clean: z.enum(["0", "1", "true", "false"]).optional(),
});

/** What the generator answers for a design: the statements it would run and the columns it would drop. */
export interface GeneratePlan {
  table: string;
  exists: boolean;
  statements: string[];
  drops: string[];
}

/** A design row as `GET /admin/crud/crud/index` lists it. */
export interface DesignRow {
  id: number;
  name: string;
  table_name: string;
  title: string;
  status: "draft" | "generated";
  fields: number;
  create_time: number;
  update_time: number;
}

export const tableOf = (design: Pick<GenDesign, "name">): string => `${GEN_TABLE_PREFIX}${design.name}`;
export const ruleOfDesign = (design: Pick<GenDesign, "name">): string => `${GEN_RULE_BASE}/${design.name}`;

const NUMERIC: ReadonlySet<GenFieldType> = new Set(["int", "bigint", "decimal", "datetime"]);
const TEXTUAL: ReadonlySet<GenFieldType> = new Set(["string", "text", "enum", "decimal"]);

/** The form controls that fit a type. */
export function controlsOf(type: GenFieldType): GenFormControl[] {
  switch (type) {
    case "string":
      return ["text", "textarea", "none"];
    case "text":
      return ["textarea", "text", "none"];
    case "int":
    case "bigint":
    case "decimal":
      return ["number", "text", "none"];
    case "bool":
      return ["switch", "none"];
    case "datetime":
      return ["datetime", "number", "none"];
    case "enum":
      return ["select", "radio", "none"];
  }
}

/** The search operators that fit a type. */
export function searchOpsOf(type: GenFieldType): GenSearchOp[] {
  const ops: GenSearchOp[] = ["none", "eq"];
  if (TEXTUAL.has(type)) ops.push("LIKE");
  if (NUMERIC.has(type) && type !== "decimal") ops.push("RANGE");
  return ops;
}

/** Whether `value` is a valid default of the field ("" always is: the type's zero). */
export function validDefault(field: Pick<GenField, "type" | "default" | "options" | "length">): boolean {
  const v = field.default;
  if (v === "") return true;
  switch (field.type) {
    case "int":
      return /^-?\d{1,10}$/.test(v) && Number(v) >= DB_INT_MIN && Number(v) <= DB_INT_MAX;
    case "bigint":
    case "datetime":
      return /^-?\d{1,15}$/.test(v);
    case "decimal":
      return /^-?\d{1,20}(\.\d{1,2})?$/.test(v);
    case "bool":
      return ["0", "1", "true", "false"].includes(v);
    case "enum":
      return field.options.includes(v);
    case "string":
      return v.length <= (field.length || STRING_LENGTH.default);
    case "text":
      return true;
  }
}

/**
 * The first problem of a (structurally valid) design, or null: names (pattern, SQL key words,
 * reserved columns, unique), each field's length, default, control and search against its type,
 * quick-search and sensitive fields naming fields.
 */
export function designProblem(design: GenDesign): MessageDescriptor | null {
  if (!GEN_NAME.test(design.name)) return msg`The table name starts with a lowercase letter and has only lowercase letters, digits and underscores (at most 41)`;
  if (SQL_KEYWORDS.has(design.name)) {
    const n = design.name;
    return msg`The table name "${n}" is an SQL key word`;
  }
  const seen = new Set<string>();
  for (const field of design.fields) {
    const n = field.name;
    if (!GEN_NAME.test(n)) return msg`A field name starts with a lowercase letter and has only lowercase letters, digits and underscores (at most 41)`;
    if (SQL_KEYWORDS.has(n)) return msg`The field name "${n}" is an SQL key word`;
    if ((GEN_RESERVED_COLUMNS as readonly string[]).includes(n)) return msg`The field name "${n}" is reserved: every generated table has id, weigh, create_time and update_time`;
    if (seen.has(n)) return msg`The field "${n}" is listed twice`;
    seen.add(n);
    if (field.type === "string" && field.length > STRING_LENGTH.max) return msg`The length of "${n}" must be at most 4000`;
    if (field.type === "decimal" && field.length > DECIMAL_DIGITS.max) return msg`The digits of "${n}" must be at most 30`;
    if (field.type === "decimal" && field.length > 0 && field.length < 3) return msg`The digits of "${n}" must be at least 3`;
    if (field.type === "enum" && field.options.length === 0) return msg`The field "${n}" needs its choices`;
    if (field.type === "enum" && new Set(field.options).size !== field.options.length) return msg`The choices of "${n}" are listed twice`;
    if (!validDefault(field)) return msg`The default value of "${n}" does not fit its type`;
    if (!controlsOf(field.type).includes(field.form)) return msg`The form control of "${n}" does not fit its type`;
    if (!searchOpsOf(field.type).includes(field.search)) return msg`The search operator of "${n}" does not fit its type`;
    if (field.search !== "none" && !field.list) return msg`The field "${n}" is searched but not listed`;
  }
  for (const q of design.quickSearch) {
    const field = design.fields.find((f) => f.name === q);
    if (!field) return msg`The quick-search field "${q}" is not a field`;
    if (!TEXTUAL.has(field.type)) return msg`The quick-search field "${q}" must be a text field`;
  }
  for (const s of design.sensitive) if (!seen.has(s)) return msg`The sensitive field "${s}" is not a field`;
  return null;
}

const requiredText = (max: number, required: boolean) => (required ? safeText(max).trim().min(1) : safeText(max));

/** The add (or edit, with `id`) body of a generated resource's row. */
export function rowSchema(design: GenDesign, edit = false): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const field of design.fields) {
    if (field.form === "none") continue;
    let schema: z.ZodType;
    switch (field.type) {
      case "string": {
        const max = field.length || STRING_LENGTH.default;
        schema = withMessage(requiredText(max, field.required), field.required ? msg`Please enter a value (at most ${max} characters)` : msg`At most ${max} characters`);
        break;
      }
      case "text":
        schema = withMessage(requiredText(65_535, field.required), msg`Please enter a value (at most 65535 characters)`);
        break;
      case "int":
        schema = withMessage(z.coerce.number().int().min(DB_INT_MIN).max(DB_INT_MAX), msg`Please enter a whole number`);
        break;
      case "bigint":
        schema = withMessage(z.coerce.number().int().min(-999_999_999_999_999).max(999_999_999_999_999), msg`Please enter a whole number`);
        break;
      case "datetime":
        schema = withMessage(z.preprocess((v) => (v === null || v === "" ? 0 : v), z.coerce.number().int().min(0).max(32_503_680_000)), msg`Please choose a date and time`);
        break;
      case "decimal":
        schema = withMessage(
          z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string().regex(/^-?\d{1,20}(\.\d{1,2})?$/)),
          msg`Please enter a number with at most 2 decimals`,
        );
        break;
      case "bool":
        schema = withMessage(z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1), msg`Please choose yes or no`);
        break;
      case "enum": {
        const choices = z.enum(field.options as [string, ...string[]]);
        schema = withMessage(field.required ? choices : z.union([choices, z.literal("")]), msg`Please choose one of the choices`);
        break;
      }
    }
    shape[field.name] = field.required ? schema : schema.optional();
  }
  if (edit) shape.id = z.number().int().min(1).max(DB_INT_MAX);
  return z.object(shape);
}

/** An empty design to start from. */
export function emptyDesign(): GenDesign {
  return {
    name: "",
    title: "",
    titleEn: "",
    fields: [newField("name")],
    quickSearch: [],
    sortable: false,
    recycle: false,
    sensitive: [],
  };
}

export function newField(fieldName: string): GenField {
  return { name: fieldName, type: "string", length: 0, default: "", comment: "", index: "none", required: false, options: [], optionLabels: {}, form: "text", list: true, search: "none" };
}
