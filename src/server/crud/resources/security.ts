import { msg } from "@lingui/core/macro";
import { sql } from "kysely";
import { z } from "zod";
import {
  dataRecycleAdd,
  dataRecycleEdit,
  recordIds,
  sensitiveDataAdd,
  sensitiveDataEdit,
  type DataRecycleAdd,
  type SensitiveDataAdd,
  type WatchableResource,
} from "../../../shared/admin/security.ts";
import { dataRecycleDecl, dataRecycleLogDecl, sensitiveDataDecl, sensitiveDataLogDecl } from "../../../shared/admin/resources/security.ts";
import { ApiError } from "../../errors.ts";
import { scrub } from "../log.ts";
import type { CrudContext, ExtraAction, ResourceDef, Row } from "../resource.ts";
import { labelOf, restoreRecycled, rollbackSensitive, watchable, type RecycledData } from "../security.ts";
import { releaseLessonVideos } from "./attachment.ts";
import { mountedResources } from "../registry.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";

/**
 * Data security (`/admin/security/...`): recycle rules and the recycle bin (restore, purge),
 * sensitive-data rules and their log (rollback). The engine does the keeping (crud/security.ts);
 * these are the screens' resources.
 */

const OWN = /^security\//;
const guarded = (ctx: CrudContext) => mountedResources(ctx.req.server).filter((def) => !OWN.test(def.rule));

/** The resources a rule may name, with the fields a sensitive-data rule may watch. */
const resourcesAction = (rule: string): ExtraAction => ({
  method: "GET",
  input: z.object({}),
  rule,
  async run(ctx) {
    return guarded(ctx).map(
      (def): WatchableResource => ({
        controller: def.rule,
        title: ctx.req.t(def.title),
        table: def.table,
        fields: def.editColumns.filter((f) => watchable(def, f)),
        deletable: Boolean(def.del),
        editable: Boolean(def.edit),
      }),
    );
  },
});

/** The resource a rule names, which must allow what the rule watches (the table is the resource's own). */
function guardedResource(ctx: CrudContext, controller: string, need: "del" | "edit"): ResourceDef {
  const def = guarded(ctx).find((r) => r.rule === controller);
  if (!def || !def[need]) {
    const message = need === "del" ? msg`Please choose data whose rows can be deleted` : msg`Please choose data whose rows can be edited`;
    throw new ApiError(message, 0, { fields: { controller: ctx.req.t(message) } });
  }
  return def;
}

export const dataRecycleResource: ResourceDef = {
  ...declared(dataRecycleDecl),
  table: "security_data_recycle",
  editColumns: ["id", "name", "controller", "data_table", "status", "update_time", "create_time"],
  ...addEditDelete(dataRecycleAdd, dataRecycleEdit, { touch: true }),
  actions: { resources: resourcesAction("security/dataRecycle/index") },
  hooks: {
    async beforeWrite(ctx, body) {
      const { name, controller, status } = body as DataRecycleAdd;
      return { name, controller, status, data_table: guardedResource(ctx, controller, "del").table, primary_key: "id" };
    },
  },
};

export const sensitiveDataResource: ResourceDef = {
  ...declared(sensitiveDataDecl),
  table: "security_sensitive_data",
  editColumns: ["id", "name", "controller", "data_table", "data_fields", "status", "update_time", "create_time"],
  ...addEditDelete(sensitiveDataAdd, sensitiveDataEdit, { touch: true }),
  actions: { resources: resourcesAction("security/sensitiveData/index") },
  hooks: {
    async beforeWrite(ctx, body) {
      const { name, controller, data_fields, status } = body as SensitiveDataAdd;
      const def = guardedResource(ctx, controller, "edit");
      const refused = data_fields.filter((f) => !watchable(def, f));
      if (refused.length > 0) {
        const message = msg`These fields cannot be watched: ${refused.join(", ")}`;
        throw new ApiError(message, 0, { fields: { data_fields: ctx.req.t(message) } });
      }
      return { name, controller, status, data_table: def.table, primary_key: "id", data_fields: JSON.stringify([...new Set(data_fields)]) };
    },
  },
};

