import { msg } from "@lingui/core/macro";
import { createElement } from "react";
import { sensitiveDataAdd, sensitiveDataEdit } from "../../../shared/admin/security.ts";
import { sensitiveDataDecl } from "../../../shared/admin/resources/security.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { SensitiveControllerSelect, WatchedFields } from "./fields.tsx";
import { FieldLabels } from "./labels.tsx";
import { statusField } from "./shared.ts";

/** Sensitive data rules: the fields whose edits are logged with their old value for rollback. */
const sensitiveData: CrudDefinition = {
  ...declaredScreen(sensitiveDataDecl, { data_fields: (row) => createElement(FieldLabels, { controller: row.controller, fields: row.data_fields }) }),
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
