import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { sql, type SqlBool } from "kysely";
import { delQuery, editQuery, exportQuery, listQuery, sortableBody } from "../../shared/admin/crud.ts";
import { z } from "zod";
import { fieldMessage, jsonBody } from "../../shared/schema.ts";
import { pgState } from "../db/errors.ts";
import type { Queryable } from "../db/index.ts";
import { kyselyOf } from "../db/kysely.ts";
import { ApiError } from "../errors.ts";
import { sendExport } from "./export.ts";
import { logTitle, writeAdminLog } from "./log.ts";
import { listRows } from "./query.ts";
import { fillCompany, requireAccess, requireInScope, rowsOfInput } from "./scope.ts";
import { keepDeleted, recycles, watchSensitive } from "./security.ts";
import { ruleOf, type Action, type AnyTables, type CrudContext, type ResourceDef, type Row } from "./resource.ts";

/**
 * Mounts a resource's routes from its definition: `/admin/<rule>/<action>`, each declaring the
 * rule `<rule>/<action>` for the one route-level permission check (modules/admin/access.ts).
 * Every write runs in one transaction with its admin log row.
 */

const PART = /^[A-Za-z0-9_]{1,64}$/;
const MAX_QUERY_KEYS = 400;

/**
 * `search[0][field]=id&ids[]=1` (flat keys of the query string parser) -> nested objects and
 * arrays; keys that are not plain names stay as they are (the schema ignores them).
 */
export function nestQuery(flat: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (!flat || typeof flat !== "object") return out;
  let seen = 0;
  for (const [key, value] of Object.entries(flat)) {
    if (++seen > MAX_QUERY_KEYS) break;
    const match = /^([A-Za-z0-9_]{1,64})((?:\[[A-Za-z0-9_]{0,64}\]){1,3})$/.exec(key);
    if (!match) {
      out[key] = value;
      continue;
    }
    const parts = [match[1]!, ...[...match[2]!.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!)];
    let node: Record<string, unknown> = out;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const last = i === parts.length - 1;
      if (part === "") {
        // `ids[]`: the values (one or repeated) appended.
        if (!last) break;
        const list = Array.isArray(node.__list) ? (node.__list as unknown[]) : [];
        list.push(...(Array.isArray(value) ? value : [value]));
        node.__list = list;
        break;
      }
      if (!PART.test(part)) break;
      if (last) node[part] = value;
      else {
        const child = node[part];
        node = (child && typeof child === "object" && !Array.isArray(child) ? child : (node[part] = Object.create(null))) as Record<string, unknown>;
      }
    }
  }
  return arrays(out) as Record<string, unknown>;
}

/** Objects of `__list` or of index keys only become arrays (in index order). */
function arrays(node: unknown): unknown {
  if (!node || typeof node !== "object" || Array.isArray(node)) return node;
  const entries = Object.entries(node);
  if (entries.length === 1 && entries[0]![0] === "__list") return entries[0]![1];
  if (entries.length > 0 && entries.every(([k]) => /^\d{1,3}$/.test(k))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => arrays(v));
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) out[k] = arrays(v);
  return out;
}

/**
 * Database refusals a request can cause, as clear code-0 answers (nothing was written). A unique
 * column's clash names its field (`data.fields`, shown beside it in the form): PostgreSQL names
 * a `unique` column's constraint `<table>_<column>_key`.
 */
const refusal =
  (def: ResourceDef, req: FastifyRequest) =>
  (error: unknown): never => {
    const state = pgState(error);
    if (state === "23505") {
      const constraint = String((error as { constraint?: unknown }).constraint ?? "");
      const message = msg`This value is already used by another row`;
      const prefix = `${def.table}_`;
      const column = constraint.startsWith(prefix) && constraint.endsWith("_key") ? constraint.slice(prefix.length, -"_key".length) : "";
      const field = column && def.editColumns.includes(column) ? column : null;
      throw new ApiError(message, 0, field ? { constraint, fields: { [field]: req.t(message) } } : { constraint });
    }
    if (state === "23503") throw new ApiError(msg`The row refers to a row that does not exist, or is still used by other rows`);
    if (state === "23502") {
      // A column without a default the body left out: named beside its field when it is one.
      const column = String((error as { column?: unknown }).column ?? "");
      const message = msg`Please fill in the required fields`;
      const field = column && def.editColumns.includes(column) ? column : null;
      throw new ApiError(message, 0, field ? { fields: { [field]: req.t(message) } } : null);
    }
    throw error;
  };

