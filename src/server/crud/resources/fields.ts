import { STANDARD_FIELDS, type FieldDecl, type ResourceDecl, type StandardField } from "../../../shared/admin/fields.ts";
import type { FieldDef, ResourceDef } from "../resource.ts";

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
 * The standard columns of a resource's table (`t`), in the order named: the list (and so the
 * response's keys) keeps the order of `fields`, so a resource spreads them where they were.
 * `standardFields("weigh", "status", "create_time", "update_time")`.
 */
export function standardFields<K extends StandardField>(...names: K[]): Record<K, FieldDef> {
  const decls: Record<StandardField, FieldDecl> = STANDARD_FIELDS;
  return Object.fromEntries(names.map((name): [K, FieldDef] => [name, fieldDef(`t.${name}`, decls[name])])) as Record<K, FieldDef>;
}

/**
 * The part of a resource its shared declaration (shared/admin/resources/) makes: rule, title,
 * list fields, quick search, reorder and tree. A field is the column of the same name of the table
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
    title: decl.title,
    fields,
    quickSearch: decl.quickSearch.fields,
    ...(decl.sortable ? { sortable: true } : {}),
    ...(decl.tree ? { tree: true } : {}),
  };
}
