import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/** Puts the member in exactly these classrooms (ids unique): others left, new ones joined, kept ones untouched. */
export async function setMemberClassrooms(q: Queryable, memberId: number, classroomIds: readonly number[]): Promise<void> {
  const k = kyselyOf(q);
  await k
    .deleteFrom("classroom_member")
    .where("user_id", "=", memberId)
    .where(sql<boolean>`not (classroom_id = any(${classroomIds}::int[]))`)
    .execute();
  if (classroomIds.length > 0) await sql`insert into classroom_member (classroom_id, user_id) select unnest(${classroomIds}::int[]), ${memberId} on conflict do nothing`.execute(k);
}

export async function classroomIdsOfMember(q: Queryable, memberId: unknown): Promise<number[]> {
  const rows = await kyselyOf(q)
    .selectFrom("classroom_member")
    .select("classroom_id")
    .where("user_id", "=", memberId as number)
    .orderBy("classroom_id")
    .execute();
  return rows.map((r) => r.classroom_id);
}
