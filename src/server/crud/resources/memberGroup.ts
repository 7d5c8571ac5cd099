import { msg } from "@lingui/core/macro";
import { memberGroupDecl } from "../../../shared/admin/resources/user.ts";
import { memberGroupAdd, memberGroupEdit, type MemberGroupAdd } from "../../../shared/admin/schemas.ts";
import { ApiError } from "../../errors.ts";
import type { ResourceDef } from "../resource.ts";
import { parseRules } from "./permissions.ts";
import { addEditDelete, declared } from "./fields.ts";
import { countUserRules } from "./memberGroup.repository.ts";

/** Member groups (`/admin/user/group/...`): which member rules (member-center menus) a group opens. */
export const memberGroupResource: ResourceDef = {
  ...declared(memberGroupDecl),
  table: "user_group",
  selectFields: ["id", "name"],
  editColumns: ["id", "name", "rules", "status", "create_time", "update_time"],
  ...addEditDelete(memberGroupAdd, memberGroupEdit, { touch: true }),
  company: "read",
  hooks: {
    async beforeWrite(ctx, body) {
      const data = body as MemberGroupAdd;
      const wanted = data.rules === "*" ? "*" : [...new Set(data.rules)].sort((a, b) => a - b);
      if (wanted !== "*" && wanted.length > 0) {
        if ((await countUserRules(ctx.tx, wanted)) !== wanted.length) throw new ApiError(msg`A chosen rule does not exist`);
      }
      return { name: data.name, status: data.status, rules: wanted === "*" ? "*" : wanted.join(",") };
    },
    async editRow(_ctx, row) {
      const rules = parseRules(String(row.rules ?? ""));
      return { ...row, rules: rules === "all" ? "*" : rules };
    },
  },
};
