import { msg } from "@lingui/core/macro";
import { declareResource, enumField, NAME_SEARCH, STANDARD_FIELDS, standardColumns, standardDecls, type FieldOption } from "../fields.ts";

/** Face rules and the face review of official attempts, as both sides list them. */

export const FACE_ACTIONS: readonly FieldOption[] = [
  { value: "stop", label: msg`Stop the attempt` },
  { value: "flag", label: msg`Flag it for review` },
];

/** An attempt's face outcome. */
export const FACE_FLAGS: readonly FieldOption[] = [
  { value: "none", label: msg`No problem` },
  { value: "flagged", label: msg`Flagged for review` },
  { value: "stopped", label: msg`Stopped` },
  { value: "reviewed", label: msg`Reviewed` },
];

/** Face rules (org/faceRule): when an official exam checks the member's face, how closely, and what repeated failures do; how many rooms use each, from the list hook. */
export const faceRuleDecl = declareResource({
  rule: "org/faceRule",
  title: msg`Face rules`,
  fields: {
    name: STANDARD_FIELDS.name,
    before_start: { type: "bool", label: msg`Before the start` },
    every_minutes: { type: "int", label: msg`Every (minutes)` },
    random_count: { type: "int", label: msg`At random (times)` },
    threshold: { type: "int", label: msg`Similarity needed` },
    liveness: { type: "bool", label: msg`Liveness` },
    max_failures: { type: "int", label: msg`Failures allowed` },
    action: enumField(FACE_ACTIONS, msg`Then`),
    ...standardDecls("status", "create_time"),
  },
  quickSearch: NAME_SEARCH,
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "name", search: "text", sortable: true },
    { field: "before_start", render: "switch" },
    { field: "every_minutes" },
    { field: "random_count" },
    { field: "threshold", render: "number" },
    { field: "liveness", render: "switch" },
    { field: "max_failures", render: "number" },
    { field: "action", render: "tag", search: "select" },
    { hook: "rooms", label: msg`Rooms`, render: "number" },
    ...standardColumns({ status: { search: true } }),
  ],
});

/** Official attempts of rooms with a face rule (exam/faceReview): their checks, failures and flag. */
export const faceReviewDecl = declareResource({
  rule: "exam/faceReview",
  title: msg`Face review`,
  fields: {
    id: { ...STANDARD_FIELDS.id, label: msg`Attempt` },
    user_id: { type: "int" },
    username: { type: "text", label: msg`Member` },
    room_id: { type: "int" },
    room_title: { type: "text", label: msg`Room` },
    status: { type: "enum", values: ["open", "submitted", "expired"] },
    started_at: { type: "time", label: msg`Started` },
    face_failures: { type: "int", label: msg({ message: "Failed", context: "face checks failed" }) },
    face_flag: enumField(FACE_FLAGS, msg`Face check`),
    checks: { type: "int", label: msg`Checks` },
    missed: { type: "int", label: msg({ message: "Missed", context: "face checks missed" }) },
    min_similarity: { type: "int", label: msg`Lowest similarity` },
  },
  quickSearch: { fields: ["id", "username", "room_title"], label: msg`ID, member, room` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "username", search: "text" },
    { field: "room_title", search: "text" },
    { field: "started_at", render: "datetime", sortable: true, search: "datetime" },
    { field: "checks", render: "number" },
    { field: "face_failures", render: "number", sortable: true },
    { field: "missed", render: "number" },
    { field: "min_similarity" },
    { field: "face_flag", render: "tag", search: "select" },
  ],
});
