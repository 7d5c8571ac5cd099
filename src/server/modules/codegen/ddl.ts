import { createHash } from "node:crypto";
import { sql, type RawBuilder } from "kysely";
import { DECIMAL_DIGITS, GEN_RESERVED_COLUMNS, STRING_LENGTH, tableOf, type GenDesign, type GenField, type GeneratePlan } from "../../../shared/admin/codegen.ts";
import { isSafeText } from "../../../shared/schema.ts";
import type { Queryable } from "../../db/index.ts";
import { fixedText } from "../../db/kysely.ts";
import { relationExists, tableColumns, tableIndexNames, tableUniqueConstraints } from "./repository.ts";

/**
 * The SQL of a design: what creates its table, or changes an existing one to fit it, as Kysely
 * `sql` pieces compiled to the plan's text (DDL takes no parameters: the admin confirms that text
 * and it is what runs). Names are checked against the strict pattern again here and quoted as
 * identifiers (`sql.id`); defaults and comments are literals (`sql.lit`, quotes doubled; text with
 * NUL or unpaired surrogates never gets here); types come from the fixed list of `sqlType`.
 */

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

function ident(name: string): RawBuilder<unknown> {
  if (!IDENT.test(name)) throw new Error(`not a plain name: ${JSON.stringify(name).slice(0, 80)}`);
  return sql.id(name);
}

function literal(text: string): RawBuilder<unknown> {
  if (!isSafeText(text)) throw new Error("unsafe text in a literal");
  return sql.lit(text);
}

/** The column type as PostgreSQL's `format_type` names it (so an existing column compares equal). */
export function sqlType(field: Pick<GenField, "type" | "length">): string {
  switch (field.type) {
    case "string":
      return `character varying(${field.length || STRING_LENGTH.default})`;
    case "text":
      return "text";
    case "int":
      return "integer";
    case "bigint":
    case "datetime":
      return "bigint";
    case "decimal":
      return `numeric(${field.length || DECIMAL_DIGITS.default},2)`;
    case "bool":
      return "boolean";
    case "enum":
      return "character varying(64)";
  }
}

/** The column default: the field's default, or its type's zero. */
function defaultSql(field: Pick<GenField, "type" | "default">): RawBuilder<unknown> {
  const v = field.default;
  switch (field.type) {
    case "string":
    case "text":
    case "enum":
      return literal(v);
    case "int":
    case "bigint":
    case "datetime":
      return sql.lit(v === "" ? 0 : Number.parseInt(v, 10));
    case "decimal":
      // Written as typed (two decimals at most): a JS number would print 0.1 + 0.2's digits.
      return sql.raw(v !== "" && /^-?\d{1,20}(\.\d{1,2})?$/.test(v) ? v : "0");
    case "bool":
      return sql.lit(v === "1" || v === "true");
  }
}

const typeSql = (field: Pick<GenField, "type" | "length">) => sql.raw(sqlType(field));
const columnSql = (field: GenField) => sql`${ident(field.name)} ${typeSql(field)} not null default ${defaultSql(field)}`;

/** An index's name: `<table>_<column>_key` (unique: the engine names the field of a clash) or `_idx`, shortened to PostgreSQL's 63. */
export function indexName(table: string, column: string, unique: boolean): string {
  const suffix = unique ? "key" : "idx";
  const full = `${table}_${column}_${suffix}`;
  if (full.length <= 63) return full;
  return `${table.slice(0, 45)}_${createHash("sha256").update(column).digest("hex").slice(0, 12)}_${suffix}`;
}

export interface TableState {
  exists: boolean;
  /** Column name -> its `format_type`. */
  columns: Map<string, string>;
  /** Index names other than the primary key's, and which of them are unique constraints. */
  indexes: Set<string>;
  constraints: Set<string>;
}

export async function tableState(db: Queryable, table: string): Promise<TableState> {
  if (!(await relationExists(db, table))) return { exists: false, columns: new Map(), indexes: new Set(), constraints: new Set() };
  const columns = await tableColumns(db, table);
  const indexes = await tableIndexNames(db, table);
  const constraints = await tableUniqueConstraints(db, table);
  return {
    exists: true,
    columns: new Map(columns.map((c) => [c.name, c.type])),
    indexes: new Set(indexes),
    constraints: new Set(constraints),
  };
}

