import { msg } from "@lingui/core/macro";
import { lessonAdd, lessonEdit, NO_VIDEO } from "../../../shared/admin/courses.ts";
import { lessonDecl } from "../../../shared/admin/resources/courses.ts";
import { WEIGH_AND_STATUS, declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { AttachmentsField } from "./AttachmentsField.tsx";
import { durationCell } from "./cells.tsx";
import { LessonVideoField } from "./LessonVideoField.tsx";

/** Lessons (course/lesson): course, title, rich-text content, video upload, attachments, free preview, weigh. */
const lessons: CrudDefinition = {
  ...declaredScreen(lessonDecl, { course_id: (row) => String(row.course_title ?? ""), duration: durationCell }),
  form: declaredForm(lessonDecl, [
    { field: "course_id", kind: "remoteSelect", remote: { path: "course/course", labelField: "title" } },
    { field: "title", kind: "text" },
    { field: "video", viaHook: true, label: msg`Video`, kind: "custom", component: LessonVideoField, initial: NO_VIDEO },
    { field: "content", label: msg`Content`, kind: "richText" },
    { field: "attachments", label: msg`Attachments`, kind: "custom", component: AttachmentsField, initial: [] },
    { field: "free_preview", kind: "switch", boolean: true, hint: msg`Everyone may watch it, without enrolling` },
    ...WEIGH_AND_STATUS,
  ]),
  schema: lessonAdd,
  editSchema: lessonEdit.omit({ id: true }),
};

export default lessons;
