import { msg } from "@lingui/core/macro";
import { dutyAdd, dutyEdit } from "../../../shared/admin/org.ts";
import { dutyDecl } from "../../../shared/admin/resources/org.ts";
import { declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";

/** Duties (org/duty): the job positions members hold, reordered by weigh. */
const duties: CrudDefinition = {
  ...declaredScreen(dutyDecl),
  defaultOrder: "weigh,desc",
  form: declaredForm(dutyDecl, [
    { field: "name", kind: "text" },
    { field: "weigh", kind: "number", initial: 0, hint: msg`Higher comes first` },
    { field: "status", kind: "radio", initial: "enable" },
  ]),
  schema: dutyAdd,
  editSchema: dutyEdit.omit({ id: true }),
};

export default duties;
