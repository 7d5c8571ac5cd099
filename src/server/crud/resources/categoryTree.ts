import type { MessageDescriptor } from "@lingui/core";
import type { z } from "zod";
import type { CategoryTree } from "../../../shared/admin/categoryTree.ts";
import type { FieldDef, ResourceDef, ResourceHooks } from "../resource.ts";
import { fieldDef } from "./fields.ts";

/**
 * The resource of a category tree (shared/admin/categoryTree.ts): a tree by pid, sortable by
 * weigh, newest weigh first, read by company admins but changed only by the platform's.
 */
export function categoryTreeResource(
  tree: CategoryTree,
  own: { childrenRefusal: MessageDescriptor; add: z.ZodType; edit: z.ZodType; touch?: boolean; hooks?: ResourceHooks },
): ResourceDef {
  const fields: Record<string, FieldDef> = Object.fromEntries(Object.entries(tree.fields).map(([name, decl]) => [name, fieldDef(`t.${name}`, decl)]));
  return {
    rule: tree.rule,
    title: tree.title,
    table: tree.table,
    fields,
    quickSearch: tree.quickSearch,
    selectFields: tree.selectFields,
    defaultOrder: ["weigh", "desc"],
    tree: true,
    childrenRefusal: own.childrenRefusal,
    company: "read",
    sortable: true,
    editColumns: Object.keys(fields),
    add: own.add,
    edit: own.edit,
    del: true,
    ...(own.touch ? { touch: true } : {}),
    ...(own.hooks ? { hooks: own.hooks } : {}),
  };
}
