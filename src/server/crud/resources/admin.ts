import { msg } from "@lingui/core/macro";
import { adminAdd, adminEdit, type AdminEdit } from "../../../shared/admin/schemas.ts";
import { ApiError } from "../../errors.ts";
import type { CrudContext, ResourceDef } from "../resource.ts";
import { adminDecl } from "../../../shared/admin/resources/auth.ts";
import { withPassword } from "./accounts.ts";
import { endAllSessions, parseRules, requireHeldRules, requireNotAbove } from "./permissions.ts";
import { adminGroupsByIds, groupIdsOfAdmin, groupsOfAdmins, replaceAdminGroups } from "./admin.repository.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";

/** The groups an admin is put in must exist, and grant only rules the acting admin holds. */
async function checkGroups(ctx: CrudContext, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return;
  const rows = await adminGroupsByIds(ctx.tx, groupIds);
  if (rows.length !== new Set(groupIds).size) throw new ApiError(msg`A chosen group does not exist`);
  for (const group of rows) await requireHeldRules(ctx.tx, ctx.admin, parseRules(group.rules));
}

async function groupIdsOf(ctx: CrudContext, id: number): Promise<number[]> {
  return groupIdsOfAdmin(ctx.tx, id);
}

/** Admins (`/admin/auth/admin/...`): groups, status, password reset; never the password hash. */
export const adminResource: ResourceDef = {
  ...declared(adminDecl, { company_name: "c.name" }),
  table: "admin",
  joins: [joinById("company", "c", "t.company_id")],
  selectFields: ["id", "username", "nickname"],
  editColumns: ["id", "username", "nickname", "avatar", "email", "mobile", "motto", "is_super", "is_company", "company_id", "status", "last_login_time", "create_time", "update_time"],
  ...addEditDelete(adminAdd, adminEdit, { touch: true }),
  hooks: {
    async beforeWrite(ctx, body, existing) {
      const data = body as AdminEdit;
      const self = existing?.id === ctx.admin.id;
      if (existing) {
        await requireNotAbove(ctx.tx, ctx.admin, existing as { id: number; is_super: boolean });
        if (self && (data.is_company !== existing.is_company || data.company_id !== existing.company_id)) throw new ApiError(msg`You cannot change your own company`);
        if (self && data.status === "disable") throw new ApiError(msg`You cannot disable yourself`);
        // Not even a super admin takes themself out of a group (a "*" group is what makes most of them super).
        if (self && (await groupIdsOf(ctx, ctx.admin.id)).some((g) => !data.group_ids.includes(g))) {
          throw new ApiError(msg`You cannot change your own groups`);
        }
      }
      await checkGroups(ctx, data.group_ids);
      if (data.is_company && data.company_id === null) {
        const message = msg`A company admin needs a company`;
        throw new ApiError(message, 0, { fields: { company_id: ctx.req.t(message) } });
      }
      const row = { username: data.username, nickname: data.nickname, email: data.email, mobile: data.mobile, status: data.status, is_company: data.is_company, company_id: data.company_id };
      return withPassword(row, data.password);
    },
    async afterWrite(ctx, id, body, existing) {
      const data = body as AdminEdit;
      await replaceAdminGroups(ctx.tx, id, [...new Set(data.group_ids)]);
      if (existing && (data.password || data.status === "disable")) await endAllSessions(ctx.tx, "admin", [id]);
    },
    async beforeDelete(ctx, rows) {
      for (const row of rows) {
        if (row.id === ctx.admin.id) throw new ApiError(msg`You cannot delete yourself`);
        await requireNotAbove(ctx.tx, ctx.admin, row as { id: number; is_super: boolean });
      }
      await endAllSessions(ctx.tx, "admin", rows.map((r) => r.id as number));
    },
    async editRow(ctx, row) {
      return { ...row, group_ids: await groupIdsOf(ctx, row.id as number) };
    },
    async listRows(ctx, rows) {
      if (rows.length === 0) return rows;
      const groups = await groupsOfAdmins(ctx.tx, rows.map((r) => r.id));
      return rows.map((r) => ({ ...r, groups: groups.filter((g) => g.uid === r.id).map(({ id, name }) => ({ id, name })) }));
    },
  },
};
