import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  designDelBody,
  designProblem,
  GEN_RESERVED_COLUMNS,
  generateBody,
  importBody,
  tableOf,
  tableQuery,
  type DesignRow,
  type GenDesign,
  type GenFieldType,
  type GeneratePlan,
} from "../../../shared/admin/codegen.ts";
import { editQuery } from "../../../shared/admin/crud.ts";
import { jsonBody } from "../../../shared/schema.ts";
import { logTitle, writeAdminLog } from "../../crud/log.ts";
import { mountResourceWith } from "../../crud/routes.ts";
import { pgState } from "../../db/errors.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { SUPER_ADMIN_RULE } from "../admin/access.ts";
import { planOf, tableState } from "./ddl.ts";
import { checkNames, loadGenerated, parseStored, removeRules, removeSecurityRules, resourceOf, writeRules, writeSecurityRules } from "./design.ts";
import {
  deleteDesign,
  designById,
  dropTableIfExists,
  generatedDesign,
  insertDesign,
  latestDesigns,
  lockDesigns,
  primaryKeyColumn,
  runPlannedStatement,
  schemaHasTable,
  tableColumnInfo,
  updateGeneratedDesign,
  type DesignDbRow,
} from "./repository.ts";

/**
 * The code generator (`/admin/crud/crud/...`, super admins only, every write in the admin log)
 * and the generated resources' routes (`/admin/gen/<name>/...`, the engine's protocol, each
 * action needing its rule `gen/<name>/<action>`).
 */

const LOG = { title: logTitle(msg`Code generator`) };
const superOnly = { adminRule: SUPER_ADMIN_RULE };

const gone = () => new ApiError(msg`The design does not exist`);

/** A design's first problem as a refusal. */
function checked(design: GenDesign): GenDesign {
  const problem = designProblem(design);
  if (problem) throw new ApiError(problem);
  return design;
}

/** Database refusals of a table change the rows do not allow, as clear messages (nothing was changed). */
export function ddlRefusal(error: unknown): never {
  const state = pgState(error);
  if (state === "23505") throw new ApiError(msg`A unique index cannot be made: some rows have the same value in that column`);
  if (state === "23502") throw new ApiError(msg`A column cannot be made: some rows have no value for it`);
  if (state?.startsWith("22") || state === "42804" || state === "42846") throw new ApiError(msg`The values already in a column cannot be converted to its new type`);
  throw error;
}

async function designRow(db: Queryable, id: number, lock = false): Promise<DesignDbRow> {
  const row = await designById(db, id, lock);
  if (!row) throw gone();
  return row;
}

/** An existing column's SQL type as a field type of the generator. */
function fieldTypeOf(name: string, type: string): { type: GenFieldType; length: number } {
  const varchar = /^character varying\((\d+)\)$/.exec(type);
  if (varchar) return { type: "string", length: Number(varchar[1]) };
  const numeric = /^numeric\((\d+),\d+\)$/.exec(type);
  if (numeric) return { type: "decimal", length: Number(numeric[1]) };
  if (type === "integer" || type === "smallint") return { type: "int", length: 0 };
  if (type === "bigint") return { type: name.endsWith("_time") ? "datetime" : "bigint", length: 0 };
  if (type === "boolean") return { type: "bool", length: 0 };
  if (type === "character varying") return { type: "string", length: 0 };
  return { type: "text", length: 0 };
}

/** A column default as the designer's text: a quoted literal's text, a number, a boolean; other expressions "". */
function defaultText(expr: string | null): string {
  if (!expr) return "";
  const quoted = /^'((?:[^']|'')*)'(::[a-z ]+)?$/.exec(expr);
  if (quoted) return quoted[1]!.replaceAll("''", "'");
  if (/^-?\d+(\.\d+)?$/.test(expr)) return expr;
  if (expr === "true" || expr === "false") return expr;
  return "";
}

async function requireTable(db: Queryable, table: string): Promise<void> {
  if (!(await schemaHasTable(db, table))) throw new ApiError(msg`The table "${table}" does not exist`);
}

