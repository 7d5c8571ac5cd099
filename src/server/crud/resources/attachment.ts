import { msg } from "@lingui/core/macro";
import { fileUses, Storage } from "../../modules/upload/storage.ts";
import type { ResourceDef, Row } from "../resource.ts";

/**
 * Attachments (`/admin/routine/attachment/...`): every stored upload, read-only, with who
 * uploaded it and where it is used. Deleting rows removes each file once the deletion has
 * committed and only when nothing uses it any more (Storage.removeUnused): no row is ever left
 * pointing at a missing file.
 */
export const attachmentResource: ResourceDef = {
  rule: "routine/attachment",
  title: msg`Attachments`,
  table: "attachment",
  fields: {
    id: { column: "t.id", type: "int" },
    topic: { column: "t.topic", type: "text" },
    admin_id: { column: "t.admin_id", type: "int" },
    user_id: { column: "t.user_id", type: "int" },
    admin_username: { column: "a.username", type: "text" },
    user_username: { column: "m.username", type: "text" },
    url: { column: "t.url", type: "text" },
    width: { column: "t.width", type: "int" },
    height: { column: "t.height", type: "int" },
    name: { column: "t.name", type: "text" },
    size: { column: "t.size", type: "bigint" },
    mimetype: { column: "t.mimetype", type: "text" },
    sha1: { column: "t.sha1", type: "text" },
    storage: { column: "t.storage", type: "text" },
    quote: { column: "t.quote", type: "int" },
    create_time: { column: "t.create_time", type: "time" },
    last_upload_time: { column: "t.last_upload_time", type: "time" },
  },
  joins: [
    { table: "admin", alias: "a", on: ["a.id", "t.admin_id"] },
    { table: "member", alias: "m", on: ["m.id", "t.user_id"] },
  ],
  quickSearch: ["name", "mimetype", "topic"],
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
      const storage = new Storage(app.config.dataDir, app.db);
      for (const url of new Set(rows.map((r) => String(r.url)))) {
        try {
          const removed = await storage.removeUnused(url);
          app.log.info({ url, removed }, "attachment deleted");
        } catch (error) {
          // The rows are gone; a file left behind is only disk space (never a broken link).
          app.log.warn({ err: error, url }, "could not remove an unused file");
        }
      }
    },
  },
};
