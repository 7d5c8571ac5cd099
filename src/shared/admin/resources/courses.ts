import { msg } from "@lingui/core/macro";
import { declareResource, enumField, refFields, standardColumns, standardDecls, YES_NO_OPTIONS } from "../fields.ts";

/** Courses (course/course): category, cover, title, summary, price in cents; a lesson count from the list hook. */
export const courseDecl = declareResource({
  rule: "course/course",
  title: msg`Courses`,
  fields: {
    ...refFields("category", "title", msg`Category`),
    category_title_en: { type: "text" },
    title: { type: "text", label: msg`Title` },
    cover: { type: "text", label: msg`Cover` },
    summary: { type: "text", label: msg`Summary` },
    price: { type: "bigint", label: msg`Price`, cents: true },
    ...standardDecls("weigh", "status", "create_time", "update_time"),
  },
  quickSearch: { fields: ["id", "title", "summary"], label: msg`ID, title, summary` },
  sortable: true,
  columns: [
    ...standardColumns({ id: { sortable: true, hidden: true } }),
    { field: "cover" },
    { field: "title", sortable: true, search: "text", card: "title" },
    { field: "category_id", search: "select", remote: { path: "course/category", labelField: "title" } },
    { field: "price", sortable: true },
    { hook: "lesson_count", label: msg`Lessons`, render: "number" },
    ...standardColumns({ weigh: { sortable: true, hidden: true }, status: { search: true }, update_time: { sortable: true, hidden: true } }),
  ],
});

/** Lessons (course/lesson): course, title, video kind, size and length, free preview. */
export const lessonDecl = declareResource({
  rule: "course/lesson",
  title: msg`Lessons`,
  fields: {
    ...refFields("course", "title", msg`Course`),
    title: { type: "text", label: msg`Title` },
    video_type: enumField(
      [
        { value: "", label: msg`Text` },
        { value: "mp4", label: msg`MP4` },
        { value: "webm", label: msg`WebM` },
        { value: "hls", label: msg`HLS` },
      ],
      msg`Video`,
    ),
    video_size: { type: "bigint" },
    duration: { type: "int", label: msg`Length` },
    free_preview: { type: "bool", label: msg`Free preview`, options: YES_NO_OPTIONS },
    ...standardDecls("weigh", "status", "create_time", "update_time"),
  },
  quickSearch: { fields: ["id", "title", "course_title"], label: msg`ID, title, course` },
  sortable: true,
  columns: [
    ...standardColumns({ id: { sortable: true, hidden: true } }),
    { field: "title", sortable: true, search: "text" },
    { field: "course_id", search: "select", remote: { path: "course/course", labelField: "title" } },
    { field: "video_type", render: "tag", search: "select" },
    { field: "duration", sortable: true },
    { field: "free_preview", render: "tag" },
    ...standardColumns({ weigh: { sortable: true, hidden: true }, status: { search: true }, update_time: { sortable: true, hidden: true } }),
  ],
});
