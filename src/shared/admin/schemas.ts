import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { dbId, safeText, withMessage } from "../schema.ts";
import { memberOrg } from "./org.ts";
import { ACCOUNT_REGEX, MOBILE_REGEX, PASSWORD_REGEX } from "../validation.ts";

/**
 * The add / edit bodies of the back-office resources (src/server/crud/resources), shared with
 * the client's forms: each field carries the message shown beside it when refused (both
 * languages, through Lingui). An edit body is the add body with the row's `id`; a password left
 * empty on edit keeps the old one.
 */

const account = withMessage(z.string().regex(ACCOUNT_REGEX), msg`A username is 3 to 15 letters, digits or underscores, starting with a letter`);
const password = withMessage(z.string().regex(PASSWORD_REGEX), msg`A password is 6 to 32 characters, without & < > " or '`);
/** Empty on edit: unchanged. */
const newPassword = withMessage(z.union([z.literal(""), z.string().regex(PASSWORD_REGEX)]).optional(), msg`A password is 6 to 32 characters, without & < > " or '`);
const nickname = withMessage(safeText(50).optional().default(""), msg`The nickname is at most 50 characters`);
/** Empty text means "none" (stored as null: the column is unique). */
const blankToNull = (value: unknown) => (typeof value === "string" && value.trim() === "" ? null : value);
const email = withMessage(z.preprocess(blankToNull, z.email().max(100).nullable().optional().default(null)), msg`Please enter the correct email address`);
const mobile = withMessage(z.preprocess(blankToNull, z.string().regex(MOBILE_REGEX).nullable().optional().default(null)), msg`Please enter the correct mobile number`);
const status = withMessage(z.enum(["enable", "disable"]).optional().default("enable"), msg`Please choose a status`);
const rowId = withMessage(dbId, msg`Please choose a row`);

export const adminAdd = z.object({
  username: account,
  nickname,
  email,
  mobile,
  password,
  status,
  group_ids: withMessage(z.array(dbId).max(50).optional().default([]), msg`Please choose the groups`),
  /** A company admin sees and changes only their company's members, classrooms, rooms, results and logs. */
  is_company: withMessage(z.boolean().optional().default(false), msg`Please choose whether the admin is a company admin`),
  company_id: memberOrg.company_id,
});
export const adminEdit = adminAdd.extend({ id: rowId, password: newPassword });
export type AdminAdd = z.infer<typeof adminAdd>;
export type AdminEdit = z.infer<typeof adminEdit>;

/** Rule ids granted by a group ("*" all rules: only who holds all may grant it). */
const ruleIds = withMessage(
  z.union([z.literal("*"), z.array(dbId).max(2000)]).optional().default([]),
  msg`Please choose the rules`,
);
export const adminGroupAdd = z.object({
  pid: withMessage(z.number().int().min(0).max(2_147_483_647).optional().default(0), msg`Please choose the parent group`),
  name: withMessage(safeText(50).trim().min(1), msg`Please enter the group name`),
  rules: ruleIds,
  status,
});
export const adminGroupEdit = adminGroupAdd.extend({ id: rowId });
export type AdminGroupAdd = z.infer<typeof adminGroupAdd>;

export const memberAdd = z.object({
  username: account,
  nickname,
  email,
  mobile,
  /** Required on add unless `invite` (the server says so beside the field). */
  password: newPassword,
  /** Add only: email the member a link to set their own password instead of giving one. */
  invite: withMessage(z.boolean().optional().default(false), msg`Please choose whether to send an invitation`),
  group_id: withMessage(z.preprocess((v) => (v === 0 || v === "" ? null : v), dbId.nullable().optional().default(null)), msg`Please choose a member group`),
  gender: withMessage(z.union([z.literal(0), z.literal(1), z.literal(2)]).optional().default(0), msg`Please choose a gender`),
  birthday: withMessage(
    z.preprocess(blankToNull, z.iso.date().nullable().optional().default(null)),
    msg`Please enter a date such as 2000-01-31`,
  ),
  avatar: withMessage(safeText(255).optional().default(""), msg`The avatar address is too long`),
  motto: withMessage(safeText(255).optional().default(""), msg`The signature is at most 255 characters`),
  ...memberOrg,
  status,
});
export const memberEdit = memberAdd.extend({ id: rowId, password: newPassword });
export type MemberAdd = z.infer<typeof memberAdd>;

/**
 * What a menu rule (admin_rule) and a member rule (user_rule) both say of the entry they make:
 * its titles, route name and path, icon, how a menu opens (tab / link / iframe) and what it shows.
 */
export const ruleEntry = {
  title: withMessage(safeText(50).trim().min(1), msg`Please enter the rule title`),
  title_en: withMessage(safeText(50).optional().default(""), msg`The English title is at most 50 characters`),
  name: withMessage(z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_/.:-]{0,99}$/), msg`Please enter the rule name: letters, digits and _ / . : - only`),
  path: withMessage(safeText(100).optional().default(""), msg`The route path is at most 100 characters`),
  icon: withMessage(safeText(50).optional().default(""), msg`The icon name is at most 50 characters`),
  menu_type: withMessage(z.enum(["tab", "link", "iframe"]).nullable().optional().default(null), msg`Please choose the menu type`),
  url: withMessage(safeText(255).optional().default(""), msg`The link is at most 255 characters`),
  component: withMessage(safeText(100).optional().default(""), msg`The component is at most 100 characters`),
};
/** A rule's remark and its place among its siblings, the last fields of both kinds of rule. */
export const ruleOrder = {
  remark: withMessage(safeText(255).optional().default(""), msg`The remark is at most 255 characters`),
  weigh: withMessage(z.number().int().min(-1_000_000).max(1_000_000).optional().default(0), msg`The weight must be a whole number`),
};

/** A menu rule (admin_rule): a directory, a menu (tab / link / iframe) or a button. */
export const adminRuleAdd = z.object({
  pid: withMessage(z.number().int().min(0).max(2_147_483_647).optional().default(0), msg`Please choose the parent rule`),
  type: withMessage(z.enum(["menu_dir", "menu", "button"]), msg`Please choose the rule type`),
  ...ruleEntry,
  keepalive: withMessage(z.boolean().optional().default(false), msg`Please choose whether to keep the page alive`),
  extend: withMessage(z.enum(["none", "add_rules_only", "add_menu_only"]).optional().default("none"), msg`Please choose the extension`),
  ...ruleOrder,
  status,
});
export const adminRuleEdit = adminRuleAdd.extend({ id: rowId });

/** A member group: the member rules (user_rule ids, or "*") it opens in the member center. */
export const memberGroupAdd = z.object({
  name: withMessage(safeText(50).trim().min(1), msg`Please enter the group name`),
  rules: ruleIds,
  status,
});
export const memberGroupEdit = memberGroupAdd.extend({ id: rowId });
export type MemberGroupAdd = z.infer<typeof memberGroupAdd>;