const MANAGED: Record<(typeof GEN_RESERVED_COLUMNS)[number], RawBuilder<unknown>> = {
  id: sql`"id" serial primary key`,
  weigh: sql`"weigh" integer not null default 0`,
  create_time: sql`"create_time" bigint not null default extract(epoch from now())::bigint`,
  update_time: sql`"update_time" bigint not null default 0`,
};

/**
 * The statements that make the table fit the design: `create table` for a new one; for an
 * existing one (a design generated before, or a `gen_` table kept after its design was deleted)
 * the columns to drop (listed in `drops`: the caller asks for a confirmation), add and convert,
 * defaults, comments and indexes. `before` (the design generated last) keeps unchanged defaults
 * and comments out of the plan. `table`: the table's name when it is not the generator's own
 * `gen_<name>` (a module's table, modules/market).
 */
export function planOf(design: GenDesign, state: TableState, before: GenDesign | null, table = tableOf(design)): GeneratePlan {
  const t = ident(table);
  const pieces: RawBuilder<unknown>[] = [];
  const drops: string[] = [];
  const wantedIndexes = new Map<string, { column: string; unique: boolean }>();
  for (const field of design.fields) {
    if (field.index !== "none") wantedIndexes.set(indexName(table, field.name, field.index === "unique"), { column: field.name, unique: field.index === "unique" });
  }
  const comments = (changed: (field: GenField) => boolean) => {
    for (const field of design.fields) if (changed(field)) pieces.push(sql`comment on column ${t}.${ident(field.name)} is ${literal(field.comment)}`);
  };

  if (!state.exists) {
    const columns = [MANAGED.id, ...design.fields.map(columnSql), MANAGED.weigh, MANAGED.create_time, MANAGED.update_time];
    pieces.push(sql`create table ${t} (\n  ${sql.join(columns, sql`,\n  `)}\n)`);
    pieces.push(sql`comment on table ${t} is ${literal(design.title)}`);
    comments((f) => f.comment !== "");
  } else {
    const wanted = new Set<string>([...GEN_RESERVED_COLUMNS, ...design.fields.map((f) => f.name)]);
    for (const name of state.indexes) {
      if (wantedIndexes.has(name)) continue;
      pieces.push(state.constraints.has(name) ? sql`alter table ${t} drop constraint ${ident(name)}` : sql`drop index ${ident(name)}`);
    }
    for (const column of state.columns.keys()) {
      if (wanted.has(column)) continue;
      drops.push(column);
      pieces.push(sql`alter table ${t} drop column ${ident(column)}`);
    }
    for (const managed of GEN_RESERVED_COLUMNS) {
      if (!state.columns.has(managed)) pieces.push(sql`alter table ${t} add column ${MANAGED[managed]}`);
    }
    const old = new Map((before?.fields ?? []).map((f) => [f.name, f]));
    for (const field of design.fields) {
      const c = ident(field.name);
      const type = state.columns.get(field.name);
      if (type === undefined) {
        pieces.push(sql`alter table ${t} add column ${columnSql(field)}`);
        if (field.comment !== "") pieces.push(sql`comment on column ${t}.${c} is ${literal(field.comment)}`);
        continue;
      }
      const prev = old.get(field.name);
      const retyped = type !== sqlType(field);
      if (retyped) {
        pieces.push(sql`alter table ${t} alter column ${c} drop default`);
        pieces.push(sql`alter table ${t} alter column ${c} type ${typeSql(field)} using ${c}::${typeSql(field)}`);
      }
      if (retyped || !prev || prev.default !== field.default || prev.type !== field.type) {
        pieces.push(sql`alter table ${t} alter column ${c} set default ${defaultSql(field)}`);
        pieces.push(sql`update ${t} set ${c} = default where ${c} is null`);
        pieces.push(sql`alter table ${t} alter column ${c} set not null`);
      }
      if (!prev || prev.comment !== field.comment) pieces.push(sql`comment on column ${t}.${c} is ${literal(field.comment)}`);
    }
    if (!before || before.title !== design.title) pieces.push(sql`comment on table ${t} is ${literal(design.title)}`);
  }
  for (const [name, { column, unique }] of wantedIndexes) {
    if (state.indexes.has(name)) continue;
    pieces.push(unique ? sql`alter table ${t} add constraint ${ident(name)} unique (${ident(column)})` : sql`create index ${ident(name)} on ${t} (${ident(column)})`);
  }
  return { table, exists: state.exists, statements: pieces.map(fixedText), drops };
}
