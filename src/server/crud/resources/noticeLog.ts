import { noticeLogDecl } from "../../../shared/admin/resources/user.ts";
import type { ResourceDef } from "../resource.ts";
import { usernameOf } from "./face.repository.ts";
import { declared, joinById } from "./fields.ts";

/** The notices sent to members (`/admin/user/notice/...`): read-only; a company admin reads their company's members' (0054). */
export const noticeLogResource: ResourceDef = {
  ...declared(noticeLogDecl, { username: "m.username" }),
  table: "notice",
  joins: [joinById("member", "m", "t.user_id")],
  company: { column: "m.company_id" },
  editColumns: ["id", "user_id", "kind", "ref", "data", "channels", "read_at", "create_time"],
  rules: { edit: "user/notice/index" },
  hooks: {
    // The row of `GET edit` names its member, as the list does.
    async editRow(ctx, row) {
      return { ...row, username: (await usernameOf(ctx.tx, row.user_id)) ?? "" };
    },
  },
};
