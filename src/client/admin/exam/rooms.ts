import { msg } from "@lingui/core/macro";
import { createElement } from "react";
import { ChartColumn, RefreshCw, UserPlus } from "lucide-react";
import { roomAdd } from "../../../shared/admin/rooms.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { LATE_POLICY_OPTIONS, REVIEW_POLICY_OPTIONS, STATUS_OPTIONS } from "./options.ts";
import { assignmentFields, companyField } from "../org/fields.ts";
import { MinutesField, RoomPaperField } from "./RoomFields.tsx";
import { RoomResults } from "./RoomResults.tsx";
import { RoomRegrade } from "./RoomRegrade.tsx";
import { RoomOverrides } from "./RoomOverrides.tsx";
import { RoomNotes, RoomWithholdingField } from "./RoomWithholding.tsx";

/** Exam rooms (`exam/room`): a paper, its open window, time, attempts, pass mark, who may sit it, what members see after; results per room. */
const rooms: CrudDefinition = {
  path: "exam/room",
  title: msg`Exam rooms`,
  quickSearch: msg`ID, title, paper`,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "title", label: msg`Title`, search: "text", sortable: true },
    { field: "paper_id", label: msg`Paper`, cell: (r) => String(r.paper_title ?? r.paper_id), search: "select", remote: { path: "exam/paper", labelField: "title" } },
    { field: "start_time", label: msg`Opens`, render: "datetime", sortable: true, search: "datetime" },
    { field: "end_time", label: msg`Closes`, render: "datetime", sortable: true },
    { field: "attempts", viaHook: true, label: msg`Attempts`, render: "number" },
    // Practice questions it keeps out and until when, a paper that no longer adds up, its overrides.
    { field: "notes", viaHook: true, label: msg`Notes`, cell: (r) => createElement(RoomNotes, { row: r }) },
    { field: "shuffle_questions", label: msg`Shuffle questions`, render: "switch", hidden: true },
    { field: "pass_score", label: msg`Pass score`, render: "number", hidden: true },
    { field: "company_id", label: msg`Company`, cell: (r) => String(r.company_name ?? "–"), search: "select", remote: { path: "org/company", labelField: "name" }, hidden: true },
    { field: "group_name", label: msg`Member group`, cell: (r) => String(r.group_name ?? "–"), hidden: true },
    { field: "review_policy", label: msg`Answers shown`, render: "tag", options: REVIEW_POLICY_OPTIONS, search: "select" },
    { field: "face_rule_id", label: msg`Face rule`, cell: (r) => String(r.face_rule_name ?? "–"), search: "select", remote: { path: "org/faceRule", labelField: "name" }, hidden: true },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
  ],
  form: [
    { field: "title", label: msg`Title`, kind: "text" },
    {
      field: "paper_id",
      label: msg`Paper`,
      kind: "custom",
      component: RoomPaperField,
      initial: null,
      hint: msg`Picking a paper fills in its time and pass score; fixed once members have sat the room`,
    },
    { field: "start_time", label: msg`Opens`, kind: "datetime" },
    { field: "end_time", label: msg`Closes`, kind: "datetime" },
    { field: "duration", label: msg`Time per attempt (minutes)`, kind: "custom", component: MinutesField, initial: 3600 },
    { field: "attempts_allowed", label: msg`Attempts allowed`, kind: "number", initial: 1, hint: msg`Extra time or attempts for a member or a group: the row action "Overrides"` },
    {
      field: "shuffle_questions",
      label: msg`Shuffle questions`,
      kind: "switch",
      boolean: true,
      hint: msg`Each attempt gets the questions in its own random order (kept when the member resumes)`,
    },
    { field: "pass_score", label: msg`Pass score`, kind: "number", initial: 60, hint: msg`At most the paper's total` },
    { field: "user_group_id", label: msg`Member group (empty: every member)`, kind: "remoteSelect", remote: { path: "user/group", labelField: "name" } },
    companyField(msg`Company (empty: the whole organisation)`),
    ...assignmentFields,
    { field: "review_policy", label: msg`Members see the answers`, kind: "radio", options: REVIEW_POLICY_OPTIONS, initial: "never" },
    { field: "late_policy", label: msg`Answers arriving after the deadline`, kind: "radio", options: LATE_POLICY_OPTIONS, initial: "review" },
    { field: "face_rule_id", label: msg`Face rule (empty: no face checks)`, kind: "remoteSelect", remote: { path: "org/faceRule", labelField: "name" }, hint: msg`When and how the member's face is checked during the exam` },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
    { field: "confirm_withhold", viaHook: true, label: msg`Practice and mock papers`, kind: "custom", component: RoomWithholdingField, initial: false },
  ],
  schema: roomAdd,
  rowActions: [
    { key: "results", label: msg`Results`, icon: ChartColumn, action: "results", component: RoomResults, size: "xl" },
    { key: "regrade", label: msg`Regrade`, icon: RefreshCw, action: "regrade", component: RoomRegrade, size: "lg" },
    { key: "overrides", label: msg`Overrides`, icon: UserPlus, action: "overrides", component: RoomOverrides, size: "lg" },
  ],
};

export default rooms;
