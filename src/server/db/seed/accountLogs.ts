import type { Queryable } from "../database.ts";
import { DEMO_MEMBER } from "./accounts.ts";

/** A few balance and points entries for the demo member, ending at the member's current totals. */
export async function seedAccountLogs(tx: Queryable): Promise<void> {
  const { rows } = await tx.query<{ id: number }>("select id from member where username = $1", [DEMO_MEMBER.username]);
  const member = rows[0];
  if (!member) return;
  const day = 86_400;
  const now = Math.floor(Date.now() / 1000);
  const money: [number, number, number, string][] = [
    [5, 10_000, 0, "Recharge"],
    [2, -2_000, 10_000, "Bought a course"],
    [1, 2_000, 8_000, "Refund"],
  ];
  for (const [ago, change, before, memo] of money) {
    await tx.query("insert into user_money_log (user_id, money, before, after, memo, create_time) values ($1, $2, $3, $4, $5, $6)", [
      member.id,
      change,
      before,
      before + change,
      memo,
      now - ago * day,
    ]);
  }
  const score: [number, number, number, string][] = [
    [4, 50, 0, "Daily check-in"],
    [1, 50, 50, "Finished a lesson"],
  ];
  for (const [ago, change, before, memo] of score) {
    await tx.query("insert into user_score_log (user_id, score, before, after, memo, create_time) values ($1, $2, $3, $4, $5, $6)", [
      member.id,
      change,
      before,
      before + change,
      memo,
      now - ago * day,
    ]);
  }
  await tx.query("update member set money = 10000, score = 100 where id = $1", [member.id]);
}
