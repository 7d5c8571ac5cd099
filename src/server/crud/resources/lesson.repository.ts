import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { idIn, nowSeconds } from "../repository.ts";

/** A new update_time for these courses (their detail lists the lessons). */
export async function touchCourseRows(q: Queryable, courseIds: readonly number[]): Promise<void> {
  await kyselyOf(q).updateTable("course").set("update_time", nowSeconds).where(idIn("id", courseIds)).execute();
}
