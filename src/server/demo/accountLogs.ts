import { memos, type Memo } from "../modules/account/memos.ts";
import type { Queryable } from "../db/database.ts";
import { DEMO_MEMBER } from "./accounts.ts";
import {
  deleteMoneyLogs,
  earlierDemoPurchases,
  earlierDemoRefunds,
  hasPaidEnrolment,
  insertLedgerEntries,
  memberIdByUsername,
  retellCheckInPoints,
  retellLessonPoints,
  setMemberTotals,
  type DemoLedger,
  type LedgerEntry,
} from "./repository.ts";

const DAY = 86_400;

/** One demo log entry: days ago, change (cents for money), memo. */
export type DemoLogEntry = [daysAgo: number, change: number, memo: Memo];

/**
 * The demo member's story: two recharges make the ¥100.00 balance (enough for the paid course,
 * bought nothing yet); a welcome bonus and an administrator's gift make the 100 points. Each row's
 * `before` is the previous row's `after`, starting at 0, and the member's totals are the last one.
 */
export const DEMO_MONEY_LOG: DemoLogEntry[] = [
  [6, 8_000, memos.recharge()],
  [3, 2_000, memos.recharge()],
];
export const DEMO_SCORE_LOG: DemoLogEntry[] = [
  [6, 50, memos.signup()],
  [2, 50, memos.adminAdjust()],
];

/** The totals the demo logs end at. */
export const demoTotal = (entries: DemoLogEntry[]): number => entries.reduce((sum, [, change]) => sum + change, 0);

async function insertLog(tx: Queryable, table: DemoLedger, userId: number, entries: DemoLogEntry[]): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  let before = 0;
  const rows: LedgerEntry[] = [];
  for (const [ago, change, memo] of entries) {
    rows.push({ change, before, after: before + change, memoKey: memo.key, memoParams: JSON.stringify(memo.params), createTime: now - ago * DAY });
    before += change;
  }
  await insertLedgerEntries(tx, table, userId, rows);
}

const demoMemberId = (tx: Queryable): Promise<number | undefined> => memberIdByUsername(tx, DEMO_MEMBER.username);

/** The demo member's balance and points logs, ending at the member's current totals. */
export async function seedAccountLogs(tx: Queryable): Promise<void> {
  const memberId = await demoMemberId(tx);
  if (memberId === undefined) return;
  await insertLog(tx, "user_money_log", memberId, DEMO_MONEY_LOG);
  await insertLog(tx, "user_score_log", memberId, DEMO_SCORE_LOG);
  await setMemberTotals(tx, memberId, demoTotal(DEMO_MONEY_LOG), demoTotal(DEMO_SCORE_LOG));
}

/**
 * Demo databases seeded by earlier releases told another story: a "Bought a course −20.00" row
 * (and its "Refund") for a member who bought nothing, and points for a check-in and a lesson that
 * never happened. This rewrites exactly those rows (as migration 0012 converted them) and leaves
 * anything else alone; the balance chain stays whole, as the purchase and its refund cancel out.
 */
export async function retellAccountLogs(tx: Queryable): Promise<void> {
  const memberId = await demoMemberId(tx);
  if (memberId === undefined) return;
  const paid = await hasPaidEnrolment(tx, memberId);
  const bought = await earlierDemoPurchases(tx, memberId);
  const refund = await earlierDemoRefunds(tx, memberId);
  if (!paid && bought.length === 1 && refund.length === 1) {
    await deleteMoneyLogs(tx, [bought[0]!.id, refund[0]!.id]);
  }
  await retellCheckInPoints(tx, memberId);
  await retellLessonPoints(tx, memberId);
}
