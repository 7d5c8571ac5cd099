import type { z } from "zod";
import type { FieldDecl, ResourceDecl } from "../../../shared/admin/fields.ts";
import type { Queryable } from "../../db/index.ts";
import type { ExtraAction, FieldDef, Join, ResourceDef } from "../resource.ts";

/** A shared declaration as the engine's field: its SQL column and what a search may do with it (labels are the screen's). */
export function fieldDef(column: string, decl: FieldDecl): FieldDef {
  return {
    column,
    type: decl.type,
    ...(decl.values ? { values: decl.values } : {}),
    ...(decl.operators ? { operators: decl.operators } : {}),
  };
}

/**
 * The part of a resource its shared declaration (shared/admin/resources/) makes: rule, title (the
 * admin log's, where it has its own), list fields, quick search, reorder and tree. A field is the column of the same name of the table
 * (`t`) unless `columns` gives its SQL (a joined table's column, an expression).
 */
export function declared<F extends string>(
  decl: ResourceDecl<F>,
  columns: Partial<Record<F, string>> = {},
): Pick<ResourceDef, "rule" | "title" | "fields" | "quickSearch" | "sortable" | "tree"> {
  const own: Partial<Record<string, string>> = columns;
  const fields = Object.fromEntries(Object.entries<FieldDecl>(decl.fields).map(([name, field]) => [name, fieldDef(own[name] ?? `t.${name}`, field)]));
  return {
    rule: decl.rule,
    title: decl.logTitle ?? decl.title,
    fields,
    quickSearch: decl.quickSearch.fields,
    ...(decl.sortable ? { sortable: true } : {}),
    ...(decl.tree ? { tree: true } : {}),
  };
}

/** A join of the list to another table's row by its id: `left join <table> <alias> on <alias>.id = <key>` (`key`: e.g. `t.user_id`). */
export function joinById(table: string, alias: string, key: string): Join {
  return { table, alias, on: [`${alias}.id`, key] };
}

/** A resource whose rows an admin adds, edits and deletes: its add and edit bodies' schemas; `touch` when its table has `update_time`. */
export function addEditDelete(add: z.ZodType, edit: z.ZodType, { touch = false } = {}): Pick<ResourceDef, "add" | "edit" | "del" | "touch"> {
  return { add, edit, del: true, ...(touch ? { touch } : {}) };
}

/** A GET action that answers what `read` finds for the row its query names by `id` (its list of overrides, its results...). */
export function readById(input: z.ZodType, read: (tx: Queryable, id: number) => Promise<unknown>): ExtraAction {
  return { method: "GET", input, run: (ctx, query) => read(ctx.tx, (query as { id: number }).id) };
}
