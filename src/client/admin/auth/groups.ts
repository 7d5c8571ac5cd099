import { msg } from "@lingui/core/macro";
import { adminGroupAdd, adminGroupEdit } from "../../../shared/admin/schemas.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { reloadAdminMenus } from "../session.ts";
import { ruleTitle, STATUS_OPTIONS } from "./options.ts";

/** Admin groups (auth/group): a tree; the rules a group grants as a checkbox tree of the menu rules. */
const groups: CrudDefinition = {
  path: "auth/group",
  title: msg`Groups`,
  quickSearch: msg`ID, name`,
  tree: true,
  columns: [
    { field: "name", label: msg`Name`, search: "text" },
    { field: "id", label: msg`ID`, render: "number" },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "update_time", label: msg`Updated`, render: "datetime", search: "datetime" },
    { field: "create_time", label: msg`Created`, render: "datetime", hidden: true },
  ],
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
