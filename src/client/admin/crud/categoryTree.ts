import { msg } from "@lingui/core/macro";
import type { z } from "zod";
import type { CategoryTree } from "../../../shared/admin/categoryTree.ts";
import { STATUS_OPTIONS } from "../auth/options.ts";
import type { CrudColumn, CrudDefinition, CrudFormField, CrudOption, CrudRow } from "./types.ts";

/**
 * The screen of a category tree (shared/admin/categoryTree.ts): its rows expanded by parent,
 * reordered by weigh; the tree's own columns and form fields come after its choice.
 */
export function categoryTreeDefinition(
  tree: CategoryTree,
  own: {
    /** A row's name in the UI language (the parent picker's labels). */
    rowLabel: (row: CrudRow, locale: string) => string;
    /** The labels of the tree's choice's values. */
    choiceOptions?: CrudOption[];
    columns?: CrudColumn[];
    form?: CrudFormField[];
    weighHint?: CrudFormField["hint"];
    schema: z.ZodType;
    editSchema: z.ZodType;
  },
): CrudDefinition {
  const { labels, choice } = tree;
  return {
    path: tree.rule,
    title: tree.title,
    quickSearch: labels.quickSearch,
    tree: true,
    sortable: true,
    pageSize: 100,
    columns: [
      { field: "title", label: labels.title, search: "text" },
      { field: "title_en", label: labels.title_en, search: "text" },
      ...(choice ? [{ field: choice.field, label: choice.label, render: "tag", options: own.choiceOptions, search: "select" } satisfies CrudColumn] : []),
      ...(own.columns ?? []),
      { field: "weigh", label: msg`Weight`, render: "number" },
      { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
      { field: "update_time", label: msg`Updated`, render: "datetime", hidden: true },
      { field: "id", label: msg`ID`, render: "number", hidden: true },
    ],
    form: [
      { field: "pid", label: labels.parent, kind: "treeSelect", tree: { path: tree.rule, label: own.rowLabel } },
      { field: "title", label: labels.title, kind: "text" },
      { field: "title_en", label: labels.title_en, kind: "text" },
      ...(choice ? [{ field: choice.field, label: choice.label, kind: "radio", options: own.choiceOptions, initial: choice.initial } satisfies CrudFormField] : []),
      { field: "weigh", label: msg`Weight`, kind: "number", initial: 0, ...(own.weighHint ? { hint: own.weighHint } : {}) },
      { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
      ...(own.form ?? []),
    ],
    schema: own.schema,
    editSchema: own.editSchema,
  };
}
