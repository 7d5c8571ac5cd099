import { msg } from "@lingui/core/macro";
import { MEMBER_RULE_TYPES, memberRuleAdd, memberRuleEdit } from "../../../shared/admin/members.ts";
import { ruleTreeResource } from "./ruleTree.ts";

/**
 * Member rules (`/admin/user/rule/...`): the tree of routes, menus and buttons the member center
 * builds its menus from (modules/user/index.ts, by the member's group).
 */
export const memberRuleResource = ruleTreeResource({
  rule: "user/rule",
  title: msg`Member rules`,
  table: "user_rule",
  groupTable: "user_group",
  types: MEMBER_RULE_TYPES,
  add: memberRuleAdd,
  edit: memberRuleEdit,
});
