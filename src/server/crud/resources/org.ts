import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { classroomAdd, classroomEdit, classroomMembersBody, classroomMembersQuery, companyAdd, companyEdit, dutyAdd, dutyEdit, type ClassroomAdd } from "../../../shared/admin/org.ts";
import { classroomDecl, companyDecl, dutyDecl, headTeacherDecl } from "../../../shared/admin/resources/org.ts";
import { ApiError } from "../../errors.ts";
import type { CrudContext, ExtraAction, ResourceDef, Row } from "../resource.ts";
import { isCompanyAdmin, requireInScope, scopeCondition } from "../scope.ts";
import { memberResource } from "./member.ts";
import { roomResource } from "./rooms.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";
import {
  addClassroomMembers,
  adminLabel,
  adminMeets,
  classroomAccessRows,
  classroomMembers,
  classroomsAloneOpen,
  clearClassroomLinks,
  companiesInUse,
  companyUnder,
  deleteClassroomAccess,
  linkClassroom,
  membersPerClassroom,
  removeClassroomMembers,
} from "./org.repository.ts";

const ownCompanyFixed = msg`Your own company is placed by an administrator above it: you cannot move, reorder or delete it`;

/**
 * Where a company admin may put a company: their own company is the root of what they
 * reach and stays where it is (moving it would hand its members to another company's admins, or
 * lift it out of its parent's view); any other company goes under their company or one under it.
 * The engine's after-write check (scope.ts) keeps the row itself inside their reach; this keeps its
 * place there, and says so beside the field.
 */
async function requireCompanyPlace(ctx: CrudContext, pid: number, existing: Row | null): Promise<void> {
  if (!isCompanyAdmin(ctx)) return;
  const own = ctx.admin.company_id;
  const refuse = (message: MessageDescriptor) => new ApiError(message, 0, { fields: { pid: ctx.req.t(message) } });
  if (existing && existing.id === own) {
    if ((existing.pid ?? 0) !== pid) throw refuse(ownCompanyFixed);
    return;
  }
  const inReach = pid > 0 && (await companyUnder(ctx.tx, own, pid));
  if (!inReach) throw refuse(msg`Choose your company or a company under it as the parent`);
}

/** Companies (`/admin/org/company/...`): a tree; a company admin sees their company and those under it. */
export const companyResource: ResourceDef = {
  ...declared(companyDecl),
  table: "company",
  selectFields: ["id", "pid", "name"],
  defaultOrder: ["weigh", "desc"],
  childrenRefusal: msg`Delete or move its sub-companies first`,
  editColumns: ["id", "pid", "name", "weigh", "status", "create_time", "update_time"],
  ...addEditDelete(companyAdd, companyEdit, { touch: true }),
  company: { column: "t.id" },
  hooks: {
    async beforeWrite(ctx, body, existing) {
      const { id: _id, ...row } = body;
      await requireCompanyPlace(ctx, row.pid as number, existing);
      return row;
    },
    async afterSort(ctx, rows) {
      if (isCompanyAdmin(ctx) && rows.some((r) => r.id === ctx.admin.company_id)) throw new ApiError(ownCompanyFixed);
    },
    async beforeDelete(ctx, rows) {
      const ids = rows.map((r) => r.id as number);
      if (isCompanyAdmin(ctx) && ids.includes(ctx.admin.company_id ?? -1)) throw new ApiError(ownCompanyFixed);
      if (await companiesInUse(ctx.tx, ids)) throw new ApiError(msg`Members, admins, classrooms or exam rooms still belong to this company: move them first`);
    },
  },
};

/** Duties (`/admin/org/duty/...`): the job positions members hold; shared by every company. */
export const dutyResource: ResourceDef = {
  ...declared(dutyDecl),
  table: "duty",
  selectFields: ["id", "name"],
  defaultOrder: ["weigh", "desc"],
  editColumns: ["id", "name", "weigh", "status", "create_time", "update_time"],
  ...addEditDelete(dutyAdd, dutyEdit, { touch: true }),
  company: "read",
};

/**
 * The head-teacher picker of the classroom form (`/admin/org/headTeacher/index?select=1`): staff
 * accounts, read by whoever may list classrooms. Admins (`auth/admin`) stay closed to company
 * admins; through this source they see only the admins of their company and those under it.
 */
export const headTeacherResource: ResourceDef = {
  ...declared(headTeacherDecl, { company_name: "c.name" }),
  table: "admin",
  joins: [joinById("company", "c", "t.company_id")],
  selectFields: ["id", "username", "nickname"],
  editColumns: ["id", "username", "nickname", "company_id", "status"],
  rules: { index: "org/classroom/index", edit: "org/classroom/index" },
  company: { column: "t.company_id" },
};

/**
 * A company admin's head teacher is an admin of their company (or one under it); an edit may keep
 * the head teacher the classroom already had. Refused beside the field, nothing written.
 */
