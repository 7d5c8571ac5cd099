import { msg } from "@lingui/core/macro";
import { courseAdd, courseEdit } from "../../../shared/admin/courses.ts";
import { courseDecl } from "../../../shared/admin/resources/courses.ts";
import { assignmentFields } from "../org/fields.ts";
import { WEIGH_AND_STATUS, declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { categoryCell, categoryTitle, coverCell, priceCell } from "./cells.tsx";
import { CourseLessons } from "./CourseLessons.tsx";
import { MoneyField } from "./MoneyField.tsx";

/** Courses (course/course): category, cover, price (cents, typed as money), summary, rich-text introduction; the edit form lists the lessons, adds, edits and deletes them. */
const courses: CrudDefinition = {
  ...declaredScreen(courseDecl, { cover: coverCell, category_id: categoryCell, price: priceCell }),
  form: declaredForm(courseDecl, [
    { field: "category_id", kind: "treeSelect", tree: { path: "course/category", label: categoryTitle }, placeholder: msg`Choose a category` },
    { field: "title", kind: "text" },
    { field: "cover", kind: "image", topic: "course" },
    { field: "price", kind: "custom", component: MoneyField, initial: 0, hint: msg`In yuan, e.g. 19.90; 0 makes the course free` },
    { field: "summary", kind: "textarea" },
    { field: "introduction", label: msg`Introduction`, kind: "richText" },
    ...WEIGH_AND_STATUS,
    ...assignmentFields,
    { field: "id", label: msg`Lessons`, kind: "custom", component: CourseLessons, only: "edit" },
    // The add form says where its lessons will be added: in this form, once saved.
    { field: "lessons", display: true, label: msg`Lessons`, kind: "custom", component: CourseLessons, only: "add" },
  ]),
  // Saving a new course keeps its form open (as the course's edit form), to add its lessons.
  editAfterAdd: true,
  schema: courseAdd,
  editSchema: courseEdit.omit({ id: true }),
};

export default courses;
