import { msg } from "@lingui/core/macro";
import { courseCategoryAdd, courseCategoryEdit } from "../../../shared/admin/courses.ts";
import { STATUS_OPTIONS } from "../auth/options.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { categoryTitle } from "./cells.tsx";

/** Course categories (course/category): a tree by parent, reordered by weigh. */
const categories: CrudDefinition = {
  path: "course/category",
  title: msg`Course categories`,
  quickSearch: msg`ID, name`,
  tree: true,
  sortable: true,
  pageSize: 100,
  columns: [
    { field: "title", label: msg`Name`, search: "text" },
    { field: "title_en", label: msg`English name`, search: "text" },
    { field: "weigh", label: msg`Weight`, render: "number" },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "update_time", label: msg`Updated`, render: "datetime", hidden: true },
    { field: "id", label: msg`ID`, render: "number", hidden: true },
  ],
  form: [
    { field: "pid", label: msg`Parent category`, kind: "treeSelect", tree: { path: "course/category", label: categoryTitle } },
    { field: "title", label: msg`Name`, kind: "text" },
    { field: "title_en", label: msg`English name`, kind: "text" },
    { field: "weigh", label: msg`Weight`, kind: "number", initial: 0, hint: msg`Higher comes first` },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: courseCategoryAdd,
  editSchema: courseCategoryEdit.omit({ id: true }),
};

export default categories;
