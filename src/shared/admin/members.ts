import type { DueRoom } from "../reports.ts";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { dbId, safeText, withMessage } from "../schema.ts";
import { ruleEntry, ruleOrder } from "./schemas.ts";

/**
 * The members area of the back office (`user/...`): member rules (the member center's menus),
 * balance and points adjustments, and the dashboard's figures. Shared by the server's resources
 * and the client's forms; each field carries the message shown beside it when refused.
 */

/** Most cents one balance adjustment may move (1,000,000.00 either way). */
export const MAX_MONEY_CHANGE = 100_000_000;
/** Most points one adjustment may move. */
export const MAX_SCORE_CHANGE = 10_000_000;
/** Highest balance (cents) or points a member may reach: exact in a JS number, far below bigint's end. */
export const MAX_ACCOUNT_FIGURE = 1_000_000_000_000;

const status = withMessage(z.enum(["enable", "disable"]).optional().default("enable"), msg`Please choose a status`);
const memo = withMessage(safeText(200).trim().optional().default(""), msg`The memo is at most 200 characters`);
const member = withMessage(dbId, msg`Please choose a member`);
/** A whole, non-zero amount within [-max, max]. */
const change = (max: number) => z.number().int().min(-max).max(max).refine((n) => n !== 0);

/**
 * `POST /admin/user/moneyLog/add`: change a member's balance by `money` cents (negative takes
 * away); the balance may not go below zero. Unknown keys are refused.
 */
export const moneyAdjust = z.strictObject({
  user_id: member,
  money: withMessage(change(MAX_MONEY_CHANGE), msg`Enter a non-zero amount of at most 1,000,000.00, with at most 2 decimals`),
  memo,
});
export type MoneyAdjust = z.infer<typeof moneyAdjust>;

/** `POST /admin/user/scoreLog/add`: change a member's points by `score`. */
export const scoreAdjust = z.strictObject({
  user_id: member,
  score: withMessage(change(MAX_SCORE_CHANGE), msg`Enter a non-zero whole number of points of at most 10,000,000`),
  memo,
});
export type ScoreAdjust = z.infer<typeof scoreAdjust>;

/** The types of a member rule (user_rule): what the member center makes of it. */
export const MEMBER_RULE_TYPES = ["route", "menu_dir", "menu", "nav_user_menu", "nav", "button"] as const;

/** A member rule (user_rule): a route, a menu entry of the member center, a nav item or a button. */
export const memberRuleAdd = z.object({
  pid: withMessage(z.preprocess((v) => (v === null ? 0 : v), z.number().int().min(0).max(2_147_483_647).optional().default(0)), msg`Please choose the parent rule`),
  type: withMessage(z.enum(MEMBER_RULE_TYPES), msg`Please choose the rule type`),
  ...ruleEntry,
  // A switch sends 1 / 0.
  keepalive: withMessage(z.union([z.boolean(), z.literal(0), z.literal(1)]).optional().default(false).transform(Boolean), msg`Please choose whether to keep the page alive`),
  ...ruleOrder,
  status,
});
export const memberRuleEdit = memberRuleAdd.extend({ id: withMessage(dbId, msg`Please choose a row`) });
export type MemberRuleAdd = z.infer<typeof memberRuleAdd>;

/** `GET /admin/dashboard/index`: the back office's home figures. */
export interface DashboardFigures {
  members: number;
  courses: number;
  questions: number;
  /** Exam attempts started today (server's UTC day). */
  attemptsToday: number;
  /** New members per day, oldest first: the last 7 days including today (UTC days, "YYYY-MM-DD"). */
  newMembers: { day: string; count: number }[];
  /** Rooms whose window closes within 7 days, soonest first, with how many assigned members have not passed (reports). */
  dueThisWeek: DueRoom[];
}
