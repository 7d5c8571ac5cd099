import { msg } from "@lingui/core/macro";
import { courseCategoryAdd, courseCategoryEdit, courseCategoryTree } from "../../../shared/admin/courses.ts";
import { categoryTreeDefinition } from "../crud/categoryTree.ts";
import { categoryTitle } from "./cells.tsx";

/** Course categories (course/category): a tree by parent, reordered by weigh. */
const categories = categoryTreeDefinition(courseCategoryTree, {
  rowLabel: categoryTitle,
  weighHint: msg`Higher comes first`,
  schema: courseCategoryAdd,
  editSchema: courseCategoryEdit.omit({ id: true }),
});

export default categories;
