import { msg } from "@lingui/core/macro";
import { adminAdd, adminEdit } from "../../../shared/admin/schemas.ts";
import { adminDecl } from "../../../shared/admin/resources/auth.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { STATUS_OPTIONS } from "./options.ts";

/** Admins (auth/admin): groups, status, a password set on add and reset on edit. */
const admins: CrudDefinition = {
  ...declaredScreen(adminDecl, {
    groups: (row) => (Array.isArray(row.groups) ? row.groups.map((g: { name: string }) => g.name).join(", ") : ""),
    company_name: (row) => (row.is_company ? String(row.company_name ?? "–") : ""),
  }),
  form: [
    { field: "username", label: msg`Username`, kind: "text" },
    { field: "nickname", label: msg`Nickname`, kind: "text" },
    { field: "email", label: msg`Email`, kind: "text" },
    { field: "mobile", label: msg`Mobile`, kind: "text" },
    { field: "password", viaHook: true, label: msg`Password`, kind: "password" },
    { field: "group_ids", viaHook: true, label: msg`Groups`, kind: "multiSelect", tree: { path: "auth/group", label: "name" } },
    { field: "is_company", label: msg`Company admin`, kind: "switch", boolean: true, initial: false, hint: msg`Sees and changes only their company's members, classrooms, exam rooms, results and logs` },
    { field: "company_id", label: msg`Company`, kind: "treeSelect", tree: { path: "org/company", label: "name" }, placeholder: msg`No company`, when: (v) => v.is_company === true || v.is_company === 1 },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: adminAdd,
  editSchema: adminEdit.omit({ id: true }),
};

export default admins;
