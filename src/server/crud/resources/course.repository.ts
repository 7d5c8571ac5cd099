import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import type { Row } from "../resource.ts";
import { countsPer, idIn } from "../repository.ts";

/** Whether any course is in one of these categories. */
export async function categoriesHaveCourses(q: Queryable, categoryIds: readonly number[]): Promise<boolean> {
  const rows = await kyselyOf(q).selectFrom("course").select("id").where(idIn("category_id", categoryIds)).limit(1).execute();
  return rows.length > 0;
}

/** Whether any member is enrolled in one of these courses. */
export async function coursesHaveEnrolments(q: Queryable, courseIds: readonly number[]): Promise<boolean> {
  const rows = await kyselyOf(q).selectFrom("course_enrolment").select(sql`1`.as("one")).where(idIn("course_id", courseIds)).limit(1).execute();
  return rows.length > 0;
}

/** The lessons of these courses, with what releasing their videos needs. */
export async function lessonsOfCourses(q: Queryable, courseIds: readonly number[]): Promise<Row[]> {
  return kyselyOf(q).selectFrom("lesson").select(["id", "video_url", "update_time"]).where(idIn("course_id", courseIds)).execute();
}

/** How many lessons each of these courses has (courses without lessons are left out). */
export const lessonCounts = (q: Queryable, courseIds: readonly number[]) => countsPer(q, "lesson", "course_id", courseIds);