const context = (tx: Queryable, req: FastifyRequest): CrudContext => ({ tx, k: kyselyOf<AnyTables>(tx), admin: req.admin!, req });

async function lockRow(ctx: CrudContext, def: ResourceDef, id: number): Promise<Row> {
  const row = await ctx.k.selectFrom(sql`${sql.table(def.table)}`.as("t")).selectAll().where(sql<SqlBool>`id = ${id}`).forUpdate().executeTakeFirst();
  if (!row) throw new ApiError(msg`The row does not exist`);
  return row as Row;
}

/** A tree row's parent must exist and may not be the row or one of its descendants. */
async function checkParent(ctx: CrudContext, def: ResourceDef, pid: unknown, id: number | null): Promise<void> {
  if (pid === 0 || pid === undefined || pid === null) return;
  if (typeof pid !== "number") throw new ApiError(msg`Please choose the parent`);
  const { rows } = await sql<{ id: number }>`
    with recursive up(id, pid, depth) as (
      select id, pid, 0 from ${sql.table(def.table)} where id = ${pid}
      union all select p.id, p.pid, up.depth + 1 from ${sql.table(def.table)} p join up on p.id = up.pid where up.depth < 100
    ) select id from up`.execute(ctx.k);
  if (rows.length === 0) throw new ApiError(msg`The parent does not exist`);
  if (id !== null && rows.some((r) => r.id === id)) throw new ApiError(msg`A row cannot be placed under itself or its descendants`);
}

/** A tree row is deleted only with every row under it (or once they have moved). */
async function refuseWithChildren(ctx: CrudContext, def: ResourceDef, ids: number[]): Promise<void> {
  const { rows } = await sql`select id from ${sql.table(def.table)} where pid in (${sql.join(ids)}) and not (id in (${sql.join(ids)})) limit 1`.execute(ctx.k);
  if (rows.length > 0) throw new ApiError(def.childrenRefusal ?? msg`Delete or move the rows under it first`);
}

async function write(ctx: CrudContext, def: ResourceDef, body: Row, existing: Row | null): Promise<number> {
  if (def.tree) await checkParent(ctx, def, body.pid, existing ? (existing.id as number) : null);
  const { id: _id, ...rest } = body;
  const written = def.hooks?.beforeWrite ? await def.hooks.beforeWrite(ctx, body, existing) : rest;
  const values = fillCompany(ctx, def, written);
  let id: number;
  if (existing) {
    id = existing.id as number;
    const set = def.touch ? { ...values, update_time: sql`extract(epoch from now())::bigint` } : values;
    if (Object.keys(set).length > 0) await ctx.k.updateTable(def.table).set(set).where(sql<SqlBool>`id = ${id}`).execute();
  } else {
    // A body of no columns (every field optional and omitted) is a row of the columns' defaults,
    // not `insert ... () values ()` (a syntax error).
    const insert = ctx.k.insertInto(def.table);
    const inserted = await (Object.keys(values).length > 0 ? insert.values(values) : insert.defaultValues()).returning(sql<number>`id`.as("id")).executeTakeFirstOrThrow();
    id = inserted.id as number;
  }
  await def.hooks?.afterWrite?.(ctx, id, body, existing);
  // A company admin's row stays inside their company (else the whole write is undone).
  await requireInScope(ctx, def, [id]);
  return id;
}

/** A body checked against a definition's schema in the handler (generated resources): refusals as the route schema's. */
export function parseWith(schema: z.ZodType, value: unknown, req: FastifyRequest): unknown {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const messageAt = (path: readonly PropertyKey[]) => fieldMessage(schema, path.filter((p): p is string | number => typeof p !== "symbol")) ?? msg`Incorrect parameter!`;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues.slice(0, 50)) {
    const field = issue.path[0];
    if (typeof field !== "string" || Object.hasOwn(fields, field) || !PART.test(field)) continue;
    fields[field] = req.t(messageAt(issue.path));
  }
  throw new ApiError(messageAt(result.error.issues[0]?.path ?? []), 0, Object.keys(fields).length > 0 ? { fields } : null);
}

