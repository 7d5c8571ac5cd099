import { msg } from "@lingui/core/macro";
import { sql, type RawBuilder, type SqlBool } from "kysely";
import { ApiCode } from "../../shared/constants.ts";
import { ApiError } from "../errors.ts";
import type { CrudContext, ExtraAction, ResourceDef, Row } from "./resource.ts";

/**
 * Company scoping: an admin with `is_company` (and not `is_super`) lives inside their
 * company (`admin.company_id`) and the companies under it. The ONE rule, declared per resource
 * (`ResourceDef.company`) and applied by the engine to every list, edit, add, del, sortable and
 * extra action and to every id a request names (routes.ts), never copied into a screen:
 * - `{column}`: only rows whose company is in the admin's reach are listed, read or changed; a
 *   row outside it is "does not exist" (a guessed id tells nothing); after a write the row must
 *   still be inside it (else the write is undone);
 * - `"read"`: shared content (courses, papers, banks...): read freely, never changed;
 * - absent: closed to company admins (refused as "no permission").
 * An admin with `is_company` but no company reaches nothing.
 */

/** Whether the admin is company-scoped. */
export const isCompanyAdmin = (ctx: Pick<CrudContext, "admin">): boolean => ctx.admin.is_company && !ctx.admin.is_super;

const companyOf = (ctx: Pick<CrudContext, "admin">): number | null => ctx.admin.company_id ?? null;

const refused = () => new ApiError(msg`You have no permission to do this`, ApiCode.NO_PERMISSION);
const gone = () => new ApiError(msg`The row does not exist`);

/** Refuses a company admin a resource closed to them, or a write to shared content. */
export function requireAccess(ctx: Pick<CrudContext, "admin">, def: ResourceDef, write: boolean): void {
  if (!isCompanyAdmin(ctx)) return;
  if (!def.company || (def.company === "read" && write)) throw refused();
}

/** The list condition of a company admin on a scoped resource (null: none). */
export function scopeCondition(ctx: Pick<CrudContext, "admin">, def: ResourceDef): RawBuilder<SqlBool> | null {
  if (!isCompanyAdmin(ctx) || !def.company || def.company === "read") return null;
  return sql<SqlBool>`${sql.ref(def.company.column)} in (select company_subtree(${companyOf(ctx)}::int))`;
}

/** Every id is a row of the resource the acting admin may reach, else "does not exist" (closed: no permission). */
export async function requireInScope(ctx: CrudContext, def: ResourceDef, ids: readonly number[]): Promise<void> {
  requireAccess(ctx, def, false);
  const condition = scopeCondition(ctx, def);
  if (!condition || ids.length === 0) return;
  const wanted = [...new Set(ids)];
  let q = ctx.k.selectFrom(sql`${sql.table(def.table)}`.as("t"));
  for (const join of def.joins ?? []) {
    q = q.leftJoin(sql`${sql.table(join.table)}`.as(join.alias), (on) => on.on(sql<SqlBool>`${sql.ref(join.on[0])} = ${sql.ref(join.on[1])}`));
  }
  const found = await q.select(sql<number>`count(distinct t.id)::int`.as("n")).where(sql<SqlBool>`t.id in (${sql.join(wanted)})`).where(condition).executeTakeFirst();
  if (Number(found?.n ?? 0) !== wanted.length) throw gone();
}

/** A company admin's add or edit: the company column left empty becomes theirs (they cannot make a row of no company). */
export function fillCompany(ctx: Pick<CrudContext, "admin">, def: ResourceDef, values: Row): Row {
  if (!isCompanyAdmin(ctx) || !def.company || def.company === "read" || !def.company.fill) return values;
  const column = def.company.fill;
  return values[column] === null || values[column] === undefined ? { ...values, [column]: companyOf(ctx) } : values;
}

/** The rows of its resource an extra action's input names: its own `rows`, else `idsOfInput`. */
export async function rowsOfInput(ctx: CrudContext, action: Pick<ExtraAction, "rows">, input: unknown): Promise<number[]> {
  return action.rows ? action.rows(ctx, input) : idsOfInput(input);
}

/** The ids an extra action's input names (`id`, `ids`): rows of its resource, unless the action says otherwise (`rows`). */
export function idsOfInput(input: unknown): number[] {
  if (!input || typeof input !== "object") return [];
  const { id, ids } = input as { id?: unknown; ids?: unknown };
  const list = [...(Array.isArray(ids) ? ids : []), id];
  return list.filter((v): v is number => typeof v === "number");
}
