import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { ReactNode } from "react";
import type { FieldDecl, ResourceDecl } from "../../../shared/admin/fields.ts";
import type { CrudColumn, CrudDefinition, CrudFormField, CrudRow } from "./types.ts";

/**
 * A screen's list made from its resource's shared declaration (shared/admin/resources/): the
 * columns in the declaration's order, each with its field's label and options; what only the
 * screen knows (a custom cell) is attached by field name.
 */

/** Custom cells of a declared list, by field (or hook) name. */
export type DeclaredCells = Partial<Record<string, (row: CrudRow) => ReactNode>>;

const copy = <T,>(values: readonly T[] | undefined): T[] | undefined => (values ? [...values] : undefined);

export function declaredColumns<F extends string>(decl: ResourceDecl<F>, cells: DeclaredCells = {}): CrudColumn[] {
  const fields: Record<string, FieldDecl> = decl.fields;
  return decl.columns.map((column): CrudColumn => {
    if ("hook" in column) {
      const { hook, options, ...rest } = column;
      const cell = cells[hook];
      return { field: hook, viaHook: true, ...rest, ...(options ? { options: copy(options) } : {}), ...(cell ? { cell } : {}) };
    }
    const { field: name, label, ...behaviour } = column;
    const field = fields[name]!;
    const shown = label ?? field.label;
    if (!shown) throw new Error(`${decl.rule}: the column ${name} has no label (neither its own nor its field's)`);
    const cell = cells[name];
    return { field: name, label: shown, ...behaviour, ...(field.options ? { options: copy(field.options) } : {}), ...(cell ? { cell } : {}) };
  });
}

/** The part of a screen its resource's declaration makes: path, title, quick search box, reorder, tree and the list's columns. */
export function declaredScreen<F extends string>(
  decl: ResourceDecl<F>,
  cells: DeclaredCells = {},
): Pick<CrudDefinition, "path" | "title" | "quickSearch" | "sortable" | "tree" | "columns"> {
  return {
    path: decl.rule,
    title: decl.title,
    ...(decl.quickSearch.label ? { quickSearch: decl.quickSearch.label } : {}),
    ...(decl.sortable ? { sortable: true } : {}),
    ...(decl.tree ? { tree: true } : {}),
    columns: declaredColumns(decl, cells),
  };
}

/** A form field of a declared field: its label (unless given) and, for choices, its options (unless given). */
export type DeclaredFormField<F extends string> = { field: F; label?: MessageDescriptor } & Omit<CrudFormField, "field" | "label">;

/** A reorderable resource's last form fields: its weigh (higher comes first) and its status (a new row enabled). */
export const WEIGH_AND_STATUS = [
  { field: "weigh", kind: "number", initial: 0, hint: msg`Higher comes first` },
  { field: "status", kind: "radio", initial: "enable" },
] as const satisfies readonly DeclaredFormField<"weigh" | "status">[];

/**
 * The add/edit form's fields, those of the declaration taking its label and options; a field
 * the list does not have (content, a password, memberships) is written in full.
 */
export function declaredForm<F extends string>(decl: ResourceDecl<F>, form: readonly (DeclaredFormField<NoInfer<F>> | CrudFormField)[]): CrudFormField[] {
  const fields: Partial<Record<string, FieldDecl>> = decl.fields;
  return form.map((entry): CrudFormField => {
    const field = fields[entry.field];
    const label = entry.label ?? field?.label;
    if (!label) throw new Error(`${decl.rule}: the form field ${entry.field} has no label (neither its own nor its field's)`);
    const choices = (entry.kind === "radio" || entry.kind === "select") && !entry.options && field?.options;
    return { ...entry, label, ...(choices ? { options: copy(choices) } : {}) };
  });
}
