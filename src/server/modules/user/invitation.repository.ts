import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/** Member invitations (member_invitation): only the token's hash is kept. */

/** Opens one invitation per member (their older open ones are closed: only the newest link works). */
export async function insertInvitations(q: Queryable, rows: readonly { userId: number; tokenHash: string }[], now: number, expires: number): Promise<void> {
  if (rows.length === 0) return;
  const k = kyselyOf(q);
  const ids = rows.map((r) => r.userId);
  await k.updateTable("member_invitation").set({ used_time: now }).where("user_id", "in", ids).where("used_time", "is", null).execute();
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    await k
      .insertInto("member_invitation")
      .values(part.map((r) => ({ user_id: r.userId, token_hash: r.tokenHash, create_time: now, expire_time: expires })))
      .execute();
  }
}

export interface OpenInvitation {
  id: number;
  user_id: number;
  username: string;
  nickname: string;
}

/** The open, unexpired invitation of this hash with its member (locked when `lock`), or undefined. */
export async function openInvitation(q: Queryable, tokenHash: string, now: number, lock = false): Promise<OpenInvitation | undefined> {
  let query = kyselyOf(q)
    .selectFrom("member_invitation as i")
    .innerJoin("member as m", "m.id", "i.user_id")
    .select(["i.id", "i.user_id", "m.username", "m.nickname"])
    .where("i.token_hash", "=", tokenHash)
    .where("i.used_time", "is", null)
    .where("i.expire_time", ">", now)
    .where("m.status", "=", "enable");
  if (lock) query = query.modifyEnd(sql`for update of i`);
  return (await query.executeTakeFirst()) as OpenInvitation | undefined;
}

export async function spendInvitation(q: Queryable, id: number, now: number): Promise<void> {
  await kyselyOf(q).updateTable("member_invitation").set({ used_time: now }).where("id", "=", id).execute();
}

/** The members' emails, mobiles and names (an invitation goes to the email, else the mobile). */
export async function inviteesOf(q: Queryable, ids: readonly number[]): Promise<{ id: number; username: string; nickname: string; email: string | null; mobile: string | null; status: string }[]> {
  if (ids.length === 0) return [];
  return kyselyOf(q)
    .selectFrom("member")
    .select(["id", "username", "nickname", "email", "mobile", "status"])
    .where(sql<boolean>`id = any(${[...ids]}::int[])`)
    .execute();
}
