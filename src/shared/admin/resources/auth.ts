import { msg } from "@lingui/core/macro";
import { declareResource, LOG_TIME_FIELD, NAME_SEARCH, standardColumns, standardDecls, type FieldOption } from "../fields.ts";
import { ACCOUNT_FIELDS, LOGIN_FIELDS } from "./accounts.ts";
import { ruleTreeFields } from "./ruleTree.ts";

/** Admins, their groups and menu rules, and the admin log, as both sides list them. */

/** Admins (auth/admin): groups (from the list hook), company, status, last login. */
export const adminDecl = declareResource({
  rule: "auth/admin",
  title: msg`Admins`,
  fields: {
    ...ACCOUNT_FIELDS,
    is_super: { type: "bool" },
    is_company: { type: "bool" },
    company_id: { type: "int" },
    company_name: { type: "text", label: msg`Company` },
    ...LOGIN_FIELDS,
    ...standardDecls("create_time", "update_time"),
  },
  quickSearch: { fields: ["id", "username", "nickname"], label: msg`ID, username, nickname` },
  columns: [
    ...standardColumns({ id: { sortable: true, search: true } }),
    { field: "username", sortable: true, search: "text" },
    { field: "nickname", search: "text" },
    { hook: "groups", label: msg`Groups` },
    { field: "company_name" },
    { field: "email", search: "text" },
    { field: "mobile", search: "text" },
    ...standardColumns({ status: { search: true } }),
    { field: "last_login_time", render: "datetime", sortable: true, search: "datetime" },
    ...standardColumns({ create_time: { sortable: true, search: true, hidden: true } }),
  ],
});

/** Admin groups (auth/group): a tree; the rules each grants are its form's. */
export const adminGroupDecl = declareResource({
  rule: "auth/group",
  title: msg`Groups`,
  fields: {
    ...standardDecls("pid", "name", "status", "create_time", "update_time"),
  },
  quickSearch: NAME_SEARCH,
  tree: true,
  columns: [
    { field: "name", search: "text" },
    ...standardColumns({ id: {}, status: { search: true }, update_time: { search: true }, create_time: { hidden: true } }),
  ],
});

/** The kinds of admin menu rule. */
export const ADMIN_RULE_TYPES: readonly FieldOption[] = [
  { value: "menu_dir", label: msg`Directory` },
  { value: "menu", label: msg`Menu` },
  { value: "button", label: msg`Button` },
];

/** Menu rules (auth/rule): the back office's directories, menus and buttons, a tree reordered by weigh. */
export const adminRuleDecl = declareResource({
  rule: "auth/rule",
  title: msg`Menu rules`,
  logTitle: msg`Rules`,
  fields: ruleTreeFields(ADMIN_RULE_TYPES, { extend: { type: "enum", values: ["none", "add_rules_only", "add_menu_only"] } }),
  quickSearch: { fields: ["id", "title", "title_en", "name"], label: msg`ID, title, name` },
  tree: true,
  sortable: true,
  columns: [
    { field: "title", search: "text" },
    { field: "title_en", search: "text" },
    { field: "name", search: "text" },
    { field: "type", render: "tag", search: "select" },
    { field: "component", hidden: true },
    ...standardColumns({ weigh: {}, status: { search: true }, id: { hidden: true } }),
  ],
});

/** The admin log (auth/adminLog): every write an admin made, read-only. */
export const adminLogDecl = declareResource({
  rule: "auth/adminLog",
  title: msg`Admin log`,
  fields: {
    admin_id: { type: "int" },
    username: { type: "text", label: msg`Admin username` },
    title: { type: "text", label: msg`Title` },
    url: { type: "text", label: msg`URL` },
    method: { type: "enum", values: ["GET", "POST", "DELETE", "PUT", "PATCH"], label: msg`Method` },
    ip: { type: "text", label: msg`IP` },
    useragent: { type: "text", label: msg`User agent` },
    create_time: LOG_TIME_FIELD,
  },
  quickSearch: { fields: ["id", "username", "title", "url"], label: msg`ID, admin, title, url` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "username", search: "text" },
    { field: "title", search: "text" },
    { field: "url", search: "text" },
    { field: "method", render: "tag", hidden: true },
    { field: "ip", search: "text" },
    { field: "useragent", hidden: true },
    ...standardColumns({ create_time: { sortable: true, search: true } }),
  ],
});
