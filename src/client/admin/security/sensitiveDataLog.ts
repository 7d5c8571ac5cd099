import { msg } from "@lingui/core/macro";
import { createElement } from "react";
import { sensitiveDataLogDecl } from "../../../shared/admin/resources/security.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { FieldLabel } from "./labels.tsx";

const json = (value: unknown) => (value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

/** The sensitive data log: each watched field an edit changed, rolled back to its old value on request. */
const sensitiveDataLog: CrudDefinition = {
  ...declaredScreen(sensitiveDataLogDecl, {
    data_field: (row) => createElement(FieldLabel, { controller: row.controller, field: row.data_field }),
    before: (row) => json(row.before),
    after: (row) => json(row.after),
  }),
  buttons: ["refresh", "delete", "columns", "search"],
  batchActions: [{ name: "rollback", label: msg`Roll back`, confirm: msg`Set the selected fields back to their value before the edit?` }],
};
export default sensitiveDataLog;
