import { memberAdd, memberEdit, type MemberAdd } from "../../../shared/admin/schemas.ts";
import type { ResourceDef } from "../resource.ts";
import { memberDecl } from "../../../shared/admin/resources/user.ts";
import { withPassword } from "./accounts.ts";
import { requireInScope } from "../scope.ts";
import { memberFaceAction } from "./face.ts";
import { endAllSessions } from "./permissions.ts";
import { classroomResource } from "./org.ts";
import { declared } from "./fields.ts";
import { classroomIdsOfMember, setMemberClassrooms } from "./member.repository.ts";

/** Members (`/admin/user/user/...`): profile, group, status, password reset; never the password hash. */
export const memberResource: ResourceDef = {
  ...declared(memberDecl, { group_name: "g.name", company_name: "c.name", duty_name: "d.name" }),
  table: "member",
  joins: [
    { table: "user_group", alias: "g", on: ["g.id", "t.group_id"] },
    { table: "company", alias: "c", on: ["c.id", "t.company_id"] },
    { table: "duty", alias: "d", on: ["d.id", "t.duty_id"] },
  ],
  selectFields: ["id", "username", "nickname"],
  editColumns: ["id", "username", "nickname", "email", "mobile", "avatar", "gender", "birthday", "money", "score", "motto", "group_id", "company_id", "duty_id", "status", "last_login_time", "join_time", "create_time", "update_time"],
  add: memberAdd,
  edit: memberEdit,
  del: true,
  touch: true,
  company: { column: "t.company_id", fill: "company_id" },
  hooks: {
    async beforeWrite(_ctx, body) {
      const { id: _id, password, classroom_ids: _classrooms, ...fields } = body as MemberAdd & { id?: number };
      return withPassword({ ...fields }, password);
    },
    async afterWrite(ctx, id, body, existing) {
      const data = body as MemberAdd;
      if (existing && (data.password || data.status === "disable")) await endAllSessions(ctx.tx, "user", [id]);
      // The classrooms the member sits in (a company admin's: only classrooms they reach).
      const wanted = [...new Set(data.classroom_ids)];
      await requireInScope(ctx, classroomResource, wanted);
      await setMemberClassrooms(ctx.tx, id, wanted);
    },
    async editRow(ctx, row) {
      return { ...row, classroom_ids: await classroomIdsOfMember(ctx.tx, row.id) };
    },
  },
  // Staff enrol the member's reference photo for face checks.
  actions: { face: memberFaceAction },
};