async function requireHeadInReach(ctx: CrudContext, head: number | null | undefined, existing: Row | null): Promise<void> {
  if (!isCompanyAdmin(ctx) || head === null || head === undefined || head === existing?.head_admin_id) return;
  const condition = scopeCondition(ctx, headTeacherResource)!;
  if (!(await adminMeets(ctx.tx, head, condition))) {
    const message = msg`The head teacher must be an admin of your company`;
    throw new ApiError(message, 0, { fields: { head_admin_id: ctx.req.t(message) } });
  }
}

async function classroomLinks(ctx: Pick<CrudContext, "tx">, id: number): Promise<{ course_ids: number[]; room_ids: number[] }> {
  const rows = await classroomAccessRows(ctx.tx, id);
  return { course_ids: rows.flatMap((r) => (r.course_id ? [r.course_id] : [])), room_ids: rows.flatMap((r) => (r.room_id ? [r.room_id] : [])) };
}

/**
 * `POST {id, user_ids}`: adds members to a classroom or removes them (`write`, answering how
 * many changed), each one a member the acting admin may see (a company admin: their company's).
 */
function classroomMembersAction(done: MessageDescriptor, write: (tx: CrudContext["tx"], id: number, userIds: number[]) => Promise<number>): ExtraAction {
  return {
    method: "POST",
    input: classroomMembersBody,
    done,
    async run(ctx, input) {
      const { id, user_ids } = input as { id: number; user_ids: number[] };
      const ids = [...new Set(user_ids)];
      await requireInScope(ctx, memberResource, ids);
      return { count: await write(ctx.tx, id, ids) };
    },
  };
}

/**
 * Classrooms (`/admin/org/classroom/...`): a class of members with a head teacher (a staff
 * account), a period, its courses and exam rooms (assigned to it: see modules/org/visibility.ts),
 * and its members, added and removed in bulk.
 */
export const classroomResource: ResourceDef = {
  ...declared(classroomDecl, { company_name: "c.name", head_name: "a.nickname", head_username: "a.username" }),
  table: "classroom",
  joins: [joinById("company", "c", "t.company_id"), joinById("admin", "a", "t.head_admin_id")],
  selectFields: ["id", "name"],
  editColumns: ["id", "name", "company_id", "head_admin_id", "start_time", "end_time", "remark", "status", "create_time", "update_time"],
  ...addEditDelete(classroomAdd, classroomEdit, { touch: true }),
  company: { column: "t.company_id", fill: "company_id" },
  hooks: {
    async beforeWrite(ctx, body, existing) {
      const { id: _id, course_ids: _c, room_ids: _r, ...row } = body as ClassroomAdd & { id?: number };
      await requireHeadInReach(ctx, row.head_admin_id, existing);
      return row;
    },
    async afterWrite(ctx, id, body) {
      const data = body as ClassroomAdd;
      // A company admin links only their own exam rooms (courses are shared content).
      await requireInScope(ctx, roomResource, [...new Set(data.room_ids)]);
      await clearClassroomLinks(ctx.tx, id);
      for (const [column, ids] of [["course_id", data.course_ids], ["room_id", data.room_ids]] as const) {
        if (ids.length > 0) await linkClassroom(ctx.tx, id, column, [...new Set(ids)]);
      }
    },
    async beforeDelete(ctx, rows) {
      // Its courses and rooms go with it only when something else still assigns them (never opened to all).
      const ids = rows.map((r) => r.id as number);
      if (await classroomsAloneOpen(ctx.tx, ids)) throw new ApiError(msg`Only this classroom opens some of its courses, rooms or banks: assign them elsewhere or remove them from it first`);
      await deleteClassroomAccess(ctx.tx, ids);
    },
    async editRow(ctx, row) {
      // The head teacher's name, for a form whose picker does not list them (a company admin's, when the super admin chose someone else).
      const head = row.head_admin_id ? await adminLabel(ctx.tx, row.head_admin_id) : undefined;
      return { ...row, head_label: head ?? "", ...(await classroomLinks(ctx, row.id as number)) };
    },
    async listRows(ctx, rows: Row[]) {
      const ids = rows.map((r) => r.id as number);
      const counts = await membersPerClassroom(ctx.tx, ids);
      const byId = new Map(counts.map((c) => [c.classroom_id, c.n]));
      return rows.map((r) => ({ ...r, member_count: byId.get(r.id as number) ?? 0 }));
    },
  },
  actions: {
    members: {
      method: "GET",
      input: classroomMembersQuery,
      async run(ctx, input) {
        const { id } = input as { id: number };
        return { list: await classroomMembers(ctx.tx, id, 2000) };
      },
    },
    addMembers: classroomMembersAction(msg`Members added`, addClassroomMembers),
    removeMembers: classroomMembersAction(msg`Members removed`, removeClassroomMembers),
  },
};
