import type { Queryable } from "../../db/index.ts";

/** The upload module's rows (storage.ts calls these; no SQL lives beside it). */

export interface AttachmentRow {
  id: number;
  url: string;
  width: number | null;
  height: number | null;
  size: number;
  mimetype: string;
}

/**
 * What still uses an uploaded file, by where: attachment rows, avatars, courses, lessons,
 * questions, and records of the recycle bin (a deleted row that may be restored).
 */
export interface FileUse {
  attachment: number;
  admin: number;
  member: number;
  course: number;
  lesson: number;
  question: number;
  recycled: number;
}

/** The member's uploads accepted since `since` (ms), and the bytes of the distinct files they store. */
export async function memberUploadFigures(q: Queryable, userId: number, since: number): Promise<{ recent: number; used: number }> {
  const { rows } = await q.query<{ recent: number; used: number }>(
    `select (select count(*)::int from member_upload_event where user_id = $1 and at > $2) as recent,
            (select coalesce(sum(size), 0)::bigint from member_upload where user_id = $1) as used`,
    [userId, since],
  );
  return rows[0]!;
}

/** A transaction-scoped advisory lock on a storage key. */
export async function advisoryXactLock(q: Queryable, key: string): Promise<void> {
  await q.query("select pg_advisory_xact_lock(hashtextextended($1, 0))", [key]);
}

/**
 * The uses of each URL; `folders[i]` (an HLS folder, or null) stands for `urls[i]`'s whole
 * folder: any URL under it counts. Rich text counts when it contains the URL.
 */
export async function fileUseRows(q: Queryable, urls: string[], folders: (string | null)[]): Promise<(FileUse & { url: string })[]> {
  const { rows } = await q.query<FileUse & { url: string }>(
    `select u.url,
       (select count(*)::int from attachment where url = u.url or starts_with(url, u.folder)) as attachment,
       (select count(*)::int from admin where avatar = u.url) as admin,
       (select count(*)::int from member where avatar = u.url) as member,
       (select count(*)::int from course where cover = u.url or strpos(introduction, u.url) > 0) as course,
       (select count(*)::int from lesson where video_url = u.url or starts_with(video_url, u.folder) or strpos(content, u.url) > 0
          or (jsonb_typeof(attachments) = 'array' and exists (select 1 from jsonb_array_elements(attachments) e where jsonb_typeof(e) = 'object' and e->>'url' = u.url))) as lesson,
       (select count(*)::int from exam_question where strpos(stem, u.url) > 0 or strpos(analysis, u.url) > 0 or strpos(options::text, u.url) > 0) as question,
       (select count(*)::int from security_data_recycle_log where strpos(data::text, coalesce(u.folder, u.url)) > 0) as recycled
     from unnest($1::text[], $2::text[]) as u(url, folder)`,
    [urls, folders],
  );
  return rows;
}

/** Whether an upload of this content and topic has its attachment row already. */
export async function attachmentExists(q: Queryable, sha1: string, topic: string): Promise<boolean> {
  return (await q.query<{ url: string }>("select url from attachment where sha1 = $1 and topic = $2", [sha1, topic])).rows.length > 0;
}

/** Locks the member row: one member's uploads take turns. */
export async function lockMember(q: Queryable, userId: number): Promise<void> {
  await q.query("select id from member where id = $1 for update", [userId]);
}

/** Whether the member already stores this content under this topic. */
export async function memberHoldsUpload(q: Queryable, userId: number, sha1: string, topic: string): Promise<boolean> {
  const held = await q.query("select 1 from member_upload u join attachment a on a.id = u.attachment_id where u.user_id = $1 and a.sha1 = $2 and a.topic = $3", [
    userId,
    sha1,
    topic,
  ]);
  return held.rows.length > 0;
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
  const { rows } = await q.query<AttachmentRow & { inserted: boolean }>(
    `insert into attachment (topic, admin_id, user_id, url, width, height, name, size, mimetype, sha1, storage, create_time, last_upload_time, lesson_video)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $13, $11, $11, $12)
     on conflict (sha1, topic) do update set quote = attachment.quote + 1, last_upload_time = excluded.last_upload_time,
       lesson_video = attachment.lesson_video and excluded.lesson_video
     returning id, url, width, height, size, mimetype, (xmax = 0) as inserted`,
    [a.topic, a.adminId, a.userId, a.url, a.width, a.height, a.name, a.size, a.mimetype, a.sha1, a.at, a.lessonVideo, a.storage],
  );
  return rows[0]!;
}

/**
 * Counts a member's upload of an attachment (at `seconds`) and its event (at `now`, ms), and
 * forgets the member's events older than `keepSince` (ms).
 */
export async function recordMemberUpload(q: Queryable, userId: number, attachmentId: number, size: number, seconds: number, now: number, keepSince: number): Promise<void> {
  await q.query(
    `insert into member_upload (user_id, attachment_id, size, create_time, last_upload_time) values ($1, $2, $3, $4, $4)
     on conflict (user_id, attachment_id) do update set uploads = member_upload.uploads + 1, last_upload_time = excluded.last_upload_time`,
    [userId, attachmentId, size, seconds],
  );
  await q.query("insert into member_upload_event (user_id, at) values ($1, $2)", [userId, now]);
  await q.query("delete from member_upload_event where user_id = $1 and at < $2", [userId, keepSince]);
}

/** Whether a lesson video's row of this URL (or under its HLS folder) was uploaded again after `since` (epoch seconds). */
export async function lessonVideoUploadedSince(q: Queryable, url: string, folder: string | null, since: number): Promise<boolean> {
  const { rows } = await q.query("select 1 from attachment where lesson_video and (url = $1 or starts_with(url, $2)) and last_upload_time > $3 limit 1", [
    url,
    folder,
    since,
  ]);
  return rows.length > 0;
}

/** Removes the lesson video rows of this URL (or under its HLS folder). */
export async function deleteLessonVideoRows(q: Queryable, url: string, folder: string | null): Promise<void> {
  await q.query("delete from attachment where lesson_video and (url = $1 or starts_with(url, $2))", [url, folder]);
}
