import { msg } from "@lingui/core/macro";
import { dutyAdd, dutyEdit } from "../../../shared/admin/org.ts";
import { STATUS_OPTIONS } from "../auth/options.ts";
import type { CrudDefinition } from "../crud/types.ts";

/** Duties (org/duty): the job positions members hold, reordered by weigh. */
const duties: CrudDefinition = {
  path: "org/duty",
  title: msg`Duties`,
  quickSearch: msg`ID, name`,
  sortable: true,
  defaultOrder: "weigh,desc",
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "name", label: msg`Name`, search: "text", sortable: true },
    { field: "weigh", label: msg`Weight`, render: "number", sortable: true },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "create_time", label: msg`Created`, render: "datetime", sortable: true, hidden: true },
  ],
  form: [
    { field: "name", label: msg`Name`, kind: "text" },
    { field: "weigh", label: msg`Weight`, kind: "number", initial: 0, hint: msg`Higher comes first` },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: dutyAdd,
  editSchema: dutyEdit.omit({ id: true }),
};

export default duties;