/** A record's detail: the kept data without secrets (password hashes stay in the table for the restore, never on the wire). */
const withoutSecrets = async (_ctx: CrudContext, row: Row): Promise<Row> => ({ ...row, data: scrub(row.data), before: scrub(row.before), after: scrub(row.after) });

/** Every lesson row a recycle record keeps (the row itself, or cascaded with a course). */
function recycledLessons(table: unknown, data: unknown): unknown[] {
  const kept = data as Partial<RecycledData> | null;
  if (!kept || typeof kept !== "object") return [];
  const lessons: unknown[] = [];
  if (table === "lesson" && kept.row && typeof kept.row === "object") lessons.push(kept.row);
  for (const part of Array.isArray(kept.cascaded) ? kept.cascaded : []) if (part?.table === "lesson" && Array.isArray(part.rows)) lessons.push(...part.rows);
  return lessons;
}

export const dataRecycleLogResource: ResourceDef = {
  // A record's operator and rule are joined: the admin (`a`) and the recycle rule (`r`).
  ...declared(dataRecycleLogDecl, { admin_username: "a.username", rule_name: "r.name", controller: "r.controller" }),
  table: "security_data_recycle_log",
  joins: [joinById("admin", "a", "t.admin_id"), joinById("security_data_recycle", "r", "t.recycle_id")],
  editColumns: ["id", "admin_id", "recycle_id", "data_table", "row_id", "title", "data", "ip", "useragent", "create_time"],
  del: true,
  rules: { edit: "security/dataRecycleLog/index" },
  actions: {
    restore: {
      method: "POST",
      input: recordIds,
      done: msg`Restored successfully`,
      run: async (ctx, input) => ({ count: await restoreRecycled(ctx, mountedResources(ctx.req.server), (input as z.infer<typeof recordIds>).ids) }),
    },
  },
  hooks: {
    // The detail labels the kept row's fields as the form of the resource its rule names.
    async editRow(ctx, row) {
      const { rows } = await sql<{ controller: string }>`select controller from security_data_recycle where id = ${row.recycle_id ?? null}`.execute(ctx.k);
      return { ...(await withoutSecrets(ctx, row)), controller: rows[0]?.controller ?? null };
    },
    // Records kept before questions were named by their text: named from the kept row now.
    async listRows(ctx, rows) {
      const unnamed = rows.filter((r) => r.title === "").map((r) => r.id);
      if (unnamed.length === 0) return rows;
      const { rows: kept } = await sql<{ id: number; row: Row | null }>`
        select id, data->'row' as row from security_data_recycle_log where id in (${sql.join(unnamed)})`.execute(ctx.k);
      const names = new Map(kept.map((k) => [k.id, k.row ? labelOf(k.row) : ""]));
      return rows.map((r) => (r.title === "" ? { ...r, title: names.get(r.id as number) ?? "" } : r));
    },
    // Purged for good: the videos of the lessons a record kept (deleted itself, or with its
    // course) are removed now, unless something else uses them (see lesson.ts).
    async afterDelete(app, rows) {
      await releaseLessonVideos(app, rows.flatMap((r) => recycledLessons(r.data_table, r.data)));
    },
  },
};

export const sensitiveDataLogResource: ResourceDef = {
  ...declared(sensitiveDataLogDecl, { admin_username: "a.username", rule_name: "s.name", controller: "s.controller" }),
  table: "security_sensitive_data_log",
  joins: [joinById("admin", "a", "t.admin_id"), joinById("security_sensitive_data", "s", "t.sensitive_id")],
  editColumns: ["id", "admin_id", "sensitive_id", "data_table", "data_field", "id_value", "title", "before", "after", "is_rollback", "ip", "useragent", "create_time"],
  del: true,
  rules: { edit: "security/sensitiveDataLog/index" },
  actions: {
    rollback: {
      method: "POST",
      input: recordIds,
      done: msg`Rolled back successfully`,
      run: async (ctx, input) => ({ count: await rollbackSensitive(ctx, mountedResources(ctx.req.server), (input as z.infer<typeof recordIds>).ids) }),
    },
  },
  hooks: { editRow: withoutSecrets },
};
