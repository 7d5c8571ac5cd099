import { msg } from "@lingui/core/macro";
import { adminLogDecl } from "../../../shared/admin/resources/auth.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";

/** The admin log (auth/adminLog): read-only, filtered by admin, url and time; each row's details (data, user agent) in a dialog. */
const adminLog: CrudDefinition = {
  ...declaredScreen(adminLogDecl),
  buttons: ["refresh", "columns", "search"],
  detail: true,
  detailLabels: { admin_id: msg`Admin ID`, data: msg`Request data` },
};

export default adminLog;
