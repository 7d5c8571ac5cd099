import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { declareResource, enumField, LOG_TIME_FIELD, NAME_SEARCH, refFields, standardColumns, standardDecls, type ColumnDecl, type FieldDecl, type FieldOption } from "../fields.ts";
import type { MEMBER_RULE_TYPES } from "../members.ts";
import { ACCOUNT_FIELDS, LOGIN_FIELDS } from "./accounts.ts";
import { ruleTreeFields } from "./ruleTree.ts";

/** Members, their groups and the two account logs, as both sides list them. */

/** Members (user/user): profile, group, company and duty (their names joined), balance and points. */
export const memberDecl = declareResource({
  rule: "user/user",
  title: msg`Members`,
  fields: {
    ...ACCOUNT_FIELDS,
    gender: { type: "int" },
    birthday: { type: "date" },
    money: { type: "bigint", label: msg`Balance`, cents: true },
    score: { type: "bigint", label: msg`Points` },
    ...refFields("group", "name", msg`Group`),
    ...refFields("company", "name", msg`Company`),
    ...refFields("duty", "name", msg`Duty`),
    ...LOGIN_FIELDS,
    join_time: { type: "time" },
    ...standardDecls("create_time"),
  },
  quickSearch: { fields: ["id", "username", "nickname", "email", "mobile"], label: msg`ID, username, nickname, email, mobile` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "avatar" },
    { field: "username", sortable: true, search: "text" },
    { field: "nickname", search: "text" },
    { field: "group_id", search: "select", remote: { path: "user/group", labelField: "name" } },
    { field: "company_id", search: "select", remote: { path: "org/company", labelField: "name" } },
    { field: "duty_id", search: "select", remote: { path: "org/duty", labelField: "name" }, hidden: true },
    { field: "mobile", search: "text", hidden: true },
    { field: "email", search: "text", hidden: true },
    { field: "money", sortable: true },
    { field: "score", render: "number", sortable: true, hidden: true },
    ...standardColumns({ status: { search: true } }),
    { field: "last_login_time", render: "datetime", sortable: true, hidden: true },
    ...standardColumns({ create_time: { sortable: true, search: true } }),
  ],
});

/** Member groups (user/group): which member rules (member-center menus) each group opens. */
export const memberGroupDecl = declareResource({
  rule: "user/group",
  title: msg`Member groups`,
  logTitle: msg`User groups`,
  fields: {
    ...standardDecls("name", "status", "create_time", "update_time"),
  },
  quickSearch: NAME_SEARCH,
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "name", sortable: true, search: "text" },
    ...standardColumns({ status: { search: true }, create_time: { sortable: true, search: true }, update_time: { sortable: true, hidden: true } }),
  ],
});

/** The kinds of member rule (the member center's routes, menus, top-bar entries and buttons). */
export const MEMBER_RULE_KINDS = [
  { value: "route", label: msg`Route` },
  { value: "menu_dir", label: msg`Menu directory` },
  { value: "menu", label: msg`Menu` },
  { value: "nav_user_menu", label: msg`Member menu in the top bar` },
  { value: "nav", label: msg`Top bar link` },
  { value: "button", label: msg`Button` },
] as const satisfies readonly (FieldOption & { value: (typeof MEMBER_RULE_TYPES)[number] })[];

/** Member rules (user/rule): the member center's routes, menus and buttons, a tree reordered by weigh. */
export const memberRuleDecl = declareResource({
  rule: "user/rule",
  title: msg`Member rules`,
  fields: ruleTreeFields(MEMBER_RULE_KINDS),
  quickSearch: { fields: ["id", "title", "title_en", "name"], label: msg`ID, title, name` },
  tree: true,
  sortable: true,
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "title", search: "text" },
    { field: "title_en", search: "text" },
    { field: "name", search: "text" },
    { field: "type", render: "tag", search: "select" },
    ...standardColumns({ pid: { hidden: true } }),
    { field: "path", hidden: true },
    { field: "component", hidden: true },
    { field: "menu_type", render: "tag", hidden: true },
    ...standardColumns({ weigh: { sortable: true }, status: { search: true }, update_time: { sortable: true, hidden: true } }),
  ],
});

