import { memos, type Memo } from "../modules/account/memos.ts";
import type { Queryable } from "../db/database.ts";
import { DEMO_MEMBER } from "./accounts.ts";

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

async function insertLog(tx: Queryable, table: "user_money_log" | "user_score_log", userId: number, entries: DemoLogEntry[]): Promise<void> {
  const column = table === "user_money_log" ? "money" : "score";
  const now = Math.floor(Date.now() / 1000);
  let before = 0;
  for (const [ago, change, memo] of entries) {
    await tx.query(
      `insert into ${table} (user_id, ${column}, before, after, memo_key, memo_params, create_time) values ($1, $2, $3, $4, $5, $6, $7)`,
      [userId, change, before, before + change, memo.key, JSON.stringify(memo.params), now - ago * DAY],
    );
    before += change;
  }
}

async function demoMemberId(tx: Queryable): Promise<number | undefined> {
  const { rows } = await tx.query<{ id: number }>("select id from member where username = $1", [DEMO_MEMBER.username]);
  return rows[0]?.id;
}

/** The demo member's balance and points logs, ending at the member's current totals. */
export async function seedAccountLogs(tx: Queryable): Promise<void> {
  const memberId = await demoMemberId(tx);
  if (memberId === undefined) return;
  await insertLog(tx, "user_money_log", memberId, DEMO_MONEY_LOG);
  await insertLog(tx, "user_score_log", memberId, DEMO_SCORE_LOG);
  await tx.query("update member set money = $1, score = $2 where id = $3", [demoTotal(DEMO_MONEY_LOG), demoTotal(DEMO_SCORE_LOG), memberId]);
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
  const paid = await tx.query("select 1 from course_enrolment where user_id = $1 and paid > 0", [memberId]);
  const bought = await tx.query<{ id: number; after: number }>(
    `select id, after from user_money_log where user_id = $1 and memo_key = 'course.bought' and memo_params = '{}'::jsonb
       and money = -2000 and before = 10000 and after = 8000`,
    [memberId],
  );
  const refund = await tx.query<{ id: number }>(
    "select id from user_money_log where user_id = $1 and memo_key = 'refund' and money = 2000 and before = 8000 and after = 10000",
    [memberId],
  );
  if (paid.rows.length === 0 && bought.rows.length === 1 && refund.rows.length === 1) {
    await tx.query("delete from user_money_log where id = any($1::int[])", [[bought.rows[0]!.id, refund.rows[0]!.id]]);
  }
  await tx.query(
    "update user_score_log set memo_key = 'signup' where user_id = $1 and memo_key = 'checkin' and score = 50 and before = 0 and after = 50",
    [memberId],
  );
  await tx.query(
    `update user_score_log set memo_key = 'admin.adjust' where user_id = $1 and memo_key = 'lesson.completed'
       and memo_params = '{}'::jsonb and score = 50 and before = 50 and after = 100`,
    [memberId],
  );
}
