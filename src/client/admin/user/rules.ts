import { msg } from "@lingui/core/macro";
import { memberRuleAdd, memberRuleEdit } from "../../../shared/admin/members.ts";
import { MENU_TYPES } from "../../../shared/admin/resources/ruleTree.ts";
import { MEMBER_RULE_KINDS, memberRuleDecl } from "../../../shared/admin/resources/user.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition, CrudOption } from "../crud/types.ts";
import { ruleTitle } from "../auth/options.ts";
import { STATUS_OPTIONS } from "./options.ts";

const QUESTION_TYPE_OPTIONS: CrudOption[] = [...MEMBER_RULE_KINDS];
const MENU_TYPE_OPTIONS: CrudOption[] = [...MENU_TYPES];

/** Member rules (`user/rule`): the member center's routes, menus and buttons, a tree sortable by weigh. */
const rules: CrudDefinition = {
  ...declaredScreen(memberRuleDecl),
  defaultOrder: "weigh,desc",
  form: [
    { field: "pid", label: msg`Parent rule`, kind: "treeSelect", tree: { path: "user/rule", label: ruleTitle }, placeholder: msg`None (top level)` },
    { field: "type", label: msg`Type`, kind: "select", options: QUESTION_TYPE_OPTIONS, initial: "menu" },
    { field: "title", label: msg`Title`, kind: "text" },
    { field: "title_en", label: msg`English title`, kind: "text" },
    { field: "name", label: msg`Rule name`, kind: "text", hint: msg`Unique, e.g. account/profile` },
    { field: "path", label: msg`Route path`, kind: "text" },
    { field: "menu_type", label: msg`Menu type`, kind: "select", options: MENU_TYPE_OPTIONS, initial: "tab" },
    { field: "url", label: msg`Link`, kind: "text", hint: msg`For a link or iframe menu` },
    { field: "component", label: msg`Component`, kind: "text" },
    { field: "icon", label: msg`Icon`, kind: "text" },
    { field: "keepalive", label: msg`Keep the page alive`, kind: "switch", initial: 0 },
    { field: "weigh", label: msg`Weight`, kind: "number", initial: 0 },
    { field: "remark", label: msg`Remark`, kind: "textarea" },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: memberRuleAdd,
  editSchema: memberRuleEdit.omit({ id: true }),
};

export default rules;
