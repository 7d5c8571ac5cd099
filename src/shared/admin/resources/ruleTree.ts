import { msg } from "@lingui/core/macro";
import { enumField, STANDARD_FIELDS, standardDecls, type FieldDecl, type FieldOption } from "../fields.ts";

/** How a menu opens: a tab of the app, a link, or a page in a frame. */
export const MENU_TYPES: readonly FieldOption[] = [
  { value: "tab", label: msg`Tab` },
  { value: "link", label: msg`Link` },
  { value: "iframe", label: msg`Iframe` },
];

/**
 * The fields of a rule tree (admin menu rules, member rules): directories, menus and buttons by
 * `pid`, ordered by weigh. `types` are the tree's kinds of rule; `own`, the fields only this tree
 * has (listed after the shared ones, before the order, status and times).
 */
export function ruleTreeFields<const O extends Record<string, FieldDecl>>(types: readonly FieldOption[], own: O = {} as O) {
  return {
    ...standardDecls("id"),
    pid: { ...STANDARD_FIELDS.pid, label: msg`Parent ID` },
    type: enumField(types, msg`Type`),
    title: { type: "text", label: msg`Title` },
    title_en: { type: "text", label: msg`English title` },
    name: { type: "text", label: msg`Rule name` },
    path: { type: "text", label: msg`Route path` },
    icon: { type: "text" },
    menu_type: enumField(MENU_TYPES, msg`Menu type`),
    url: { type: "text" },
    component: { type: "text", label: msg`Component` },
    keepalive: { type: "bool" },
    ...own,
    ...standardDecls("weigh", "status", "create_time", "update_time"),
  } satisfies Record<string, FieldDecl>;
}

/** The fields every rule tree has (what is not among them is a tree's own). */
export const RULE_TREE_FIELDS: readonly string[] = Object.keys(ruleTreeFields([]));
