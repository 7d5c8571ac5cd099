import { msg } from "@lingui/core/macro";
import type { CrudDefinition } from "../crud/types.ts";
import { recordColumns } from "./shared.ts";

const json = (value: unknown) => (value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

/** The sensitive data log: each watched field an edit changed, rolled back to its old value on request. */
const sensitiveDataLog: CrudDefinition = {
  path: "security/sensitiveDataLog",
  title: msg`Sensitive data log`,
  quickSearch: msg`ID, name, field, admin`,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "rule_name", label: msg`Rule`, search: "text" },
    { field: "data_table", label: msg`Table`, hidden: true },
    { field: "id_value", label: msg`Row ID`, render: "number", search: "number" },
    { field: "title", label: msg`Name`, search: "text" },
    { field: "data_field", label: msg`Field`, search: "text" },
    { field: "before", label: msg`Before`, cell: (row) => json(row.before) },
    { field: "after", label: msg`After`, cell: (row) => json(row.after) },
    {
      field: "is_rollback",
      label: msg`Rolled back`,
      render: "tag",
      search: "select",
      options: [
        { value: "true", label: msg`Yes` },
        { value: "false", label: msg`No` },
      ],
    },
    ...recordColumns,
  ],
  buttons: ["refresh", "delete", "columns", "search"],
  batchActions: [{ name: "rollback", label: msg`Roll back`, confirm: msg`Set the selected fields back to their value before the edit?` }],
};
export default sensitiveDataLog;
