import { msg } from "@lingui/core/macro";
import { GEN_RULE_BASE } from "../../../shared/admin/codegen.ts";
import { MODULE_RULE_BASE } from "../../../shared/admin/modules.ts";
import { adminRuleDecl } from "../../../shared/admin/resources/auth.ts";
import { adminRuleAdd, adminRuleEdit } from "../../../shared/admin/schemas.ts";
import { ApiError } from "../../errors.ts";
import { adminRuleIds } from "../../modules/admin/rules.ts";
import type { CrudContext, Row } from "../resource.ts";
import { ruleTreeResource } from "./ruleTree.ts";

/** The rule names the module market (`mod/...`) and the code generator (`gen/...`) make and remove themselves. */
export const isReservedRuleName = (name: string): boolean =>
  [MODULE_RULE_BASE, GEN_RULE_BASE].some((base) => name === base || name.startsWith(`${base}/`));

/**
 * A non-super admin may change or delete only rules they hold (so no one frees or renames a rule
 * above them), and may not rename a rule at all: a rule's name is the permission it stands for,
 * and the groups granting its id would grant whatever name it took (a name no rule has yet, such
 * as a module's before it is installed). No one names a rule under `mod/` or `gen/`, nor renames
 * one of those: they are made and removed by the module market and the code generator only.
 */
async function guardRules(ctx: CrudContext, rows: Row[], body?: Row): Promise<void> {
  const held = await adminRuleIds(ctx.tx, ctx.admin);
  if (held !== "all" && rows.some((r) => !held.has(r.id as number))) throw new ApiError(msg`You can only change rules you hold yourself`);
  if (!body || typeof body.name !== "string") return;
  const before = rows[0]?.name;
  if (before === body.name) return;
  if (isReservedRuleName(body.name) || (typeof before === "string" && isReservedRuleName(before))) {
    throw new ApiError(msg`Rule names under "mod/" and "gen/" are made by the module market and the code generator only`);
  }
  if (before !== undefined && held !== "all") throw new ApiError(msg`Only a super admin can rename a rule`);
}

/** Menu rules (`/admin/auth/rule/...`): the back office's directories, menus and buttons. */
export const adminRuleResource = ruleTreeResource({
  decl: adminRuleDecl,
  table: "admin_rule",
  groupTable: "admin_group",
  add: adminRuleAdd,
  edit: adminRuleEdit,
  guard: guardRules,
});
