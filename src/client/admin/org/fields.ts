import { msg } from "@lingui/core/macro";
import type { CrudFormField } from "../crud/types.ts";

/**
 * Form fields of the organisation that other screens share: who a course, exam room
 * or bank is assigned to (all empty: open to every member), and a member's company.
 */
/** Read into the edit row and written by the resource's assignment hooks (server crud/resources/assignments.ts), not table columns. */
export const assignmentFields: CrudFormField[] = [
  { field: "company_ids", viaHook: true, label: msg`Open to companies`, kind: "multiSelect", tree: { path: "org/company", label: "name" }, initial: [], hint: msg`Leave companies, duties and classrooms empty to open it to every member` },
  { field: "duty_ids", viaHook: true, label: msg`Open to duties`, kind: "multiSelect", tree: { path: "org/duty", label: "name" }, initial: [] },
  { field: "classroom_ids", viaHook: true, label: msg`Open to classrooms`, kind: "multiSelect", tree: { path: "org/classroom", label: "name" }, initial: [] },
];

export const companyField = (label = msg`Company`): CrudFormField => ({ field: "company_id", label, kind: "treeSelect", tree: { path: "org/company", label: "name" }, placeholder: msg`No company` });
