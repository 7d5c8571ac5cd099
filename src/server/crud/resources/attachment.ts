import type { FastifyInstance } from "fastify";
import { attachmentDecl } from "../../../shared/admin/resources/routine.ts";
import { fileUses, Storage } from "../../modules/upload/storage.ts";
import type { ResourceDef, Row } from "../resource.ts";
import { declared, joinById } from "./fields.ts";

/** Removes stored files nothing uses any more (Storage.removeUnused), one at a time; never throws. */
async function removeEach(app: FastifyInstance, files: Iterable<[string, Parameters<Storage["removeUnused"]>[1]]>): Promise<void> {
  const storage = new Storage(app.config, app.db);
  for (const [url, options] of files) {
    try {
      const removed = await storage.removeUnused(url, options);
      app.log.info({ url, removed, lessonVideo: options?.lessonVideo !== undefined }, "stored file released");
    } catch (error) {
      // The write is done: a file left behind is only disk space (never a broken link).
      app.log.warn({ err: error, url }, "could not remove an unused file");
    }
  }
}

const storedUrl = (url: unknown): url is string => typeof url === "string" && url.startsWith("/storage/");

/** After a write committed: removes each stored file of `urls` nothing uses any more ('', http(s) URLs and demo media are left alone). */
export async function removeUnusedFiles(app: FastifyInstance, urls: readonly unknown[]): Promise<void> {
  await removeEach(app, [...new Set(urls.filter(storedUrl))].map((url) => [url, {}]));
}

/**
 * After a write committed that made `lessons` (rows as they were: `video_url`, `update_time`)
 * let go of their videos: each video goes with its `lesson_video` rows unless something still
 * uses it or it was uploaded again since the lesson last changed (Storage.removeUnused).
 */
export async function releaseLessonVideos(app: FastifyInstance, lessons: readonly unknown[]): Promise<void> {
  const since = new Map<string, number>();
  for (const lesson of lessons) {
    const { video_url: url, update_time: time } = (lesson && typeof lesson === "object" ? lesson : {}) as Row;
    if (!storedUrl(url)) continue;
    const seconds = Number(time);
    since.set(url, Math.max(since.get(url) ?? 0, Number.isFinite(seconds) ? seconds : 0));
  }
  await removeEach(app, [...since].map(([url, seconds]) => [url, { lessonVideo: { since: seconds } }]));
}

/**
 * Attachments (`/admin/routine/attachment/...`): every stored upload, read-only, with who
 * uploaded it and where it is used. Deleting rows removes each file once the deletion has
 * committed and only when nothing uses it any more (Storage.removeUnused: a lesson's video, a
 * recycle-bin record...): no row is ever left pointing at a missing file. Lesson videos (MP4/WebM
 * and HLS folders, topic `course/hls`) are rows too, removed with their file when no lesson
 * uses them any more (lesson.ts).
 */
export const attachmentResource: ResourceDef = {
  ...declared(attachmentDecl, { admin_username: "a.username", user_username: "m.username" }),
  table: "attachment",
  joins: [joinById("admin", "a", "t.admin_id"), joinById("member", "m", "t.user_id")],
  defaultOrder: ["last_upload_time", "desc"],
  editColumns: ["id", "topic", "admin_id", "user_id", "url", "width", "height", "name", "size", "mimetype", "sha1", "storage", "quote", "create_time", "last_upload_time"],
  rules: { edit: "routine/attachment/index" },
  del: true,
  hooks: {
    async listRows(ctx, rows) {
      const uses = await fileUses(ctx.tx, rows.map((r) => String(r.url)));
      return rows.map((row) => {
        const use = uses.get(String(row.url));
        // Other rows of the same file, and what else refers to it.
        return { ...row, size: Number(row.size), uses: use ? { ...use, attachment: Math.max(0, use.attachment - 1) } : null };
      });
    },
    async afterDelete(app, rows: Row[]) {
      // A file still used (a lesson's video included) keeps its file: only the row goes.
      await removeUnusedFiles(app, rows.map((r) => r.url));
    },
  },
};
