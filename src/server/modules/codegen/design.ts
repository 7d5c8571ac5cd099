import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { FastifyInstance } from "fastify";
import { sql, type SqlBool } from "kysely";
import {
  designProblem,
  GEN_COMPONENT,
  GEN_TABLE_PREFIX,
  genDesign,
  ruleOfDesign,
  rowSchema,
  SQL_KEYWORDS,
  tableOf,
  type GenDesign,
  type GenField,
} from "../../../shared/admin/codegen.ts";
import type { CrudContext, FieldDef, ResourceDef } from "../../crud/resource.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import {
  deleteRecycleRule,
  deleteRuleNamed,
  deleteRulesAtOrUnder,
  deleteSensitiveRule,
  designIdNamed,
  firstRuleAtOrUnder,
  generatedDesigns,
  schemaTableNames,
  upsertButtonRule,
  upsertMenuRule,
  upsertRecycleRule,
  upsertSensitiveRule,
} from "./repository.ts";

/**
 * A design as a resource of the CRUD engine, the checks of its names against the database, its
 * menu rules and data-security rules, and loading the generated designs at start.
 */

function fieldDef(field: GenField): FieldDef {
  const column = `t.${field.name}`;
  switch (field.type) {
    case "string":
    case "text":
      return { column, type: "text" };
    case "enum":
      return { column, type: "enum", values: field.options };
    case "int":
      return { column, type: "int" };
    case "bigint":
      return { column, type: "bigint" };
    case "datetime":
      return { column, type: "time" };
    case "bool":
      return { column, type: "bool" };
    case "decimal":
      return { column, type: "text", operators: ["eq", "ne", "LIKE", "NOT LIKE"] };
  }
}

/**
 * The engine's definition of a generated design. It declares no `company`: generated
 * resources are closed to company-scoped admins (crud/scope.ts), whatever their rules.
 * `names`: the rule and table when they are not the generator's own (a module's table, modules/market).
 */
export function resourceOf(design: GenDesign, names: { rule: string; table: string } = { rule: ruleOfDesign(design), table: tableOf(design) }): ResourceDef {
  const fields: Record<string, FieldDef> = { id: { column: "t.id", type: "int" } };
  for (const field of design.fields) fields[field.name] = fieldDef(field);
  fields.weigh = { column: "t.weigh", type: "int" };
  fields.create_time = { column: "t.create_time", type: "time" };
  fields.update_time = { column: "t.update_time", type: "time" };
  const title: MessageDescriptor = { id: design.title, message: design.title };
  return {
    rule: names.rule,
    title,
    table: names.table,
    fields,
    quickSearch: ["id", ...design.quickSearch],
    defaultOrder: design.sortable ? ["weigh", "desc"] : ["id", "desc"],
    sortable: design.sortable,
    editColumns: ["id", ...design.fields.map((f) => f.name), "weigh", "create_time", "update_time"],
    add: rowSchema(design),
    edit: rowSchema(design, true),
    del: true,
    touch: true,
    hooks: design.sortable
      ? {
          // A new row goes first in the order (its weigh its id).
          async afterWrite(ctx: CrudContext, id: number, _body, existing) {
            if (!existing) await ctx.k.updateTable(names.table).set({ weigh: id }).where(sql<SqlBool>`id = ${id}`).execute();
          },
        }
      : {},
  };
}

/** A stored design read back (checked again: a row edited by hand never reaches the engine unchecked). */
export function parseStored(value: unknown): GenDesign | null {
  const parsed = genDesign.safeParse(value);
  return parsed.success && designProblem(parsed.data) === null ? parsed.data : null;
}

/** The tables and views of the system (not generated), by name. */
async function systemTables(db: Queryable): Promise<Set<string>> {
  return new Set((await schemaTableNames(db)).filter((n) => !n.startsWith(GEN_TABLE_PREFIX)));
}

