import { msg } from "@lingui/core/macro";
import { courseAdd, courseCategoryAdd, courseCategoryEdit, courseCategoryTree, courseEdit } from "../../../shared/admin/courses.ts";
import { courseDecl } from "../../../shared/admin/resources/courses.ts";
import { categoryTreeResource } from "./categoryTree.ts";
import { ApiError } from "../../errors.ts";
import { withSanitizedHtml } from "../richText.ts";
import type { ResourceDef } from "../resource.ts";
import { releaseLessonVideos } from "./attachment.ts";
import { assignmentHooks } from "./assignments.ts";
import { categoriesHaveCourses, coursesHaveEnrolments, lessonCounts, lessonsOfCourses } from "./course.repository.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";

/**
 * Course categories (`/admin/course/category/...`, a tree by pid, sortable by weigh) and courses
 * (`/admin/course/course/...`: category, cover, price in cents, status, summary, sanitised
 * rich-text introduction, weigh). Every edit sets `update_time` (the member's course detail
 * carries an ETag of what it shows, so a device's cached copy is replaced on its next online
 * visit: modules/course/routes.ts).
 */
export const courseCategoryResource: ResourceDef = categoryTreeResource(courseCategoryTree, {
  childrenRefusal: msg`Delete or move its sub-categories first`,
  add: courseCategoryAdd,
  edit: courseCategoryEdit,
  touch: true,
  hooks: {
    async beforeDelete(ctx, rows) {
      const ids = rows.map((r) => r.id as number);
      if (await categoriesHaveCourses(ctx.tx, ids)) throw new ApiError(msg`Move or delete the courses of this category first`);
    },
  },
});

export const courseResource: ResourceDef = {
  ...declared(courseDecl, { category_title: "c.title", category_title_en: "c.title_en" }),
  table: "course",
  joins: [joinById("course_category", "c", "t.category_id")],
  selectFields: ["id", "title"],
  defaultOrder: ["weigh", "desc"],
  editColumns: ["id", "category_id", "title", "cover", "summary", "introduction", "price", "weigh", "status", "create_time", "update_time"],
  ...addEditDelete(withSanitizedHtml(courseAdd, ["introduction"]), withSanitizedHtml(courseEdit, ["introduction"]), { touch: true }),
  company: "read",
  hooks: assignmentHooks("course", {
    async beforeDelete(ctx, rows) {
      // Enrolments are purchases: a course members joined is disabled, never deleted with them.
      if (await coursesHaveEnrolments(ctx.tx, rows.map((r) => r.id as number))) throw new ApiError(msg`Members are enrolled in this course: disable it instead of deleting it`);
      // Its lessons go with it (on delete cascade): their videos are let go once it committed.
      return lessonsOfCourses(ctx.tx, rows.map((r) => r.id as number));
    },
    async afterDelete(app, _rows, lessons) {
      await releaseLessonVideos(app, lessons);
    },
    async editRow(_ctx, row) {
      return { ...row, price: Number(row.price) };
    },
    async listRows(ctx, rows) {
      const ids = rows.map((r) => r.id as number);
      const counts = await lessonCounts(ctx.tx, ids);
      const byCourse = new Map(counts.map((c) => [c.course_id, c.n]));
      return rows.map((row) => ({ ...row, price: Number(row.price), lesson_count: byCourse.get(row.id as number) ?? 0 }));
    },
  }),
};
