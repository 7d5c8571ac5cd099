import { STANDARD_FIELDS, type FieldDecl, type StandardField } from "../../../shared/admin/fields.ts";
import type { FieldDef } from "../resource.ts";

/**
 * The standard columns of a resource's table (`t`), in the order named: the list (and so the
 * response's keys) keeps the order of `fields`, so a resource spreads them where they were.
 * `standardFields("weigh", "status", "create_time", "update_time")`.
 */
export function standardFields<K extends StandardField>(...names: K[]): Record<K, FieldDef> {
  const decls: Record<StandardField, FieldDecl> = STANDARD_FIELDS;
  return Object.fromEntries(names.map((name): [K, FieldDef] => [name, { column: `t.${name}`, ...decls[name] }])) as Record<K, FieldDef>;
}
