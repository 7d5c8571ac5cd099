import { msg } from "@lingui/core/macro";
import { sensitiveDataAdd, sensitiveDataEdit } from "../../../shared/admin/security.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { SensitiveControllerSelect, WatchedFields } from "./fields.tsx";
import { ruleColumns, statusField } from "./shared.ts";

/** Sensitive data rules: the fields whose edits are logged with their old value for rollback. */
const sensitiveData: CrudDefinition = {
  path: "security/sensitiveData",
  title: msg`Sensitive data`,
  quickSearch: msg`ID, name, data`,
  columns: [
    ...ruleColumns.slice(0, 3),
    { field: "data_fields", label: msg`Watched fields`, cell: (row) => (Array.isArray(row.data_fields) ? row.data_fields.join(", ") : "") },
    ...ruleColumns.slice(3),
  ],
  form: [
    { field: "name", label: msg`Rule name`, kind: "text" },
    { field: "controller", label: msg`Data`, kind: "custom", component: SensitiveControllerSelect },
    { field: "data_fields", label: msg`Watched fields`, kind: "custom", component: WatchedFields, initial: [], hint: msg`An edit of these fields keeps the old value for rollback` },
    statusField,
  ],
  schema: sensitiveDataAdd,
  editSchema: sensitiveDataEdit.omit({ id: true }),
};
export default sensitiveData;
