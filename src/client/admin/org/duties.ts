import { dutyAdd, dutyEdit } from "../../../shared/admin/org.ts";
import { dutyDecl } from "../../../shared/admin/resources/org.ts";
import { WEIGH_AND_STATUS, declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";

/** Duties (org/duty): the job positions members hold, reordered by weigh. */
const duties: CrudDefinition = {
  ...declaredScreen(dutyDecl),
  defaultOrder: "weigh,desc",
  form: declaredForm(dutyDecl, [
    { field: "name", kind: "text" },
    ...WEIGH_AND_STATUS,
  ]),
  schema: dutyAdd,
  editSchema: dutyEdit.omit({ id: true }),
};

export default duties;
