import { msg } from "@lingui/core/macro";
import { createElement } from "react";
import { ChartColumn, RefreshCw, UserPlus } from "lucide-react";
import { roomAdd } from "../../../shared/admin/rooms.ts";
import { roomDecl } from "../../../shared/admin/resources/exam.ts";
import { declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { assignmentFields, companyField } from "../org/fields.ts";
import { MinutesField, RoomPaperField } from "./RoomFields.tsx";
import { RoomResults } from "./RoomResults.tsx";
import { RoomRegrade } from "./RoomRegrade.tsx";
import { RoomOverrides } from "./RoomOverrides.tsx";
import { RoomNotes, RoomWithholdingField } from "./RoomWithholding.tsx";

/** Exam rooms (`exam/room`): a paper, its open window, time, attempts, pass mark, who may sit it, what members see after; results per room. */
const rooms: CrudDefinition = {
  ...declaredScreen(roomDecl, {
    paper_id: (r) => String(r.paper_title ?? r.paper_id),
    notes: (r) => createElement(RoomNotes, { row: r }),
    company_id: (r) => String(r.company_name ?? "–"),
    group_name: (r) => String(r.group_name ?? "–"),
    face_rule_id: (r) => String(r.face_rule_name ?? "–"),
  }),
  form: declaredForm(roomDecl, [
    { field: "title", kind: "text" },
    {
      field: "paper_id",
      kind: "custom",
      component: RoomPaperField,
      initial: null,
      hint: msg`Picking a paper fills in its time and pass score; fixed once members have sat the room`,
    },
    { field: "start_time", kind: "datetime" },
    { field: "end_time", kind: "datetime" },
    { field: "duration", kind: "custom", component: MinutesField, initial: 3600 },
    { field: "attempts_allowed", kind: "number", initial: 1, hint: msg`Extra time or attempts for a member or a group: the row action "Overrides"` },
    {
      field: "shuffle_questions",
      kind: "switch",
      boolean: true,
      hint: msg`Each attempt gets the questions in its own random order (kept when the member resumes)`,
    },
    { field: "pass_score", kind: "number", initial: 60, hint: msg`At most the paper's total` },
    { field: "user_group_id", kind: "remoteSelect", remote: { path: "user/group", labelField: "name" } },
    companyField(msg`Company (empty: the whole organisation)`),
    ...assignmentFields,
    { field: "review_policy", label: msg`Members see the answers`, kind: "radio", initial: "closed" },
    { field: "late_policy", kind: "radio", initial: "review" },
    { field: "face_rule_id", label: msg`Face rule (empty: no face checks)`, kind: "remoteSelect", remote: { path: "org/faceRule", labelField: "name" }, hint: msg`When and how the member's face is checked during the exam` },
    { field: "status", kind: "radio", initial: "enable" },
    { field: "confirm_withhold", viaHook: true, label: msg`Practice and mock papers`, kind: "custom", component: RoomWithholdingField, initial: false },
  ]),
  schema: roomAdd,
  rowActions: [
    { key: "results", label: msg`Results`, icon: ChartColumn, action: "results", component: RoomResults, size: "xl" },
    { key: "regrade", label: msg`Regrade`, icon: RefreshCw, action: "regrade", component: RoomRegrade, size: "lg" },
    { key: "overrides", label: msg`Overrides`, icon: UserPlus, action: "overrides", component: RoomOverrides, size: "lg" },
  ],
};

export default rooms;
