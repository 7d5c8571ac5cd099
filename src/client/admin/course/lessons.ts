import { msg } from "@lingui/core/macro";
import { lessonAdd, lessonEdit, NO_VIDEO } from "../../../shared/admin/courses.ts";
import { STATUS_OPTIONS } from "../auth/options.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { AttachmentsField } from "./AttachmentsField.tsx";
import { durationCell } from "./cells.tsx";
import { LessonVideoField } from "./LessonVideoField.tsx";

const VIDEO_TYPES = [
  { value: "", label: msg`Text` },
  { value: "mp4", label: msg`MP4` },
  { value: "webm", label: msg`WebM` },
  { value: "hls", label: msg`HLS` },
];
const YES_NO = [
  { value: "true", label: msg`Yes` },
  { value: "false", label: msg`No` },
];

/** Lessons (course/lesson): course, title, rich-text content, video upload, attachments, free preview, weigh. */
const lessons: CrudDefinition = {
  path: "course/lesson",
  title: msg`Lessons`,
  quickSearch: msg`ID, title, course`,
  sortable: true,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true, hidden: true },
    { field: "title", label: msg`Title`, sortable: true, search: "text" },
    { field: "course_id", label: msg`Course`, cell: (row) => String(row.course_title ?? ""), search: "select", remote: { path: "course/course", labelField: "title" } },
    { field: "video_type", label: msg`Video`, render: "tag", options: VIDEO_TYPES, search: "select" },
    { field: "duration", label: msg`Length`, cell: durationCell, sortable: true },
    { field: "free_preview", label: msg`Free preview`, render: "tag", options: YES_NO },
    { field: "weigh", label: msg`Weight`, render: "number", sortable: true, hidden: true },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "update_time", label: msg`Updated`, render: "datetime", sortable: true, hidden: true },
  ],
  form: [
    { field: "course_id", label: msg`Course`, kind: "remoteSelect", remote: { path: "course/course", labelField: "title" } },
    { field: "title", label: msg`Title`, kind: "text" },
    { field: "video", viaHook: true, label: msg`Video`, kind: "custom", component: LessonVideoField, initial: NO_VIDEO },
    { field: "content", label: msg`Content`, kind: "richText" },
    { field: "attachments", label: msg`Attachments`, kind: "custom", component: AttachmentsField, initial: [] },
    { field: "free_preview", label: msg`Free preview`, kind: "switch", boolean: true, hint: msg`Everyone may watch it, without enrolling` },
    { field: "weigh", label: msg`Weight`, kind: "number", initial: 0, hint: msg`Higher comes first` },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: lessonAdd,
  editSchema: lessonEdit.omit({ id: true }),
};

export default lessons;
