import { hashPassword } from "../auth/password.ts";
import type { Queryable } from "../db/database.ts";
import { insertMemberInFirstGroup, insertSuperAdmin, joinAllRulesGroup } from "./repository.ts";

/** The demo accounts the README promises. */
export const DEMO_ADMIN = { username: "admin", password: "admin123456" } as const;
export const DEMO_MEMBER = { username: "member", password: "member123456" } as const;

export async function seedAccounts(tx: Queryable): Promise<void> {
  const adminId = await insertSuperAdmin(tx, { username: DEMO_ADMIN.username, nickname: "Admin", passwordHash: await hashPassword(DEMO_ADMIN.password), motto: "" });
  await joinAllRulesGroup(tx, adminId);
  await insertMemberInFirstGroup(tx, {
    username: DEMO_MEMBER.username,
    nickname: "Member",
    email: "member@example.com",
    passwordHash: await hashPassword(DEMO_MEMBER.password),
    money: 10_000,
    score: 100,
    motto: "",
  });
}