export async function codegenRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  // Once the database is usable (app.ts): start-up registers the routes while it opens.
  app.whenOpen(() => loadGenerated(app));

  // The generated resources: the engine's protocol, the definition found per request.
  mountResourceWith(app, {
    base: "gen/:name",
    rule: (action) => `gen/:name/${action}`,
    companyAdmins: false,
    dynamic: true,
    resolve: (req: FastifyRequest) => {
      const name = (req.params as { name?: string }).name ?? "";
      const def = app.generatedResources.get(name);
      if (!def) throw new ApiError(msg`This generated screen does not exist`);
      return def;
    },
  });

  /** The design a generated screen renders (the client cannot compile it in). */
  api.get("/admin/gen/:name/definition", { config: { adminRule: "gen/:name/index" }, schema: { params: z.object({ name: z.string().max(64) }) } }, async (req, reply) => {
    const stored = await generatedDesign(db, req.params.name);
    const design = stored ? parseStored(stored.design) : null;
    if (!design || !app.generatedResources.has(design.name)) throw new ApiError(msg`This generated screen does not exist`);
    return reply.success({ design });
  });

  api.get("/admin/crud/crud/index", { config: superOnly }, async (_req, reply) => {
    const rows = await latestDesigns(db);
    const list: DesignRow[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      table_name: r.table_name,
      title: r.title,
      status: r.status,
      fields: Array.isArray((r.design as { fields?: unknown })?.fields) ? (r.design as { fields: unknown[] }).fields.length : 0,
      create_time: Number(r.create_time),
      update_time: Number(r.update_time),
    }));
    return reply.success({ list, total: list.length, remark: "" });
  });

  api.get("/admin/crud/crud/edit", { config: superOnly, schema: { querystring: editQuery } }, async (req, reply) => {
    const row = await designRow(db, req.query.id);
    return reply.success({ row: { id: row.id, name: row.name, status: row.status, design: parseStored(row.design) } });
  });

  /** What a generate would run: the statements, and the columns it would drop. */
  async function plan(tx: Queryable, id: number | undefined, design: GenDesign): Promise<{ plan: GeneratePlan; before: DesignDbRow | null }> {
    checked(design);
    const before = id ? await designRow(tx, id, true) : null;
    if (before && before.status === "generated" && before.name !== design.name) {
      throw new ApiError(msg`A generated design cannot be renamed: delete it and design a new one`);
    }
    await checkNames(tx, design, id ?? null);
    const previous = before?.status === "generated" ? parseStored(before.design) : null;
    return { plan: planOf(design, await tableState(tx, tableOf(design)), previous), before };
  }

  api.post("/admin/crud/crud/preview", { config: superOnly, schema: { body: jsonBody(generateBody) } }, async (req, reply) => {
    const { plan: result } = await plan(db, req.body.id, req.body.design);
    return reply.success({ plan: result, resource: { rule: `gen/${req.body.design.name}`, table: result.table } });
  });

  api.post("/admin/crud/crud/generate", { config: superOnly, schema: { body: jsonBody(generateBody) } }, async (req, reply) => {
    const { design, confirmDrop } = req.body;
    const id = await db.transaction(async (tx) => {
      // One generate at a time: names and tables are checked and changed without a race.
      await lockDesigns(tx);
      const { plan: result, before } = await plan(tx, req.body.id, design);
      if (result.drops.length > 0 && confirmDrop !== true) {
        const columns = result.drops.join(", ");
        throw new ApiError(msg`Generating would drop the columns ${columns} and their data: confirm to drop them`, 0, { drops: result.drops });
      }
      for (const statement of result.statements) await runPlannedStatement(tx, statement).catch(ddlRefusal);
      let designId: number;
      if (before) {
        designId = before.id;
        await updateGeneratedDesign(tx, designId, { name: design.name, table: tableOf(design), title: design.title, design, adminId: req.admin!.id });
      } else {
        designId = await insertDesign(tx, "generated", { name: design.name, table: tableOf(design), title: design.title, design, adminId: req.admin!.id });
      }
      await writeRules(tx, design, before?.status !== "generated");
      await writeSecurityRules(tx, design);
      await writeAdminLog(tx, req, LOG, "generate");
      return designId;
    });
    // Mounted at once: the engine's routes for generated resources find it by name.
    app.generatedResources.set(design.name, resourceOf(design));
    return reply.success({ id, rule: `gen/${design.name}`, table: tableOf(design) }, msg`Generated successfully`);
  });

  api.post("/admin/crud/crud/del", { config: superOnly, schema: { body: jsonBody(designDelBody) } }, async (req, reply) => {
    const name = await db.transaction(async (tx) => {
      await lockDesigns(tx);
      const row = await designRow(tx, req.body.id, true);
      await removeRules(tx, row);
      await removeSecurityRules(tx, row);
      if (req.body.dropTable === true && row.table_name === tableOf(row)) await dropTableIfExists(tx, row.table_name);
      await deleteDesign(tx, row.id);
      await writeAdminLog(tx, req, LOG, "del");
      return row.name;
    });
    app.generatedResources.delete(name);
    return reply.success(null, req.body.dropTable === true ? msg`The design and its table were deleted` : msg`The design was deleted; its table is kept`);
  });

  api.get("/admin/crud/crud/export", { config: superOnly, schema: { querystring: editQuery } }, async (req, reply) => {
    const row = await designRow(db, req.query.id);
    const design = parseStored(row.design);
    if (!design) throw gone();
    return reply.success({ version: 1, design });
  });

  /** An exported design becomes a draft (generated once it is opened and generated). */
  api.post("/admin/crud/crud/import", { config: superOnly, schema: { body: jsonBody(importBody) } }, async (req, reply) => {
    const design = checked(req.body.design);
    const id = await db.transaction(async (tx) => {
      await lockDesigns(tx);
      await checkNames(tx, design, null);
      const designId = await insertDesign(tx, "draft", { name: design.name, table: tableOf(design), title: design.title, design, adminId: req.admin!.id });
      await writeAdminLog(tx, req, LOG, "import");
      return designId;
    });
    return reply.success({ id }, msg`Imported as a draft`);
  });

  // SPEC §7: an existing table's primary key and fields, to start a design from it.
  api.get("/admin/ajax/getTablePk", { config: superOnly, schema: { querystring: tableQuery } }, async (req, reply) => {
    await requireTable(db, req.query.table);
    return reply.success({ pk: await primaryKeyColumn(db, req.query.table) });
  });

  api.get("/admin/ajax/getTableFieldList", { config: superOnly, schema: { querystring: tableQuery } }, async (req, reply) => {
    const { table } = req.query;
    await requireTable(db, table);
    const clean = req.query.clean === "1" || req.query.clean === "true";
    const pk = await primaryKeyColumn(db, table);
    const rows = await tableColumnInfo(db, table);
    const reserved: readonly string[] = GEN_RESERVED_COLUMNS;
    const fieldList = rows
      .filter((r) => !clean || (!reserved.includes(r.name) && r.name !== pk))
      .map((r) => ({
        name: r.name,
        sqlType: r.type,
        ...fieldTypeOf(r.name, r.type),
        default: defaultText(r.def),
        comment: r.comment ?? "",
        nullable: r.nullable,
        primaryKey: r.name === pk,
      }));
    return reply.success({ table, pk, fieldList });
  });
}
