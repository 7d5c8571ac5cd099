import type { MessageDescriptor } from "@lingui/core";
import { STANDARD_FIELDS, type FieldDecl } from "./fields.ts";

/**
 * A category tree of the back office (course categories, question banks): rows by `pid`,
 * reordered by weigh, a name and an English name, perhaps one choice of its own (a bank's
 * kind). Declared once here; the server's resource (crud/resources/categoryTree.ts) and the
 * client's screen (admin/crud/categoryTree.ts) are made from it.
 */
export interface CategoryTreeOptions {
  /** The rule path, e.g. "course/category". */
  rule: string;
  table: string;
  title: MessageDescriptor;
  /** The row's name and English name in this tree's words, its parent and the quick search box. */
  labels: { title: MessageDescriptor; title_en: MessageDescriptor; parent: MessageDescriptor; quickSearch: MessageDescriptor };
  /** A choice of this tree's own, after the English name: listed, searched, and set by the form. */
  choice?: { field: string; values: readonly string[]; label: MessageDescriptor; initial: string };
}

export interface CategoryTree extends CategoryTreeOptions {
  /** The list's fields in order: every one is a column of the table. */
  fields: Record<string, FieldDecl>;
  quickSearch: readonly string[];
  selectFields: readonly string[];
}

export function categoryTree(options: CategoryTreeOptions): CategoryTree {
  const { choice } = options;
  return {
    ...options,
    fields: {
      id: STANDARD_FIELDS.id,
      pid: STANDARD_FIELDS.pid,
      title: { type: "text" },
      title_en: { type: "text" },
      ...(choice ? { [choice.field]: { type: "enum", values: choice.values } } : {}),
      weigh: STANDARD_FIELDS.weigh,
      status: STANDARD_FIELDS.status,
      create_time: STANDARD_FIELDS.create_time,
      update_time: STANDARD_FIELDS.update_time,
    },
    quickSearch: ["id", "title", "title_en"],
    selectFields: ["id", "pid", "title", "title_en"],
  };
}
