import { msg } from "@lingui/core/macro";
import { dataRecycleAdd, dataRecycleEdit } from "../../../shared/admin/security.ts";
import { dataRecycleDecl } from "../../../shared/admin/resources/security.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { RecycleControllerSelect } from "./fields.tsx";
import { statusField } from "./shared.ts";

/** Data recycle rules: the resources whose deleted rows the recycle bin keeps. */
const dataRecycle: CrudDefinition = {
  ...declaredScreen(dataRecycleDecl),
  form: [
    { field: "name", label: msg`Rule name`, kind: "text" },
    { field: "controller", label: msg`Data`, kind: "custom", component: RecycleControllerSelect, hint: msg`Deleted rows of this screen are kept in the recycle bin` },
    statusField,
  ],
  schema: dataRecycleAdd,
  editSchema: dataRecycleEdit.omit({ id: true }),
};
export default dataRecycle;
