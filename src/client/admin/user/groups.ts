import { msg } from "@lingui/core/macro";
import { memberGroupAdd, memberGroupEdit } from "../../../shared/admin/schemas.ts";
import { memberGroupDecl } from "../../../shared/admin/resources/user.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { STATUS_OPTIONS } from "./options.ts";

/** Member groups (`user/group`): which member rules (member-center menus) each group opens. */
const groups: CrudDefinition = {
  ...declaredScreen(memberGroupDecl),
  form: [
    { field: "name", label: msg`Name`, kind: "text" },
    { field: "rules", label: msg`Member rules`, kind: "checkboxList", remote: { path: "user/rule", labelField: "title" }, initial: [], hint: msg`The member-center menus and pages this group opens` },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: memberGroupAdd,
  editSchema: memberGroupEdit.omit({ id: true }),
};

export default groups;
