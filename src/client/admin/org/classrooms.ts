import { msg } from "@lingui/core/macro";
import { Users } from "lucide-react";
import { classroomAdd } from "../../../shared/admin/org.ts";
import { STATUS_OPTIONS } from "../auth/options.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { ClassroomMembers } from "./ClassroomMembers.tsx";
import { companyField } from "./fields.ts";

/** Classrooms (org/classroom): company, head teacher, period, courses and exam rooms; members added and removed from each row. */
const classrooms: CrudDefinition = {
  path: "org/classroom",
  title: msg`Classrooms`,
  quickSearch: msg`ID, name, company, head teacher`,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "name", label: msg`Name`, search: "text", sortable: true },
    { field: "company_id", label: msg`Company`, cell: (r) => String(r.company_name ?? "–"), search: "select", remote: { path: "org/company", labelField: "name" } },
    { field: "head_admin_id", label: msg`Head teacher`, cell: (r) => String(r.head_name || r.head_username || "–") },
    { field: "member_count", viaHook: true, label: msg({ message: "Members", context: "classroom member count" }), render: "number" },
    { field: "start_time", label: msg`Starts`, render: "datetime", sortable: true, search: "datetime" },
    { field: "end_time", label: msg`Ends`, render: "datetime", sortable: true },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
  ],
  form: [
    { field: "name", label: msg`Name`, kind: "text" },
    companyField(),
    { field: "head_admin_id", label: msg`Head teacher`, kind: "remoteSelect", remote: { path: "org/headTeacher", labelField: "nickname", rowLabel: "head_label" }, hint: msg`A staff account that runs the class` },
    { field: "start_time", label: msg`Starts`, kind: "datetime" },
    { field: "end_time", label: msg`Ends`, kind: "datetime" },
    { field: "course_ids", viaHook: true, label: msg`Courses`, kind: "multiSelect", tree: { path: "course/course", label: "title" }, initial: [] },
    { field: "room_ids", viaHook: true, label: msg`Exam rooms`, kind: "multiSelect", tree: { path: "exam/room", label: "title" }, initial: [] },
    { field: "remark", label: msg`Remark`, kind: "textarea" },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: classroomAdd,
  rowActions: [{ key: "members", label: msg`Classroom members`, icon: Users, action: "members", component: ClassroomMembers, size: "lg" }],
};

export default classrooms;
