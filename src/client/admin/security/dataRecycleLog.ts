import { msg } from "@lingui/core/macro";
import type { CrudDefinition } from "../crud/types.ts";
import { recordColumns } from "./shared.ts";

/** The recycle bin: rows deleted through the back office, restored (with what their delete removed) or purged. */
const dataRecycleLog: CrudDefinition = {
  path: "security/dataRecycleLog",
  title: msg`Recycle bin`,
  quickSearch: msg`ID, name, table, admin`,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "rule_name", label: msg`Rule`, search: "text" },
    { field: "data_table", label: msg`Table`, search: "text" },
    { field: "row_id", label: msg`Row ID`, render: "number", search: "number" },
    { field: "title", label: msg`Name`, search: "text" },
    ...recordColumns,
  ],
  buttons: ["refresh", "delete", "columns", "search"],
  batchActions: [{ name: "restore", label: msg`Restore`, confirm: msg`Put the selected rows back where they were deleted from?` }],
};
export default dataRecycleLog;
