import { msg } from "@lingui/core/macro";
import { adminRuleAdd, adminRuleEdit } from "../../../shared/admin/schemas.ts";
import { ApiError } from "../../errors.ts";
import { adminRuleIds } from "../../modules/admin/rules.ts";
import type { CrudContext, Row } from "../resource.ts";
import { ruleTreeResource } from "./ruleTree.ts";

/** A non-super admin may change or delete only rules they hold (so no one frees or renames a rule above them). */
async function requireHeld(ctx: CrudContext, rows: Row[]): Promise<void> {
  const held = await adminRuleIds(ctx.tx, ctx.admin);
  if (held !== "all" && rows.some((r) => !held.has(r.id as number))) throw new ApiError(msg`You can only change rules you hold yourself`);
}

/** Menu rules (`/admin/auth/rule/...`): the back office's directories, menus and buttons. */
export const adminRuleResource = ruleTreeResource({
  rule: "auth/rule",
  title: msg`Rules`,
  table: "admin_rule",
  groupTable: "admin_group",
  types: ["menu_dir", "menu", "button"],
  extraFields: { extend: { column: "t.extend", type: "enum", values: ["none", "add_rules_only", "add_menu_only"] } },
  add: adminRuleAdd,
  edit: adminRuleEdit,
  guard: requireHeld,
});
