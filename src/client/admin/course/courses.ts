import { msg } from "@lingui/core/macro";
import { courseAdd, courseEdit } from "../../../shared/admin/courses.ts";
import { STATUS_OPTIONS } from "../auth/options.ts";
import { assignmentFields } from "../org/fields.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { categoryCell, categoryTitle, coverCell, priceCell } from "./cells.tsx";
import { CourseLessons } from "./CourseLessons.tsx";
import { MoneyField } from "./MoneyField.tsx";

/** Courses (course/course): category, cover, price (cents, typed as money), summary, rich-text introduction; the edit form lists the lessons. */
const courses: CrudDefinition = {
  path: "course/course",
  title: msg`Courses`,
  quickSearch: msg`ID, title, summary`,
  sortable: true,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true, hidden: true },
    { field: "cover", label: msg`Cover`, cell: coverCell },
    { field: "title", label: msg`Title`, sortable: true, search: "text" },
    { field: "category_id", label: msg`Category`, cell: categoryCell, search: "select", remote: { path: "course/category", labelField: "title" } },
    { field: "price", label: msg`Price`, cell: priceCell, sortable: true },
    { field: "lesson_count", viaHook: true, label: msg`Lessons`, render: "number" },
    { field: "weigh", label: msg`Weight`, render: "number", sortable: true, hidden: true },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "update_time", label: msg`Updated`, render: "datetime", sortable: true, hidden: true },
  ],
  form: [
    { field: "category_id", label: msg`Category`, kind: "treeSelect", tree: { path: "course/category", label: categoryTitle }, placeholder: msg`Choose a category` },
    { field: "title", label: msg`Title`, kind: "text" },
    { field: "cover", label: msg`Cover`, kind: "image", topic: "course" },
    { field: "price", label: msg`Price`, kind: "custom", component: MoneyField, initial: 0, hint: msg`In yuan, e.g. 19.90; 0 makes the course free` },
    { field: "summary", label: msg`Summary`, kind: "textarea" },
    { field: "introduction", label: msg`Introduction`, kind: "richText" },
    { field: "weigh", label: msg`Weight`, kind: "number", initial: 0, hint: msg`Higher comes first` },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
    ...assignmentFields,
    { field: "id", label: msg`Lessons`, kind: "custom", component: CourseLessons, only: "edit" },
  ],
  schema: courseAdd,
  editSchema: courseEdit.omit({ id: true }),
};

export default courses;
