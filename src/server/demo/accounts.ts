import { hashPassword } from "../auth/password.ts";
import type { Queryable } from "../db/database.ts";

/** The demo accounts the README promises. */
export const DEMO_ADMIN = { username: "admin", password: "admin123456" } as const;
export const DEMO_MEMBER = { username: "member", password: "member123456" } as const;

export async function seedAccounts(tx: Queryable): Promise<void> {
  const admin = await tx.query<{ id: number }>(
    `insert into admin (username, nickname, password_hash, is_super, motto)
     values ($1, $2, $3, true, $4) returning id`,
    [DEMO_ADMIN.username, "Admin", await hashPassword(DEMO_ADMIN.password), ""],
  );
  await tx.query("insert into admin_group_access (uid, group_id) select $1, id from admin_group where rules = '*' order by id limit 1", [
    admin.rows[0]!.id,
  ]);
  await tx.query(
    `insert into member (username, nickname, email, password_hash, gender, money, score, motto, group_id)
     values ($1, $2, $3, $4, 0, $5, $6, $7, (select id from user_group order by id limit 1))`,
    [DEMO_MEMBER.username, "Member", "member@example.com", await hashPassword(DEMO_MEMBER.password), 10_000, 100, ""],
  );
}
