import { msg } from "@lingui/core/macro";
import { dataRecycleLogDecl } from "../../../shared/admin/resources/security.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { RecycledDetail } from "./RecycledDetail.tsx";

/** The recycle bin: rows deleted through the back office, viewed field by field, restored (with what their delete removed) or purged. */
const dataRecycleLog: CrudDefinition = {
  ...declaredScreen(dataRecycleLogDecl),
  buttons: ["refresh", "delete", "columns", "search"],
  detail: RecycledDetail,
  batchActions: [{ name: "restore", label: msg`Restore`, confirm: msg`Put the selected rows back where they were deleted from?` }],
};
export default dataRecycleLog;
