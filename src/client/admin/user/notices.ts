import { noticeLogDecl } from "../../../shared/admin/resources/user.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";

/** The notices sent to members (user/notice): read-only, searched by member, kind, channel and time; each row's facts in a dialog. */
const notices: CrudDefinition = {
  ...declaredScreen(noticeLogDecl),
  buttons: ["refresh", "columns", "search"],
  detail: true,
};

export default notices;
