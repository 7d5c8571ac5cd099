import { msg } from "@lingui/core/macro";
import { adminGroupAdd, adminGroupEdit } from "../../../shared/admin/schemas.ts";
import { adminGroupDecl } from "../../../shared/admin/resources/auth.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { reloadAdminMenus } from "../session.ts";
import { ruleTitle, STATUS_OPTIONS } from "./options.ts";

/** Admin groups (auth/group): a tree; the rules a group grants as a checkbox tree of the menu rules. */
const groups: CrudDefinition = {
  ...declaredScreen(adminGroupDecl),
  form: [
    { field: "pid", label: msg`Parent group`, kind: "treeSelect", tree: { path: "auth/group", label: "name" } },
    { field: "name", label: msg`Name`, kind: "text" },
    { field: "rules", label: msg`Rules`, kind: "checkboxTree", tree: { path: "auth/rule", label: ruleTitle } },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: adminGroupAdd,
  editSchema: adminGroupEdit.omit({ id: true }),
  // The admin's own group may have changed: menus and buttons follow.
  afterChange: reloadAdminMenus,
};

export default groups;
