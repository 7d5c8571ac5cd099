import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import type { MemberRow } from "../../plugins/auth.ts";
import { enabledRules } from "../admin/repository.ts";

/** The member side's start, login and registration rows (checkIn.ts and index.ts call these). */

/** The whole member row as it now is. */
export async function memberById(q: Queryable, id: number): Promise<MemberRow | undefined> {
  const row = await kyselyOf(q).selectFrom("member").selectAll().where("id", "=", id).executeTakeFirst();
  return row as MemberRow | undefined;
}

/** Members that already hold this username, or this email (any case) or mobile when given ("" = not given). */
export async function registrationClashes(
  q: Queryable,
  username: string,
  email: string,
  mobile: string,
): Promise<{ username: string; email: string | null; mobile: string | null }[]> {
  return kyselyOf(q)
    .selectFrom("member")
    .select(["username", "email", "mobile"])
    .where((eb) =>
      eb.or([
        eb("username", "=", username),
        sql<boolean>`(${email} <> '' and lower(email) = lower(${email}))`,
        sql<boolean>`(${mobile} <> '' and mobile = ${mobile})`,
      ]),
    )
    .execute();
}

export interface NewMember {
  username: string;
  email: string | null;
  mobile: string | null;
  passwordHash: string;
  ip: string;
}

/**
 * A new member in the first user group, logged in from where they registered; answers the whole
 * row. A taken username surfaces as the driver's unique violation (23505).
 */
export async function insertMember(q: Queryable, m: NewMember): Promise<MemberRow> {
  const k = kyselyOf(q);
  const row = await k
    .insertInto("member")
    .values({
      username: m.username,
      nickname: m.username,
      email: m.email,
      mobile: m.mobile,
      password_hash: m.passwordHash,
      join_ip: m.ip,
      group_id: k.selectFrom("user_group").select("id").orderBy("id").limit(1),
      last_login_time: sql<number>`extract(epoch from now())::bigint`,
      last_login_ip: m.ip,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return row as unknown as MemberRow;
}

/** The member side's enabled menu rules, heaviest first. */
export const enabledMemberRules = (q: Queryable) => enabledRules(q, "user_rule");

/** The rule list of an enabled user group ("*" = all; comma-separated ids otherwise). */
export async function enabledGroupRules(q: Queryable, groupId: number): Promise<string | undefined> {
  const row = await kyselyOf(q).selectFrom("user_group").select("rules").where("id", "=", groupId).where("status", "=", "enable").executeTakeFirst();
  return row?.rules;
}
