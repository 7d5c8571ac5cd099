import { memberRuleAdd, memberRuleEdit } from "../../../shared/admin/members.ts";
import { memberRuleDecl } from "../../../shared/admin/resources/user.ts";
import { ruleTreeResource } from "./ruleTree.ts";

/**
 * Member rules (`/admin/user/rule/...`): the tree of routes, menus and buttons the member center
 * builds its menus from (modules/user/index.ts, by the member's group).
 */
export const memberRuleResource = ruleTreeResource({
  decl: memberRuleDecl,
  table: "user_rule",
  groupTable: "user_group",
  add: memberRuleAdd,
  edit: memberRuleEdit,
});
