import { msg } from "@lingui/core/macro";
import { adminRuleAdd, adminRuleEdit } from "../../../shared/admin/schemas.ts";
import { ADMIN_RULE_TYPES, adminRuleDecl } from "../../../shared/admin/resources/auth.ts";
import { MENU_TYPES as MENU_TYPE_OPTIONS } from "../../../shared/admin/resources/ruleTree.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { reloadAdminMenus } from "../session.ts";
import { menuIcon } from "../menuIcons.tsx";
import { ruleTitle, STATUS_OPTIONS } from "./options.ts";
import { createElement } from "react";

const TYPES = [...ADMIN_RULE_TYPES];
const MENU_TYPES = [...MENU_TYPE_OPTIONS];
type Values = Record<string, unknown>;
const notButton = (v: Values) => v.type !== "button";
const isMenu = (v: Values) => v.type === "menu";

/** Menu rules (auth/rule): a tree of directories, menus and buttons, reordered by weigh; the side menu follows each change. */
const rules: CrudDefinition = {
  ...declaredScreen(adminRuleDecl, {
    title: (row) => createElement("span", { className: "inline-flex items-center gap-2 whitespace-nowrap" }, createElement(menuIcon({ icon: String(row.icon ?? ""), name: String(row.name ?? ""), type: row.type as "menu" }), { "aria-hidden": true, className: "size-4 shrink-0" }), String(row.title ?? "")),
  }),
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
