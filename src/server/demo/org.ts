import type { Queryable } from "../db/database.ts";
import { DEMO_ADMIN, DEMO_MEMBER } from "./accounts.ts";

/**
 * A small organisation for the demo: a group company with a branch, two duties, and a
 * classroom (the demo admin as its head teacher) the demo member sits in. No content is assigned
 * to them, so everything stays open to every member.
 */
export async function seedOrg(tx: Queryable): Promise<void> {
  const group = await tx.query<{ id: number }>("insert into company (pid, name, weigh) values (0, $1, 10) returning id", ["示范集团 Demo Group"]);
  const branch = await tx.query<{ id: number }>("insert into company (pid, name) values ($1, $2) returning id", [group.rows[0]!.id, "华东分公司 East Branch"]);
  const duty = await tx.query<{ id: number }>("insert into duty (name, weigh) values ($1, 10), ($2, 0) returning id", ["销售顾问 Sales adviser", "店长 Store manager"]);
  await tx.query("update member set company_id = $1, duty_id = $2 where username = $3", [branch.rows[0]!.id, duty.rows[0]!.id, DEMO_MEMBER.username]);
  const now = Math.floor(Date.now() / 1000);
  const classroom = await tx.query<{ id: number }>(
    `insert into classroom (company_id, name, head_admin_id, start_time, end_time, remark)
     values ($1, $2, (select id from admin where username = $3), $4, $5, '') returning id`,
    [branch.rows[0]!.id, "2026 新员工培训班 New staff class", DEMO_ADMIN.username, now, now + 90 * 86_400],
  );
  await tx.query("insert into classroom_member (classroom_id, user_id) select $1, id from member where username = $2", [classroom.rows[0]!.id, DEMO_MEMBER.username]);
}
