import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import type { FileUse } from "../../../shared/upload.ts";

/** The upload module's rows (storage.ts calls these; no SQL lives beside it). */

export interface AttachmentRow {
  id: number;
  url: string;
  width: number | null;
  height: number | null;
  size: number;
  mimetype: string;
}


/** The member's uploads accepted since `since` (ms), and the bytes of the distinct files they store. */
export async function memberUploadFigures(q: Queryable, userId: number, since: number): Promise<{ recent: number; used: number }> {
  const { rows } = await sql<{ recent: number; used: number }>`select
       (select count(*)::int from member_upload_event where user_id = ${userId} and at > ${since}) as recent,
       (select coalesce(sum(size), 0)::bigint from member_upload where user_id = ${userId}) as used`.execute(kyselyOf(q));
  return rows[0]!;
}

/** A transaction-scoped advisory lock on a storage key. */
export async function advisoryXactLock(q: Queryable, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(kyselyOf(q));
}

/**
 * The uses of each URL; `folders[i]` (an HLS folder, or null) stands for `urls[i]`'s whole
 * folder: any URL under it counts. Rich text counts when it contains the URL.
 */
export async function fileUseRows(q: Queryable, urls: string[], folders: (string | null)[]): Promise<(FileUse & { url: string })[]> {
  const { rows } = await sql<FileUse & { url: string }>`select u.url,
       (select count(*)::int from attachment where url = u.url or starts_with(url, u.folder)) as attachment,
       (select count(*)::int from admin where avatar = u.url) as admin,
       (select count(*)::int from member where avatar = u.url) as member,
       (select count(*)::int from course where cover = u.url or strpos(introduction, u.url) > 0) as course,
       (select count(*)::int from lesson where video_url = u.url or starts_with(video_url, u.folder) or strpos(content, u.url) > 0
          or (jsonb_typeof(attachments) = 'array' and exists (select 1 from jsonb_array_elements(attachments) e where jsonb_typeof(e) = 'object' and e->>'url' = u.url))) as lesson,
       (select count(*)::int from exam_question where strpos(stem, u.url) > 0 or strpos(analysis, u.url) > 0 or strpos(options::text, u.url) > 0) as question,
       (select count(*)::int from security_data_recycle_log where strpos(data::text, coalesce(u.folder, u.url)) > 0) as recycled
     from unnest(${urls}::text[], ${folders}::text[]) as u(url, folder)`.execute(kyselyOf(q));
  return rows;
}

/** Whether an upload of this content and topic has its attachment row already. */
export async function attachmentExists(q: Queryable, sha1: string, topic: string): Promise<boolean> {
  return (await kyselyOf(q).selectFrom("attachment").select("url").where("sha1", "=", sha1).where("topic", "=", topic).executeTakeFirst()) !== undefined;
}

/** Locks the member row: one member's uploads take turns. */
export async function lockMember(q: Queryable, userId: number): Promise<void> {
  await kyselyOf(q).selectFrom("member").select("id").where("id", "=", userId).forUpdate().execute();
}

/** Whether the member already stores this content under this topic. */
export async function memberHoldsUpload(q: Queryable, userId: number, sha1: string, topic: string): Promise<boolean> {
  const held = await kyselyOf(q)
    .selectFrom("member_upload as u")
    .innerJoin("attachment as a", "a.id", "u.attachment_id")
    .select("u.attachment_id")
    .where("u.user_id", "=", userId)
    .where("a.sha1", "=", sha1)
    .where("a.topic", "=", topic)
    .executeTakeFirst();
  return held !== undefined;
}

export interface AttachmentWrite {
  topic: string;
  adminId: number | null;
  userId: number | null;
  url: string;
  width: number | null;
  height: number | null;
  name: string;
  size: number;
  mimetype: string | undefined;
  sha1: string;
  /** Epoch seconds. */
  at: number;
  lessonVideo: boolean;
  storage: string;
}

/**
 * A new attachment row, or the existing row of this content and topic with its `quote` + 1 and
 * `last_upload_time` (a row another upload made is no longer only a lesson video's); `inserted`
 * tells which.
 */
export async function upsertAttachment(q: Queryable, a: AttachmentWrite): Promise<AttachmentRow & { inserted: boolean }> {
  const { rows } = await sql<AttachmentRow & { inserted: boolean }>`insert into attachment
       (topic, admin_id, user_id, url, width, height, name, size, mimetype, sha1, storage, create_time, last_upload_time, lesson_video)
     values (${a.topic}, ${a.adminId}, ${a.userId}, ${a.url}, ${a.width}, ${a.height}, ${a.name}, ${a.size}, ${a.mimetype ?? null}, ${a.sha1}, ${a.storage}, ${a.at}, ${a.at}, ${a.lessonVideo})
     on conflict (sha1, topic) do update set quote = attachment.quote + 1, last_upload_time = excluded.last_upload_time,
       lesson_video = attachment.lesson_video and excluded.lesson_video
     returning id, url, width, height, size, mimetype, (xmax = 0) as inserted`.execute(kyselyOf(q));
  return rows[0]!;
}

/**
 * Counts a member's upload of an attachment (at `seconds`) and its event (at `now`, ms), and
 * forgets the member's events older than `keepSince` (ms).
 */
export async function recordMemberUpload(q: Queryable, userId: number, attachmentId: number, size: number, seconds: number, now: number, keepSince: number): Promise<void> {
  const k = kyselyOf(q);
  await k
    .insertInto("member_upload")
    .values({ user_id: userId, attachment_id: attachmentId, size, create_time: seconds, last_upload_time: seconds })
    .onConflict((oc) =>
      oc.columns(["user_id", "attachment_id"]).doUpdateSet((eb) => ({
        uploads: eb("member_upload.uploads", "+", 1),
        last_upload_time: eb.ref("excluded.last_upload_time"),
      })),
    )
    .execute();
  await k.insertInto("member_upload_event").values({ user_id: userId, at: now }).execute();
  await k.deleteFrom("member_upload_event").where("user_id", "=", userId).where("at", "<", keepSince).execute();
}

/** Whether a lesson video's row of this URL (or under its HLS folder) was uploaded again after `since` (epoch seconds). */
export async function lessonVideoUploadedSince(q: Queryable, url: string, folder: string | null, since: number): Promise<boolean> {
  const row = await kyselyOf(q)
    .selectFrom("attachment")
    .select("id")
    .where("lesson_video", "=", true)
    .where(sql<boolean>`(url = ${url} or starts_with(url, ${folder}))`)
    .where("last_upload_time", ">", since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Removes the lesson video rows of this URL (or under its HLS folder). */
export async function deleteLessonVideoRows(q: Queryable, url: string, folder: string | null): Promise<void> {
  await kyselyOf(q).deleteFrom("attachment").where("lesson_video", "=", true).where(sql<boolean>`(url = ${url} or starts_with(url, ${folder}))`).execute();
}