/** Whose row a member log's is: the member's id and username, the first fields and columns of the log. */
const LOG_MEMBER_FIELDS = {
  user_id: { type: "int", label: msg`Member ID` },
  username: { type: "text", label: msg`Member` },
} as const satisfies Record<string, FieldDecl>;

const LOG_MEMBER_COLUMNS: readonly ColumnDecl<"id" | keyof typeof LOG_MEMBER_FIELDS>[] = [
  ...standardColumns({ id: { sortable: true } }),
  { field: "user_id", render: "number", search: "number", hidden: true },
  { field: "username", search: "text" },
];

/**
 * A member's balance or points log (user/moneyLog, user/scoreLog): read-only rows with the
 * member's username; `column` is the change (cents of balance, or points).
 */
function accountLogDecl<C extends "money" | "score">(rule: "user/moneyLog" | "user/scoreLog", title: MessageDescriptor, column: C) {
  const money = column === "money";
  const cents = money ? ({ cents: true } as const) : {};
  const change = { [column]: { type: "bigint", label: money ? msg`Change` : msg`Points change`, ...cents } } as Record<C, FieldDecl>;
  return declareResource({
    rule,
    title,
    fields: {
      ...LOG_MEMBER_FIELDS,
      nickname: { type: "text" },
      ...change,
      before: { type: "bigint", label: msg`Before`, ...cents },
      after: { type: "bigint", label: msg`After`, ...cents },
      memo: { type: "text", label: msg`Memo` },
      memo_key: { type: "text" },
      memo_params: { type: "text", operators: ["NULL", "NOT NULL"] },
      create_time: LOG_TIME_FIELD,
    },
    quickSearch: { fields: ["id", "user_id", "username", "nickname"], label: msg`ID, member ID, username, nickname` },
    columns: [
      ...LOG_MEMBER_COLUMNS,
      { field: column, sortable: true },
      // The balance's figures are shown in yuan by the screen's own cells.
      { field: "before", ...(money ? {} : { render: "number" as const }) },
      { field: "after", ...(money ? {} : { render: "number" as const }) },
      { field: "memo" },
      ...standardColumns({ create_time: { sortable: true, search: true } }),
    ],
  });
}

export const moneyLogDecl = accountLogDecl("user/moneyLog", msg`Balance log`, "money");
export const scoreLogDecl = accountLogDecl("user/scoreLog", msg`Points log`, "score");

/** The notices sent to members (user/notice): read-only, who got which notice, through which channels, when. */
export const noticeLogDecl = declareResource({
  rule: "user/notice",
  title: msg`Notice log`,
  fields: {
    ...LOG_MEMBER_FIELDS,
    kind: enumField(
      [
        { value: "room_open", label: msg`Exam room open` },
        { value: "room_closing", label: msg`Exam room closing soon` },
        { value: "result", label: msg`Result published` },
      ],
      msg`Kind`,
    ),
    ref: { type: "text", label: msg`Reference` },
    channels: { type: "text", label: msg`Channels` },
    read_at: { type: "time", label: msg`Read at` },
    create_time: LOG_TIME_FIELD,
  },
  quickSearch: { fields: ["id", "user_id", "username", "ref"], label: msg`ID, member ID, username, reference` },
  columns: [
    ...LOG_MEMBER_COLUMNS,
    { field: "kind", render: "tag", search: "select" },
    { field: "ref", search: "text" },
    { field: "channels", search: "text" },
    { field: "read_at", render: "datetime", search: "datetime" },
    ...standardColumns({ create_time: { sortable: true, search: true } }),
  ],
});
