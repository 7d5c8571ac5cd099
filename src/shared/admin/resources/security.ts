import { msg } from "@lingui/core/macro";
import { declareResource, LOG_TIME_FIELD, standardColumns, standardDecls, YES_NO_OPTIONS, type ColumnDecl, type FieldDecl } from "../fields.ts";

/** Data security's rules and records (security/...), as both sides list them. */

/** A recycle or sensitive-data rule: its name, the resource it names (`controller`) and that resource's table. */
const RULE_FIELDS = {
  ...standardDecls("id"),
  name: { type: "text", label: msg`Rule name` },
  controller: { type: "text", label: msg`Data` },
  data_table: { type: "text" },
  ...standardDecls("status", "update_time", "create_time"),
} as const satisfies Record<string, FieldDecl>;

const RULE_SEARCH = { fields: ["id", "name", "controller"], label: msg`ID, name, data` } as const;

/** A rule's list: id, name and data (searched), the rule's own columns, then status and creation time. */
function ruleColumns<const F extends string = never>(...own: ColumnDecl<F>[]): ColumnDecl<keyof typeof RULE_FIELDS | F>[] {
  return [
    ...standardColumns({ id: { sortable: true } }),
    { field: "name", search: "text" },
    { field: "controller", search: "text" },
    ...own,
    ...standardColumns({ status: { search: true }, create_time: { sortable: true, search: true } }),
  ];
}

/** Data recycle rules (security/dataRecycle): the resources whose deleted rows the recycle bin keeps. */
export const dataRecycleDecl = declareResource({
  rule: "security/dataRecycle",
  title: msg`Data recycle`,
  logTitle: msg`Data recycle rules`,
  fields: RULE_FIELDS,
  quickSearch: RULE_SEARCH,
  columns: ruleColumns(),
});

/** Sensitive data rules (security/sensitiveData): the fields whose edits are logged with their old value. */
export const sensitiveDataDecl = declareResource({
  rule: "security/sensitiveData",
  title: msg`Sensitive data`,
  logTitle: msg`Sensitive data rules`,
  fields: { ...RULE_FIELDS, data_fields: { type: "text", label: msg`Watched fields`, operators: [] } },
  quickSearch: RULE_SEARCH,
  columns: ruleColumns({ field: "data_fields" }),
});

/**
 * A record's rule (`rule_name` and the resource it names, `controller`, of the joined rule: the
 * screen labels the record's fields as that resource's form does), who did it, from where and when.
 */
const RECORD_FIELDS = {
  ...standardDecls("id"),
  admin_id: { type: "int" },
  admin_username: { type: "text", label: msg`Operator` },
  rule_name: { type: "text", label: msg`Rule` },
  controller: { type: "text", operators: [] },
  data_table: { type: "text", label: msg`Table` },
  title: { type: "text", label: msg`Name` },
  ip: { type: "text", label: msg`IP` },
  create_time: LOG_TIME_FIELD,
} as const satisfies Record<string, FieldDecl>;

/** Who did it, from where and when: the last columns of both records. */
const RECORD_COLUMNS: readonly ColumnDecl<keyof typeof RECORD_FIELDS>[] = [
  { field: "admin_username", search: "text" },
  { field: "ip", hidden: true },
  ...standardColumns({ create_time: { sortable: true, search: true } }),
];

/** The recycle bin (security/dataRecycleLog): rows deleted through the back office, restored or purged. */
export const dataRecycleLogDecl = declareResource({
  rule: "security/dataRecycleLog",
  title: msg`Recycle bin`,
  fields: { ...RECORD_FIELDS, row_id: { type: "bigint", label: msg`Row ID` } },
  quickSearch: { fields: ["id", "title", "data_table", "admin_username"], label: msg`ID, name, table, admin` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "rule_name", search: "text" },
    { field: "data_table", search: "text" },
    { field: "row_id", render: "number", search: "number" },
    { field: "title", search: "text" },
    ...RECORD_COLUMNS,
  ],
});

/** The sensitive data log (security/sensitiveDataLog): each watched field an edit changed, rolled back on request. */
export const sensitiveDataLogDecl = declareResource({
  rule: "security/sensitiveDataLog",
  title: msg`Sensitive data log`,
  fields: {
    ...RECORD_FIELDS,
    data_field: { type: "text", label: msg`Field` },
    id_value: { type: "bigint", label: msg`Row ID` },
    before: { type: "text", label: msg`Before`, operators: [] },
    after: { type: "text", label: msg`After`, operators: [] },
    is_rollback: { type: "bool", label: msg`Rolled back`, options: YES_NO_OPTIONS },
  },
  quickSearch: { fields: ["id", "title", "data_field", "admin_username"], label: msg`ID, name, field, admin` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "rule_name", search: "text" },
    { field: "data_table", hidden: true },
    { field: "id_value", render: "number", search: "number" },
    { field: "title", search: "text" },
    { field: "data_field", search: "text" },
    { field: "before" },
    { field: "after" },
    { field: "is_rollback", render: "tag", search: "select" },
    ...RECORD_COLUMNS,
  ],
});
