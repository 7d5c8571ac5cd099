import { lessonAdd, lessonEdit, NO_VIDEO, type LessonAdd } from "../../../shared/admin/courses.ts";
import { lessonDecl } from "../../../shared/admin/resources/courses.ts";
import { withSanitizedHtml } from "../richText.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";
import { releaseLessonVideos } from "./attachment.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";
import { touchCourseRows } from "./lesson.repository.ts";

/** A lesson change is a change of its course (the course detail lists the lessons): both get a new update_time. */
async function touchCourses(ctx: CrudContext, ids: unknown[]): Promise<void> {
  const courses = [...new Set(ids.filter((id): id is number => typeof id === "number"))];
  if (courses.length > 0) await touchCourseRows(ctx.tx, courses);
}

/**
 * Lessons (`/admin/course/lesson/...`): course, title, sanitised rich-text content, a video
 * (uploaded through `/admin/course/lesson/upload`: MP4, WebM or an HLS folder as a zip; the form
 * edits it as one `video` object {url, type, size, duration}), attachments, free preview, weigh.
 *
 * A video's lifetime: once a delete (here, or of the lesson's course) or an edit giving the
 * lesson another video has committed, the video it had is removed with its `lesson_video`
 * attachment rows (an HLS folder whole) unless something still uses it: another lesson, an
 * attachment row another upload made, any other use Storage.removeUnused counts, a
 * recycle-bin record, or the same video uploaded again since the lesson last changed (for a
 * lesson form not saved yet). So a lesson kept by a recycle rule (none by default; an admin may add
 * one for `course/lesson` or `course/course`) keeps its video while its record is in the bin,
 * and a restore finds it; purging the record removes it (security.ts). A failed write removes
 * nothing, and demo media is never removed.
 */
export const lessonResource: ResourceDef = {
  ...declared(lessonDecl, { course_title: "c.title" }),
  table: "lesson",
  joins: [joinById("course", "c", "t.course_id")],
  selectFields: ["id", "course_id", "title"],
  defaultOrder: ["weigh", "desc"],
  editColumns: ["id", "course_id", "title", "content", "video_url", "video_type", "video_size", "duration", "video_name", "attachments", "free_preview", "weigh", "status", "create_time", "update_time"],
  ...addEditDelete(withSanitizedHtml(lessonAdd, ["content"]), withSanitizedHtml(lessonEdit, ["content"]), { touch: true }),
  company: "read",
  hooks: {
    async beforeWrite(_ctx, body) {
      const { id: _id, video, attachments, ...fields } = body as LessonAdd & { id?: number };
      const v = video ?? NO_VIDEO;
      return {
        ...fields,
        video_url: v.url,
        video_type: v.type,
        video_size: v.size,
        duration: v.duration,
        video_name: v.url === "" ? "" : v.name,
        attachments: JSON.stringify(attachments ?? []),
      };
    },
    async afterWrite(ctx, _id, body, existing) {
      await touchCourses(ctx, [body.course_id, existing?.course_id]);
    },
    async beforeDelete(ctx, rows) {
      await touchCourses(ctx, rows.map((r) => r.course_id));
    },
    async afterDelete(app, rows) {
      await releaseLessonVideos(app, rows);
    },
    async afterEdit(app, before) {
      // Removed only when the edit gave the lesson another video (else the lesson still uses it).
      await releaseLessonVideos(app, [before]);
    },
    async editRow(_ctx, row: Row) {
      const { video_url, video_type, video_size, duration, video_name, ...rest } = row;
      return { ...rest, video: { url: video_url, type: video_type, size: Number(video_size), duration, name: video_name ?? "" } };
    },
    async listRows(_ctx, rows) {
      return rows.map((row) => ({ ...row, video_size: Number(row.video_size) }));
    },
  },
};
