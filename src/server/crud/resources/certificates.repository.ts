import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/** The certificate screens' own reads (certificates.ts). */

/** Whether an exam room / a course exists. */
export async function targetExists(q: Queryable, target: { roomId: number } | { courseId: number }): Promise<boolean> {
  const k = kyselyOf(q);
  const row = "roomId" in target
    ? await k.selectFrom("exam_room").select("id").where("id", "=", target.roomId).executeTakeFirst()
    : await k.selectFrom("course").select("id").where("id", "=", target.courseId).executeTakeFirst();
  return row !== undefined;
}

/** Another template of the same room or course, or undefined. */
export async function otherTemplateOf(q: Queryable, target: { roomId: number } | { courseId: number }, exceptId: number | null): Promise<number | undefined> {
  let query = kyselyOf(q).selectFrom("certificate_template").select("id");
  query = "roomId" in target ? query.where("room_id", "=", target.roomId) : query.where("course_id", "=", target.courseId);
  if (exceptId !== null) query = query.where("id", "<>", exceptId);
  return (await query.executeTakeFirst())?.id;
}

/** The titles of a room and a course (for a template's edit form). */
export async function targetTitles(q: Queryable, roomId: number | null, courseId: number | null): Promise<{ room_title: string; course_title: string }> {
  const k = kyselyOf(q);
  const room = roomId === null ? undefined : await k.selectFrom("exam_room").select("title").where("id", "=", roomId).executeTakeFirst();
  const course = courseId === null ? undefined : await k.selectFrom("course").select("title").where("id", "=", courseId).executeTakeFirst();
  return { room_title: room?.title ?? "", course_title: course?.title ?? "" };
}