/** How a set of engine routes is mounted: one definition, or (generated resources) one found per request. */
export interface MountOptions {
  /** The URL under `/admin/`, e.g. `org/duty`, or `gen/:name`. */
  base: string;
  /** The rule an action needs (a route parameter like `:name` is filled from the request: modules/admin/access.ts). */
  rule: (action: Action) => string;
  /** Whether company-scoped admins reach the routes at all (they are then kept inside their company). */
  companyAdmins: boolean;
  /** The definition of the request's resource (throws ApiError when there is none). */
  resolve: (req: FastifyRequest) => ResourceDef;
  /** Definitions found per request: every action is mounted, bodies are checked in the handler. */
  dynamic?: boolean;
}

export function mountResource(app: FastifyInstance, def: ResourceDef): void {
  logTitle(def.title);
  mountResourceWith(app, { base: def.rule, rule: (action) => ruleOf(def, action), companyAdmins: true, resolve: () => def }, def);
}

const anyBody = z.record(z.string(), z.unknown());

export function mountResourceWith(app: FastifyInstance, opts: MountOptions, staticDef?: ResourceDef): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { resolve } = opts;
  const url = (action: Action) => `/admin/${opts.base}/${action}`;
  // Company admins reach the engine's routes, which keep them inside their company (scope.ts).
  const config = (action: Action) => ({ adminRule: opts.rule(action), companyAdmins: opts.companyAdmins });
  /** A company admin is refused a closed resource, or a write to shared content, before the input is read (crud/scope.ts). */
  const access = (write: boolean) => async (req: FastifyRequest) => requireAccess({ admin: req.admin! }, resolve(req), write);
  const reads = access(false);
  const writes = access(true);
  const nest = async (req: FastifyRequest) => {
    req.query = nestQuery(req.query);
  };
  /** One write, its admin log row, in one transaction. */
  const inTransaction = <T>(req: FastifyRequest, def: ResourceDef, action: string, fn: (ctx: CrudContext) => Promise<T>): Promise<T> =>
    app.db
      .transaction(async (tx) => {
        const ctx = context(tx, req);
        const result = await fn(ctx);
        await writeAdminLog(tx, req, def, action);
        return result;
      })
      .catch(refusal(def, req));
  /** The body of an add / edit: checked by the route's schema (static) or here (dynamic). */
  const bodyOf = (req: FastifyRequest, schema: z.ZodType | undefined): Row => {
    if (!schema) throw new ApiError(msg`This resource does not allow this`);
    return (opts.dynamic ? parseWith(schema, req.body, req) : req.body) as Row;
  };
  const bodySchema = (schema: z.ZodType | undefined) => jsonBody(opts.dynamic || !schema ? anyBody : schema);

  api.get(url("index"), { config: config("index"), onRequest: reads, preValidation: nest, schema: { querystring: listQuery } }, async (req, reply) => {
    const def = resolve(req);
    const ctx = context(app.db, req);
    requireAccess(ctx, def, false);
    const { list, total } = await listRows(ctx, def, req.query);
    // `recycle`: the screen's delete confirm says where deleted rows go (a select's choices need not know).
    const picking = req.query.select === "1" || req.query.select === "true";
    return reply.success({ list, total, remark: "", ...(def.del && !picking ? { recycle: await recycles(ctx, def) } : {}) });
  });

  // The whole list as a file: read like the list (its rule, its scope), so whoever may list may export.
  api.get(`/admin/${opts.base}/exportList`, { config: config("index"), onRequest: reads, preValidation: nest, schema: { querystring: exportQuery } }, async (req, reply) => {
    const def = resolve(req);
    const ctx = context(app.db, req);
    requireAccess(ctx, def, false);
    return sendExport(ctx, def, req.query, reply);
  });

  api.get(url("edit"), { config: config("edit"), onRequest: reads, schema: { querystring: editQuery } }, async (req, reply) => {
    const def = resolve(req);
    const ctx = context(app.db, req);
    await requireInScope(ctx, def, [req.query.id]);
    const row = await ctx.k
      .selectFrom(sql`${sql.table(def.table)}`.as("t"))
      .select(def.editColumns.map((c) => sql.ref(`t.${c}`).as(c)))
      .where(sql<SqlBool>`t.id = ${req.query.id}`)
      .executeTakeFirst();
    if (!row) throw new ApiError(msg`The row does not exist`);
    return reply.success({ row: def.hooks?.editRow ? await def.hooks.editRow(ctx, row as Row) : row });
  });

  if (opts.dynamic || staticDef?.add) {
    api.post(url("add"), { config: config("add"), onRequest: writes, schema: { body: bodySchema(staticDef?.add) } }, async (req, reply) => {
      const def = resolve(req);
      const body = bodyOf(req, def.add);
      const id = await inTransaction(req, def, "add", (ctx) => {
        requireAccess(ctx, def, true);
        return write(ctx, def, body, null);
      });
      await def.hooks?.afterAdd?.(app, req, id, body);
      return reply.success({ id }, msg`Added successfully`);
    });
  }

  if (opts.dynamic || staticDef?.edit) {
    api.post(url("edit"), { config: config("edit"), onRequest: writes, schema: { body: bodySchema(staticDef?.edit) } }, async (req, reply) => {
      const def = resolve(req);
      const data = bodyOf(req, def.edit);
      const before = await inTransaction(req, def, "edit", async (ctx) => {
        requireAccess(ctx, def, true);
        await requireInScope(ctx, def, [data.id as number]);
        const existing = await lockRow(ctx, def, data.id as number);
        const logChanges = await watchSensitive(ctx, def, existing.id as number);
        await write(ctx, def, data, existing);
        await logChanges?.();
        return existing;
      });
      await def.hooks?.afterEdit?.(app, before);
      return reply.success(null, msg`Updated successfully`);
    });
  }

  if (opts.dynamic || staticDef?.del) {
    api.delete(url("del"), { config: config("del"), onRequest: writes, preValidation: nest, schema: { querystring: delQuery } }, async (req, reply) => {
      const def = resolve(req);
      if (!def.del) throw new ApiError(msg`This resource does not allow this`);
      const ids = [...new Set(req.query.ids)];
      const { count, kept, rows, cascaded } = await inTransaction(req, def, "del", async (ctx) => {
        requireAccess(ctx, def, true);
        await requireInScope(ctx, def, ids);
        const rows = (await ctx.k.selectFrom(def.table).selectAll().where(sql<SqlBool>`id in (${sql.join(ids)})`).forUpdate().execute()) as Row[];
        if (rows.length === 0) throw new ApiError(msg`No rows were deleted`);
        const cascaded = (await def.hooks?.beforeDelete?.(ctx, rows)) ?? [];
        if (def.tree) await refuseWithChildren(ctx, def, rows.map((r) => r.id as number));
        // Rows the resource keeps (e.g. questions in use, hidden instead): not deleted, not recycled.
        const kept = new Set(def.hooks?.keepOnDelete ? await def.hooks.keepOnDelete(ctx, rows) : []);
        const gone = rows.filter((r) => !kept.has(r.id as number));
        if (gone.length === 0) return { count: 0, kept: kept.size, rows: gone, cascaded: [] };
        await keepDeleted(ctx, def, gone.map((r) => r.id));
        const done = await ctx.k.deleteFrom(def.table).where(sql<SqlBool>`id in (${sql.join(gone.map((r) => r.id))})`).executeTakeFirst();
        return { count: Number(done.numDeletedRows), kept: kept.size, rows: gone, cascaded };
      });
      if (rows.length > 0) await def.hooks?.afterDelete?.(app, rows, cascaded);
      if (kept > 0) return reply.success({ count, kept }, count > 0 ? msg`Deleted: ${count}; hidden because in use: ${kept}` : msg`In use: hidden instead of deleted`);
      return reply.success({ count }, msg`Deleted successfully`);
    });
  }

  for (const [name, action] of Object.entries(staticDef?.actions ?? {})) {
    const def = staticDef!;
    const rule = action.rule ?? `${def.rule}/${name}`;
    if (action.method === "GET") {
      api.get(`/admin/${def.rule}/${name}`, { config: { adminRule: rule, companyAdmins: true }, onRequest: reads, preValidation: nest, schema: { querystring: action.input } }, async (req, reply) => {
        const ctx = context(app.db, req);
        await requireInScope(ctx, def, await rowsOfInput(ctx, action, req.query));
        return action.send ? action.send(ctx, req.query, reply) : reply.success(await action.run(ctx, req.query));
      });
    } else {
      api.post(`/admin/${def.rule}/${name}`, { config: { adminRule: rule, companyAdmins: true }, onRequest: writes, bodyLimit: action.bodyLimit, schema: { body: jsonBody(action.input) } }, async (req, reply) => {
        const check = async (ctx: CrudContext) => {
          requireAccess(ctx, def, true);
          await requireInScope(ctx, def, await rowsOfInput(ctx, action, req.body));
        };
        const prepare = action.prepare;
        const prepared = prepare
          ? await (async () => {
              const ctx = context(app.db, req);
              await check(ctx);
              return prepare(ctx, req.body);
            })().catch(refusal(def, req))
          : undefined;
        const result = await inTransaction(req, def, name, async (ctx) => {
          await check(ctx);
          return action.run(ctx, req.body, prepared);
        });
        return reply.success(action.committed ? await action.committed(app, req, result) : result, action.done);
      });
    }
  }

  if (opts.dynamic || staticDef?.sortable) {
    api.post(url("sortable"), { config: config("sortable"), onRequest: writes, schema: { body: jsonBody(sortableBody) } }, async (req, reply) => {
      const def = resolve(req);
      if (!def.sortable) throw new ApiError(msg`This resource does not allow this`);
      const { id, targetId } = req.body;
      if (id === targetId) throw new ApiError(msg`Please choose another row to swap with`);
      await inTransaction(req, def, "sortable", async (ctx) => {
        requireAccess(ctx, def, true);
        await requireInScope(ctx, def, [id, targetId]);
        const rows = (await ctx.k.selectFrom(def.table).select([sql<number>`id`.as("id"), sql<number>`weigh`.as("weigh")]).where(sql<SqlBool>`id in (${id}, ${targetId})`).forUpdate().execute()) as { id: number; weigh: number }[];
        const a = rows.find((r) => r.id === id);
        const b = rows.find((r) => r.id === targetId);
        if (!a || !b) throw new ApiError(msg`The row does not exist`);
        await ctx.k.updateTable(def.table).set({ weigh: b.weigh }).where(sql<SqlBool>`id = ${a.id}`).execute();
        await ctx.k.updateTable(def.table).set({ weigh: a.weigh }).where(sql<SqlBool>`id = ${b.id}`).execute();
        await def.hooks?.afterSort?.(ctx, rows);
      });
      return reply.success(null, msg`Sorted successfully`);
    });
  }
}

/** A resource definition checked at start: its fields and joins refer to names, never to input. */
export function checkResource(def: ResourceDef): void {
  const name = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
  const problems: string[] = [];
  if (!def.fields.id) problems.push("no id field");
  for (const [key, field] of Object.entries(def.fields)) if (!name.test(field.column)) problems.push(`field ${key}: bad column ${field.column}`);
  for (const q of def.quickSearch) if (!def.fields[q]) problems.push(`quick search ${q} is not a field`);
  for (const s of def.selectFields ?? []) if (!def.fields[s]) problems.push(`select field ${s} is not a field`);
  if (def.counted) {
    // A sum of figures is the list's total only if the joins never add or drop a row.
    if (!name.test(def.counted.table) || def.counted.columns.some((c) => !name.test(c) || c.includes("."))) problems.push("bad counted table or columns");
    for (const join of def.joins ?? []) if (join.on[0] !== `${join.alias}.id`) problems.push(`counted, but join ${join.alias} is not by id`);
  }
  if (problems.length > 0) throw new Error(`resource ${def.rule}: ${problems.join("; ")}`);
}

