import { msg } from "@lingui/core/macro";
import { declareResource, STANDARD_FIELDS, standardColumns, type FieldOption } from "../fields.ts";

/** The folders uploads are kept in (an upload's `topic`), as staff read them; a module's own topic shows as it is. */
export const ATTACHMENT_TOPICS = [
  { value: "default", label: msg`General` },
  { value: "course", label: msg`Course` },
  { value: "course/hls", label: msg`Lesson video (HLS)` },
  { value: "question", label: msg`Question` },
  { value: "avatar", label: msg`Avatar` },
] as const satisfies readonly FieldOption[];

/** Uploaded files (routine/attachment): who uploaded each, how often, and what uses it (from the list hook). */
export const attachmentDecl = declareResource({
  rule: "routine/attachment",
  title: msg`Attachments`,
  fields: {
    topic: { type: "text", label: msg`Topic`, options: ATTACHMENT_TOPICS },
    admin_id: { type: "int" },
    user_id: { type: "int" },
    admin_username: { type: "text", label: msg`Uploaded by` },
    user_username: { type: "text" },
    url: { type: "text", label: msg`Preview` },
    width: { type: "int" },
    height: { type: "int" },
    name: STANDARD_FIELDS.name,
    size: { type: "bigint", label: msg`Size` },
    mimetype: { type: "text", label: msg`Type` },
    sha1: { type: "text" },
    storage: { type: "text" },
    quote: { type: "int", label: msg`Uploads` },
    create_time: STANDARD_FIELDS.create_time,
    last_upload_time: { type: "time", label: msg`Last uploaded` },
  },
  quickSearch: { fields: ["name", "mimetype", "topic"], label: msg`Name, type, topic` },
  columns: [
    ...standardColumns({ id: { sortable: true, hidden: true } }),
    { field: "url" },
    { field: "name", sortable: true, search: "text", card: "title" },
    { field: "size", sortable: true, search: "number" },
    { field: "mimetype", sortable: true, search: "text" },
    { field: "admin_username" },
    { field: "topic", render: "tag", search: "select" },
    // Shown on demand: the list must fit beside the side menu with its actions in view.
    { field: "quote", render: "number", sortable: true, hidden: true },
    { hook: "uses", label: msg`Used by` },
    { field: "last_upload_time", render: "datetime", sortable: true, search: "datetime" },
    ...standardColumns({ create_time: { sortable: true, search: true, hidden: true } }),
  ],
});
