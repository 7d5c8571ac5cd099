import { msg } from "@lingui/core/macro";
import { memberRuleAdd, memberRuleEdit } from "../../../shared/admin/members.ts";
import type { CrudDefinition, CrudOption } from "../crud/types.ts";
import { ruleTitle } from "../auth/options.ts";
import { STATUS_OPTIONS } from "./options.ts";

const QUESTION_TYPE_OPTIONS: CrudOption[] = [
  { value: "route", label: msg`Route` },
  { value: "menu_dir", label: msg`Menu directory` },
  { value: "menu", label: msg`Menu` },
  { value: "nav_user_menu", label: msg`Member menu in the top bar` },
  { value: "nav", label: msg`Top bar link` },
  { value: "button", label: msg`Button` },
];
const MENU_TYPE_OPTIONS: CrudOption[] = [
  { value: "tab", label: msg`Tab` },
  { value: "link", label: msg`Link` },
  { value: "iframe", label: msg`Iframe` },
];

/** Member rules (`user/rule`): the member center's routes, menus and buttons, a tree sortable by weigh. */
const rules: CrudDefinition = {
  path: "user/rule",
  title: msg`Member rules`,
  quickSearch: msg`ID, title, name`,
  tree: true,
  sortable: true,
  defaultOrder: "weigh,desc",
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "title", label: msg`Title`, search: "text" },
    { field: "title_en", label: msg`English title`, search: "text" },
    { field: "name", label: msg`Rule name`, search: "text" },
    { field: "type", label: msg`Type`, render: "tag", options: QUESTION_TYPE_OPTIONS, search: "select" },
    { field: "pid", label: msg`Parent ID`, render: "number", hidden: true },
    { field: "path", label: msg`Route path`, hidden: true },
    { field: "component", label: msg`Component`, hidden: true },
    { field: "menu_type", label: msg`Menu type`, render: "tag", options: MENU_TYPE_OPTIONS, hidden: true },
    { field: "weigh", label: msg`Weight`, render: "number", sortable: true },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "update_time", label: msg`Updated`, render: "datetime", sortable: true, hidden: true },
  ],
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
