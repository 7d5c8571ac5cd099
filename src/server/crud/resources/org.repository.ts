import { sql, type Expression, type SqlBool } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { countsPer, idIn } from "../repository.ts";

/** Whether company `id` is `root` or under it. */
export async function companyUnder(q: Queryable, root: number | null, id: number): Promise<boolean> {
  const { rows } = await sql`select 1 from company_subtree(${root}::int) as s(id) where s.id = ${id}`.execute(kyselyOf(q));
  return rows.length > 0;
}

/** Whether members, admins, classrooms or exam rooms still belong to one of these companies. */
export async function companiesInUse(q: Queryable, companyIds: readonly number[]): Promise<boolean> {
  const ids = sql`any(${companyIds}::int[])`;
  const { rows } = await sql`
    select 1 from member where company_id = ${ids} union all select 1 from admin where company_id = ${ids}
    union all select 1 from classroom where company_id = ${ids} union all select 1 from exam_room where company_id = ${ids} limit 1`.execute(kyselyOf(q));
  return rows.length > 0;
}

/**
 * Whether admin `id` exists and meets `condition` (the engine's company scope of the head-teacher
 * picker, crud/scope.ts), the admin table aliased `t` as the condition expects.
 */
export async function adminMeets(q: Queryable, id: number, condition: Expression<SqlBool>): Promise<boolean> {
  const found = await kyselyOf(q)
    .selectFrom(sql`admin`.as("t"))
    .select(sql<number>`t.id`.as("id"))
    .where(sql<SqlBool>`t.id = ${id}`)
    .where(condition)
    .executeTakeFirst();
  return found !== undefined;
}

/** The courses and rooms assigned to the classroom, in the order they were written. */
export async function classroomAccessRows(q: Queryable, classroomId: number): Promise<{ course_id: number | null; room_id: number | null }[]> {
  return kyselyOf(q).selectFrom("org_access").select(["course_id", "room_id"]).where("classroom_id", "=", classroomId).orderBy("id").execute();
}

/** Takes the classroom's courses and rooms off it (its bank assignments stay). */
export async function clearClassroomLinks(q: Queryable, classroomId: number): Promise<void> {
  await kyselyOf(q)
    .deleteFrom("org_access")
    .where("classroom_id", "=", classroomId)
    .where((eb) => eb.or([eb("course_id", "is not", null), eb("room_id", "is not", null)]))
    .execute();
}

/** Assigns courses or rooms to the classroom (ids unique). */
export async function linkClassroom(q: Queryable, classroomId: number, column: "course_id" | "room_id", ids: readonly number[]): Promise<void> {
  await sql`insert into org_access (classroom_id, ${sql.ref(column)}) select ${classroomId}, unnest(${ids}::int[])`.execute(kyselyOf(q));
}

/** Whether one of these classrooms is the only one opening a course, room or bank. */
export async function classroomsAloneOpen(q: Queryable, classroomIds: readonly number[]): Promise<boolean> {
  const { rows } = await sql`
    select 1 from org_access a where a.classroom_id = any(${classroomIds}::int[]) and not exists (
      select 1 from org_access b where not (b.classroom_id = any(${classroomIds}::int[]) and b.classroom_id is not null)
        and (b.course_id = a.course_id or b.room_id = a.room_id or b.bank_id = a.bank_id)) limit 1`.execute(kyselyOf(q));
  return rows.length > 0;
}

export async function deleteClassroomAccess(q: Queryable, classroomIds: readonly number[]): Promise<void> {
  await kyselyOf(q).deleteFrom("org_access").where(idIn("classroom_id", classroomIds)).execute();
}

/** The admin's display name: nickname, or username without one. */
export async function adminLabel(q: Queryable, id: unknown): Promise<string | undefined> {
  const row = await kyselyOf(q)
    .selectFrom("admin")
    .select(sql<string>`coalesce(nullif(nickname, ''), username)`.as("label"))
    .where("id", "=", id as number)
    .executeTakeFirst();
  return row?.label;
}

/** How many members each of these classrooms has (empty ones are left out). */
export const membersPerClassroom = (q: Queryable, classroomIds: readonly number[]) => countsPer(q, "classroom_member", "classroom_id", classroomIds);

/** The classroom's members by id, at most `limit`. */
export async function classroomMembers(q: Queryable, classroomId: number, limit: number): Promise<{ id: number; username: string; nickname: string }[]> {
  return kyselyOf(q)
    .selectFrom("classroom_member as cm")
    .innerJoin("member as m", "m.id", "cm.user_id")
    .select(["m.id", "m.username", "m.nickname"])
    .where("cm.classroom_id", "=", classroomId)
    .orderBy("m.id")
    .limit(limit)
    .execute();
}

/** Puts members in the classroom; how many were not in it yet. */
export async function addClassroomMembers(q: Queryable, classroomId: number, memberIds: readonly number[]): Promise<number> {
  const { rows } = await sql`insert into classroom_member (classroom_id, user_id) select ${classroomId}, unnest(${memberIds}::int[]) on conflict do nothing returning user_id`.execute(kyselyOf(q));
  return rows.length;
}

/** Takes members out of the classroom; how many were in it. */
export async function removeClassroomMembers(q: Queryable, classroomId: number, memberIds: readonly number[]): Promise<number> {
  const rows = await kyselyOf(q).deleteFrom("classroom_member").where("classroom_id", "=", classroomId).where(idIn("user_id", memberIds)).returning("user_id").execute();
  return rows.length;
}
