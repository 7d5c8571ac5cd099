import { msg } from "@lingui/core/macro";
import { memberAdd, memberEdit, type MemberAdd } from "../../../shared/admin/schemas.ts";
import type { ResourceDef } from "../resource.ts";
import { ACCOUNT_FIELDS, LOGIN_FIELDS, withPassword } from "./accounts.ts";
import { memberFaceAction } from "./face.ts";
import { endAllSessions } from "./permissions.ts";

/** Members (`/admin/user/user/...`): profile, group, status, password reset; never the password hash. */
export const memberResource: ResourceDef = {
  rule: "user/user",
  title: msg`Members`,
  table: "member",
  fields: {
    ...ACCOUNT_FIELDS,
    gender: { column: "t.gender", type: "int" },
    birthday: { column: "t.birthday", type: "date" },
    money: { column: "t.money", type: "bigint" },
    score: { column: "t.score", type: "bigint" },
    group_id: { column: "t.group_id", type: "int" },
    group_name: { column: "g.name", type: "text" },
    ...LOGIN_FIELDS,
    join_time: { column: "t.join_time", type: "time" },
    create_time: { column: "t.create_time", type: "time" },
  },
  joins: [{ table: "user_group", alias: "g", on: ["g.id", "t.group_id"] }],
  quickSearch: ["id", "username", "nickname", "email", "mobile"],
  selectFields: ["id", "username", "nickname"],
  editColumns: ["id", "username", "nickname", "email", "mobile", "avatar", "gender", "birthday", "money", "score", "motto", "group_id", "status", "last_login_time", "join_time", "create_time", "update_time"],
  add: memberAdd,
  edit: memberEdit,
  del: true,
  touch: true,
  hooks: {
    async beforeWrite(_ctx, body) {
      const { id: _id, password, ...fields } = body as MemberAdd & { id?: number };
      return withPassword({ ...fields }, password);
    },
    async afterWrite(ctx, id, body, existing) {
      const data = body as MemberAdd;
      if (existing && (data.password || data.status === "disable")) await endAllSessions(ctx.tx, "user", [id]);
    },
  },  // Staff enrol the member's reference photo for face checks (issue 15).
  actions: { face: memberFaceAction },
};
