import { msg } from "@lingui/core/macro";
import { adminGroupAdd, adminGroupEdit, type AdminGroupAdd } from "../../../shared/admin/schemas.ts";
import { ApiError } from "../../errors.ts";
import type { ResourceDef, Row } from "../resource.ts";
import { parseRules, requireHeldRules } from "./permissions.ts";
import { adminGroupDecl } from "../../../shared/admin/resources/auth.ts";
import { addEditDelete, declared } from "./fields.ts";
import { countAdminRules } from "./group.repository.ts";

const rulesOut = (rules: unknown) => {
  const parsed = parseRules(String(rules ?? ""));
  return parsed === "all" ? "*" : parsed;
};

/** Admin groups (`/admin/auth/group/...`): a tree; a group grants only rules its creator holds. */
export const adminGroupResource: ResourceDef = {
  ...declared(adminGroupDecl),
  table: "admin_group",
  selectFields: ["id", "pid", "name"],
  defaultOrder: ["id", "asc"],
  childrenRefusal: msg`Delete or move its sub-groups first`,
  editColumns: ["id", "pid", "name", "rules", "status", "create_time", "update_time"],
  ...addEditDelete(adminGroupAdd, adminGroupEdit, { touch: true }),
  hooks: {
    async beforeWrite(ctx, body, existing) {
      const data = body as AdminGroupAdd;
      // Neither a group more powerful than the acting admin may be changed, nor may it grant more.
      if (existing) await requireHeldRules(ctx.tx, ctx.admin, parseRules(String(existing.rules)));
      const wanted = data.rules === "*" ? "all" : [...new Set(data.rules)];
      if (wanted !== "all" && wanted.length > 0) {
        if ((await countAdminRules(ctx.tx, wanted)) !== wanted.length) throw new ApiError(msg`A chosen rule does not exist`);
      }
      await requireHeldRules(ctx.tx, ctx.admin, wanted);
      return { pid: data.pid, name: data.name, status: data.status, rules: wanted === "all" ? "*" : wanted.sort((a, b) => a - b).join(",") } satisfies Row;
    },
    async beforeDelete(ctx, rows) {
      for (const row of rows) await requireHeldRules(ctx.tx, ctx.admin, parseRules(String(row.rules)));
    },
    async editRow(_ctx, row) {
      return { ...row, rules: rulesOut(row.rules) };
    },
  },
};
