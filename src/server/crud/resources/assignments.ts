import type { Assignment } from "../../../shared/admin/org.ts";
import type { OrgTarget } from "../../modules/org/visibility.ts";
import type { CrudContext, ResourceHooks, Row } from "../resource.ts";
import { requireInScope } from "../scope.ts";
import { assignmentRows, deleteAssignment, insertAssignment, type TargetColumn } from "./assignments.repository.ts";
import { classroomResource, companyResource } from "./org.ts";

/**
 * Who a course, exam room or bank is assigned to (`org_access`, the rule of
 * modules/org/visibility.ts): read into the row of `GET edit` and written with the row, for the
 * forms' company / duty / classroom fields. A company, duty or classroom that does not exist is
 * refused by the database (the engine's "refers to a row that does not exist").
 */

const COLUMN: Record<OrgTarget, TargetColumn> = { course: "course_id", room: "room_id", bank: "bank_id" };
const BY = { company_ids: "company_id", duty_ids: "duty_id", classroom_ids: "classroom_id" } as const;

const unique = (ids: unknown): number[] => [...new Set(Array.isArray(ids) ? ids.filter((id): id is number => typeof id === "number") : [])];

export async function readAssignment(ctx: Pick<CrudContext, "tx">, target: OrgTarget, id: number): Promise<Assignment> {
  const rows = await assignmentRows(ctx.tx, COLUMN[target], id);
  const pick = (key: "company_id" | "duty_id" | "classroom_id") => rows.flatMap((r) => (r[key] === null ? [] : [r[key]]));
  return { company_ids: pick("company_id"), duty_ids: pick("duty_id"), classroom_ids: pick("classroom_id") };
}

export async function writeAssignment(ctx: CrudContext, target: OrgTarget, id: number, body: Row): Promise<void> {
  // A company admin assigns only to companies and classrooms they reach (duties are shared).
  await requireInScope(ctx, companyResource, unique(body.company_ids));
  await requireInScope(ctx, classroomResource, unique(body.classroom_ids));
  await deleteAssignment(ctx.tx, COLUMN[target], id);
  for (const [field, column] of Object.entries(BY)) {
    const ids = unique(body[field]);
    if (ids.length > 0) await insertAssignment(ctx.tx, COLUMN[target], id, column, ids);
  }
}

/** The form fields of an assignment, left out of the row the engine writes. */
export function withoutAssignment(body: Row): Row {
  const { company_ids: _c, duty_ids: _d, classroom_ids: _r, ...rest } = body;
  return rest;
}

/** Hooks that read and write a target's assignment beside its other hooks. */
export function assignmentHooks(target: OrgTarget, hooks: ResourceHooks = {}): ResourceHooks {
  return {
    ...hooks,
    async beforeWrite(ctx, body, existing) {
      const { id: _id, ...rest } = withoutAssignment(body);
      return hooks.beforeWrite ? withoutAssignment(await hooks.beforeWrite(ctx, body, existing)) : rest;
    },
    async afterWrite(ctx, id, body, existing) {
      await hooks.afterWrite?.(ctx, id, body, existing);
      await writeAssignment(ctx, target, id, body);
    },
    async editRow(ctx, row) {
      const base = hooks.editRow ? await hooks.editRow(ctx, row) : row;
      return { ...base, ...(await readAssignment(ctx, target, row.id as number)) };
    },
  };
}
