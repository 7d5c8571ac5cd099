import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf, rowById } from "../../db/kysely.ts";
import type { AdminOwnProfile } from "../../../shared/admin/profile.ts";

/** The rows of an admin's own account screen (profile.ts calls these): always the caller's row, by id. */

const nowSeconds = sql<number>`extract(epoch from now())::bigint`;

/** What the screen shows: the editable fields, and the username and last login beside them. */
export async function ownProfile(q: Queryable, adminId: number) {
  return rowById(q, "admin", ["id", "username", "nickname", "avatar", "email", "mobile", "motto", "last_login_time"], adminId);
}

/** Writes only the fields an admin keeps up themself (never username, groups, status, company). */
export async function saveOwnProfile(q: Queryable, adminId: number, p: AdminOwnProfile): Promise<void> {
  await kyselyOf(q)
    .updateTable("admin")
    .set({ nickname: p.nickname, email: p.email, mobile: p.mobile, avatar: p.avatar, motto: p.motto, update_time: nowSeconds })
    .where("id", "=", adminId)
    .execute();
}

export async function adminPasswordHash(q: Queryable, adminId: number): Promise<string | undefined> {
  const row = await rowById(q, "admin", ["password_hash"], adminId);
  return row?.password_hash;
}

export async function setAdminPasswordHash(q: Queryable, adminId: number, hash: string): Promise<void> {
  await kyselyOf(q).updateTable("admin").set({ password_hash: hash, update_time: nowSeconds }).where("id", "=", adminId).execute();
}
