import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { idIn } from "../repository.ts";

/** The admin groups of these ids that exist, with their rules. */
export async function adminGroupsByIds(q: Queryable, ids: readonly number[]): Promise<{ id: number; rules: string }[]> {
  return kyselyOf(q).selectFrom("admin_group").select(["id", "rules"]).where(idIn("id", ids)).execute();
}

/** The groups an admin is in, by id. */
export async function groupIdsOfAdmin(q: Queryable, adminId: number): Promise<number[]> {
  const rows = await kyselyOf(q).selectFrom("admin_group_access").select("group_id").where("uid", "=", adminId).orderBy("group_id").execute();
  return rows.map((r) => r.group_id);
}

/** Puts the admin in exactly these groups (ids unique). */
export async function replaceAdminGroups(q: Queryable, adminId: number, groupIds: readonly number[]): Promise<void> {
  await kyselyOf(q).deleteFrom("admin_group_access").where("uid", "=", adminId).execute();
  if (groupIds.length > 0) await sql`insert into admin_group_access (uid, group_id) select ${adminId}, unnest(${groupIds}::int[])`.execute(kyselyOf(q));
}

/** Each admin's groups (id, name), by group id. */
export async function groupsOfAdmins(q: Queryable, adminIds: readonly unknown[]): Promise<{ uid: number; id: number; name: string }[]> {
  const { rows } = await sql<{ uid: number; id: number; name: string }>`
    select a.uid, g.id, g.name from admin_group_access a join admin_group g on g.id = a.group_id
    where a.uid in (${sql.join(adminIds)}) order by g.id`.execute(kyselyOf(q));
  return rows;
}
