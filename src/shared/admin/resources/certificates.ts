import { msg } from "@lingui/core/macro";
import { declareResource, enumField, standardColumns, standardDecls, type FieldOption } from "../fields.ts";

/** Certificate templates and issued certificates, as both sides list them. */

export const CERTIFICATE_STATES: readonly FieldOption[] = [
  { value: "valid", label: msg`Valid` },
  { value: "revoked", label: msg`Revoked` },
];

/** Templates (exam/certificateTemplate): one per exam room or course, with its wording, signature and colours. */
export const certificateTemplateDecl = declareResource({
  rule: "exam/certificateTemplate",
  title: msg`Certificate templates`,
  fields: {
    room_id: { type: "int", label: msg`Exam room` },
    room_title: { type: "text", label: msg`Exam room` },
    course_id: { type: "int", label: msg`Course` },
    course_title: { type: "text", label: msg`Course` },
    title: { type: "text", label: msg`Certificate title` },
    text_color: { type: "text", label: msg`Text colour` },
    accent_color: { type: "text", label: msg`Accent colour` },
    ...standardDecls("status", "update_time"),
  },
  quickSearch: { fields: ["id", "title", "room_title", "course_title"], label: msg`ID, title, room, course` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "title", search: "text", sortable: true, card: "title" },
    { field: "room_title", search: "text" },
    { field: "course_title", search: "text" },
    { field: "accent_color", hidden: true },
    ...standardColumns({ status: { search: true }, update_time: { sortable: true } }),
  ],
});

/** Issued certificates (exam/certificate): the snapshot, who it is for, revoked or not. */
export const certificateDecl = declareResource({
  rule: "exam/certificate",
  title: msg`Certificates`,
  fields: {
    serial: { type: "text", label: msg`Certificate number` },
    user_id: { type: "int" },
    username: { type: "text", label: msg`Member` },
    member_name: { type: "text", label: msg`Name on it` },
    title: { type: "text", label: msg`Certificate title` },
    room_id: { type: "int" },
    room_title: { type: "text", label: msg`Exam room` },
    course_id: { type: "int" },
    course_title: { type: "text", label: msg`Course` },
    score: { type: "int", label: msg`Score` },
    issued_at: { type: "time", label: msg`Issued` },
    state: enumField(CERTIFICATE_STATES, msg`State`),
    revoked_at: { type: "time", label: msg`Revoked` },
    revoked_reason: { type: "text", label: msg`Reason revoked` },
  },
  quickSearch: { fields: ["serial", "username", "member_name", "room_title", "course_title"], label: msg`Number, member, room, course` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "serial", search: "text", operator: "eq" },
    { field: "username", search: "text", card: "title" },
    { field: "member_name", search: "text" },
    { field: "title", search: "text" },
    { field: "room_title", search: "text" },
    { field: "course_title", search: "text" },
    { field: "score", render: "number" },
    { field: "issued_at", render: "datetime", sortable: true, search: "datetime" },
    { field: "state", render: "tag", search: "select" },
    { field: "revoked_reason", hidden: true },
  ],
});
