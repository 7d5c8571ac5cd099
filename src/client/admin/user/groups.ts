import { msg } from "@lingui/core/macro";
import { memberGroupAdd, memberGroupEdit } from "../../../shared/admin/schemas.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { STATUS_OPTIONS } from "./options.ts";

/** Member groups (`user/group`): which member rules (member-center menus) each group opens. */
const groups: CrudDefinition = {
  path: "user/group",
  title: msg`Member groups`,
  quickSearch: msg`ID, name`,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "name", label: msg`Name`, sortable: true, search: "text" },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "create_time", label: msg`Created`, render: "datetime", sortable: true, search: "datetime" },
    { field: "update_time", label: msg`Updated`, render: "datetime", sortable: true, hidden: true },
  ],
  form: [
    { field: "name", label: msg`Name`, kind: "text" },
    { field: "rules", label: msg`Member rules`, kind: "checkboxList", remote: { path: "user/rule", labelField: "title" }, initial: [], hint: msg`The member-center menus and pages this group opens` },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: memberGroupAdd,
  editSchema: memberGroupEdit.omit({ id: true }),
};

export default groups;
