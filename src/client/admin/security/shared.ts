import { msg } from "@lingui/core/macro";
import type { CrudColumn, CrudFormField, CrudOption } from "../crud/types.ts";

/** What the data-security screens share: a rule's status and columns, a record's columns. */
export const statusOptions: CrudOption[] = [
  { value: "enable", label: msg`Enabled` },
  { value: "disable", label: msg`Disabled` },
];

export const statusField: CrudFormField = { field: "status", label: msg`Status`, kind: "radio", options: statusOptions, initial: "enable" };

export const ruleColumns: CrudColumn[] = [
  { field: "id", label: msg`ID`, render: "number", sortable: true },
  { field: "name", label: msg`Rule name`, search: "text" },
  { field: "controller", label: msg`Data`, search: "text" },
  { field: "status", label: msg`Status`, render: "tag", options: statusOptions, search: "select" },
  { field: "create_time", label: msg`Created`, render: "datetime", sortable: true, search: "datetime" },
];

/** Who did it and when, for the logs. */
export const recordColumns: CrudColumn[] = [
  { field: "admin_username", label: msg`Operator`, search: "text" },
  { field: "ip", label: msg`IP`, hidden: true },
  { field: "create_time", label: msg`Time`, render: "datetime", sortable: true, search: "datetime" },
];
