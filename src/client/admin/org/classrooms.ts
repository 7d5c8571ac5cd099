import { msg } from "@lingui/core/macro";
import { Users } from "lucide-react";
import { classroomAdd } from "../../../shared/admin/org.ts";
import { classroomDecl } from "../../../shared/admin/resources/org.ts";
import { declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { ClassroomMembers } from "./ClassroomMembers.tsx";
import { companyField } from "./fields.ts";

/** Classrooms (org/classroom): company, head teacher, period, courses and exam rooms; members added and removed from each row. */
const classrooms: CrudDefinition = {
  ...declaredScreen(classroomDecl, {
    company_id: (r) => String(r.company_name ?? "–"),
    head_admin_id: (r) => String(r.head_name || r.head_username || "–"),
  }),
  form: declaredForm(classroomDecl, [
    { field: "name", kind: "text" },
    companyField(),
    { field: "head_admin_id", kind: "remoteSelect", remote: { path: "org/headTeacher", labelField: "nickname", rowLabel: "head_label" }, hint: msg`A staff account that runs the class` },
    { field: "start_time", kind: "datetime" },
    { field: "end_time", kind: "datetime" },
    { field: "course_ids", viaHook: true, label: msg`Courses`, kind: "multiSelect", tree: { path: "course/course", label: "title" }, initial: [] },
    { field: "room_ids", viaHook: true, label: msg`Exam rooms`, kind: "multiSelect", tree: { path: "exam/room", label: "title" }, initial: [] },
    { field: "remark", label: msg`Remark`, kind: "textarea" },
    { field: "status", kind: "radio", initial: "enable" },
  ]),
  schema: classroomAdd,
  rowActions: [{ key: "members", label: msg`Classroom members`, icon: Users, action: "members", component: ClassroomMembers, size: "lg" }],
};

export default classrooms;