/** The design's names against the database: a system table's name, another design's name. */
export async function checkNames(db: Queryable, design: GenDesign, id: number | null): Promise<void> {
  const name = design.name;
  if (SQL_KEYWORDS.has(name)) throw new ApiError(msg`The table name "${name}" is an SQL key word`);
  const system = await systemTables(db);
  if (system.has(name) || system.has(tableOf(design))) {
    throw new ApiError(msg`The table name "${name}" is the name of a system table`);
  }
  const other = await designIdNamed(db, name);
  if (other !== undefined && other !== id) throw new ApiError(msg`Another design is already named "${name}"`);
}

const BUTTONS: readonly { action: string; title: string; titleEn: string }[] = [
  { action: "index", title: "查看", titleEn: "View" },
  { action: "add", title: "添加", titleEn: "Add" },
  { action: "edit", title: "编辑", titleEn: "Edit" },
  { action: "del", title: "删除", titleEn: "Delete" },
  { action: "sortable", title: "排序", titleEn: "Sort" },
];

/**
 * Refuses when a rule row already has the name `base` or a name under it: a module install or a
 * first generate makes its rules itself and never adopts a row it did not create (a row named
 * there before would keep the groups that grant it, handing them the new screen's rows).
 */
export async function refuseClaimedRules(tx: Queryable, base: string): Promise<void> {
  const name = await firstRuleAtOrUnder(tx, base);
  if (name !== undefined) throw new ApiError(msg`The rule "${name}" already exists but was not made here: delete it or rename it first`);
}

/**
 * The design's menu and its buttons. `fresh` (its first generate): no rule under its name may
 * exist yet (refuseClaimedRules); a generate again keeps its own rows by name, so groups granted
 * them keep them (non-super admins cannot name a rule under `gen/`: crud/resources/rule.ts).
 */
export async function writeRules(tx: Queryable, design: GenDesign, fresh: boolean): Promise<void> {
  const rule = ruleOfDesign(design);
  if (fresh) await refuseClaimedRules(tx, rule);
  const titleEn = design.titleEn || design.title;
  const menuId = await upsertMenuRule(tx, { title: design.title, titleEn, name: rule, component: GEN_COMPONENT });
  await writeButtons(tx, menuId, rule, design.sortable);
}

/** A screen's buttons under its menu rule `menuId` (sortable: the `sortable` button too). */
export async function writeButtons(tx: Queryable, menuId: number, rule: string, sortable: boolean): Promise<void> {
  for (const button of BUTTONS) {
    const name = `${rule}/${button.action}`;
    if (button.action === "sortable" && !sortable) {
      await deleteRuleNamed(tx, name);
      continue;
    }
    await upsertButtonRule(tx, menuId, button.title, button.titleEn, name);
  }
}

export async function removeRules(tx: Queryable, design: Pick<GenDesign, "name">): Promise<void> {
  const rule = ruleOfDesign(design);
  await deleteRulesAtOrUnder(tx, rule);
}

/** The design's data-recycle rule (when `recycle`) and sensitive-data rule (its `sensitive` fields). */
export async function writeSecurityRules(tx: Queryable, design: GenDesign): Promise<void> {
  const rule = ruleOfDesign(design);
  const table = tableOf(design);
  if (design.recycle) {
    await upsertRecycleRule(tx, design.title, rule, table);
  } else await deleteRecycleRule(tx, rule);
  if (design.sensitive.length > 0) {
    await upsertSensitiveRule(tx, design.title, rule, table, design.sensitive);
  } else await deleteSensitiveRule(tx, rule);
}

export async function removeSecurityRules(tx: Queryable, design: Pick<GenDesign, "name">): Promise<void> {
  const rule = ruleOfDesign(design);
  await deleteRecycleRule(tx, rule);
  await deleteSensitiveRule(tx, rule);
}

/** At start: every generated design is mounted again (a design that no longer validates is logged and left out). */
export async function loadGenerated(app: FastifyInstance): Promise<void> {
  for (const row of await generatedDesigns(app.db)) {
    const design = parseStored(row.design);
    if (!design || design.name !== row.name) {
      app.log.warn({ design: row.name }, "a stored design does not validate: its resource is not mounted");
      continue;
    }
    app.generatedResources.set(design.name, resourceOf(design));
  }
}
