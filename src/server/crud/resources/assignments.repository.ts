import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/** The org_access column naming what is assigned (a course, an exam room, a bank). */
export type TargetColumn = "course_id" | "room_id" | "bank_id";
/** The org_access column naming whom it is assigned to. */
export type AssigneeColumn = "company_id" | "duty_id" | "classroom_id";

/** The target's assignment rows, in the order they were written. */
export async function assignmentRows(q: Queryable, target: TargetColumn, id: number): Promise<{ company_id: number | null; duty_id: number | null; classroom_id: number | null }[]> {
  return kyselyOf(q).selectFrom("org_access").select(["company_id", "duty_id", "classroom_id"]).where(target, "=", id).orderBy("id").execute();
}

export async function deleteAssignment(q: Queryable, target: TargetColumn, id: number): Promise<void> {
  await kyselyOf(q).deleteFrom("org_access").where(target, "=", id).execute();
}

/** Assigns the target to each of `ids` (one row each) by the assignee column. */
export async function insertAssignment(q: Queryable, target: TargetColumn, id: number, by: AssigneeColumn, ids: readonly number[]): Promise<void> {
  await sql`insert into org_access (${sql.ref(target)}, ${sql.ref(by)}) select ${id}, unnest(${ids}::int[])`.execute(kyselyOf(q));
}
