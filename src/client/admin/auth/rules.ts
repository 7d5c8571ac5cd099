import { msg } from "@lingui/core/macro";
import { adminRuleAdd, adminRuleEdit } from "../../../shared/admin/schemas.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { reloadAdminMenus } from "../session.ts";
import { menuIcon } from "../menuIcons.tsx";
import { ruleTitle, STATUS_OPTIONS } from "./options.ts";
import { createElement } from "react";

const TYPES = [
  { value: "menu_dir", label: msg`Directory` },
  { value: "menu", label: msg`Menu` },
  { value: "button", label: msg`Button` },
];
const MENU_TYPES = [
  { value: "tab", label: msg`Tab` },
  { value: "link", label: msg`Link` },
  { value: "iframe", label: msg`Iframe` },
];
type Values = Record<string, unknown>;
const notButton = (v: Values) => v.type !== "button";
const isMenu = (v: Values) => v.type === "menu";

/** Menu rules (auth/rule): a tree of directories, menus and buttons, reordered by weigh; the side menu follows each change. */
const rules: CrudDefinition = {
  path: "auth/rule",
  title: msg`Menu rules`,
  quickSearch: msg`ID, title, name`,
  tree: true,
  sortable: true,
  columns: [
    { field: "title", label: msg`Title`, search: "text", cell: (row) => createElement("span", { className: "inline-flex items-center gap-2 whitespace-nowrap" }, createElement(menuIcon({ icon: String(row.icon ?? ""), name: String(row.name ?? ""), type: row.type as "menu" }), { "aria-hidden": true, className: "size-4 shrink-0" }), String(row.title ?? "")) },
    { field: "title_en", label: msg`English title`, search: "text" },
    { field: "name", label: msg`Rule name`, search: "text" },
    { field: "type", label: msg`Type`, render: "tag", options: TYPES, search: "select" },
    { field: "component", label: msg`Component`, hidden: true },
    { field: "weigh", label: msg`Weight`, render: "number" },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "id", label: msg`ID`, render: "number", hidden: true },
  ],
  form: [
    { field: "type", label: msg`Type`, kind: "radio", options: TYPES, initial: "menu" },
    { field: "pid", label: msg`Parent rule`, kind: "treeSelect", tree: { path: "auth/rule", label: ruleTitle } },
    { field: "title", label: msg`Title`, kind: "text" },
    { field: "title_en", label: msg`English title`, kind: "text" },
    { field: "name", label: msg`Rule name`, kind: "text", hint: msg`Unique, e.g. auth/admin; a button is <menu name>/<action>, e.g. auth/admin/add` },
    { field: "path", label: msg`Route path`, kind: "text", when: notButton },
    { field: "icon", label: msg`Icon`, kind: "iconPicker", when: notButton },
    { field: "menu_type", label: msg`Menu type`, kind: "radio", options: MENU_TYPES, initial: "tab", when: isMenu },
    { field: "url", label: msg`Link`, kind: "text", when: (v) => isMenu(v) && v.menu_type !== "tab" },
    { field: "component", label: msg`Component`, kind: "text", when: (v) => isMenu(v) && v.menu_type === "tab", hint: msg`The screen's key, e.g. auth/admin` },
    { field: "keepalive", label: msg`Keep alive`, kind: "switch", boolean: true, when: isMenu },
    { field: "weigh", label: msg`Weight`, kind: "number", initial: 0 },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: adminRuleAdd,
  editSchema: adminRuleEdit.omit({ id: true }),
  // A new or changed menu shows in the side menu at once.
  afterChange: reloadAdminMenus,
};

export default rules;
