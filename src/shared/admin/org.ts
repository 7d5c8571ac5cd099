import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { dbId, dbInt, safeText, withMessage } from "../schema.ts";

/**
 * The organisation area of the back office (`org/...`): companies (a tree), duties (job
 * positions), classrooms (members with a head teacher, a period, their courses and exam rooms),
 * and who a course, room or bank is assigned to (`assignment`: none of them = open to all).
 */

const status = withMessage(z.enum(["enable", "disable"]).optional().default("enable"), msg`Please choose a status`);
const weigh = withMessage(dbInt(-1_000_000, 1_000_000).optional().default(0), msg`The weight must be a whole number`);
const rowId = withMessage(dbId, msg`Please choose a row`);
/** An optional reference: 0, "" and null are none. */
const optionalId = (message: Parameters<typeof withMessage>[1]) => withMessage(z.preprocess((v) => (v === 0 || v === "" ? null : v), dbId.nullable().optional().default(null)), message);
/** A list of row ids (at most 500, duplicates dropped by the server). */
export const idList = (message: Parameters<typeof withMessage>[1]) => withMessage(z.array(dbId).max(500).optional().default([]), message);

export const companyAdd = z.object({
  pid: withMessage(z.preprocess((v) => (v === null ? 0 : v), dbInt(0).optional().default(0)), msg`Please choose the parent company`),
  name: withMessage(safeText(100).trim().min(1), msg`Please enter the company name (at most 100 characters)`),
  weigh,
  status,
});
export const companyEdit = companyAdd.extend({ id: rowId });

export const dutyAdd = z.object({
  name: withMessage(safeText(50).trim().min(1), msg`Please enter the duty name (at most 50 characters)`),
  weigh,
  status,
});
export const dutyEdit = dutyAdd.extend({ id: rowId });

/** Unix seconds; empty (null) is 0, "not set". */
const time = withMessage(z.preprocess((v) => (v === null ? 0 : v), z.number().int().min(0).max(32_503_680_000).optional().default(0)), msg`Please choose a date and time`);

const classroomBase = z.object({
  name: withMessage(safeText(100).trim().min(1), msg`Please enter the classroom name (at most 100 characters)`),
  company_id: optionalId(msg`Please choose a company`),
  head_admin_id: optionalId(msg`Please choose the head teacher`),
  start_time: time,
  end_time: time,
  course_ids: idList(msg`Please choose the courses`),
  room_ids: idList(msg`Please choose the exam rooms`),
  remark: withMessage(safeText(255).optional().default(""), msg`The remark is at most 255 characters`),
  status,
});
function checkPeriod(row: z.infer<typeof classroomBase>, ctx: z.RefinementCtx) {
  if (row.start_time > 0 && row.end_time > 0 && row.end_time <= row.start_time) ctx.addIssue({ code: "custom", path: ["end_time"], message: "after start" });
}
export const classroomAdd = classroomBase.superRefine(checkPeriod);
export const classroomEdit = classroomBase.extend({ id: rowId }).superRefine(checkPeriod);
export type ClassroomAdd = z.infer<typeof classroomAdd>;

/** `POST /admin/org/classroom/addMembers` and `removeMembers`: members in bulk. */
export const classroomMembersBody = z.object({
  id: rowId,
  user_ids: withMessage(z.array(dbId).min(1).max(500), msg`Please choose the members`),
});
/** `GET /admin/org/classroom/members?id=`: the classroom's members. */
export const classroomMembersQuery = z.object({ id: withMessage(z.coerce.number().int().min(1).max(2_147_483_647), msg`Please choose a classroom`) });

/** Who a course, exam room or bank is assigned to (fields of their forms); all empty: open to every member. */
export const assignment = {
  company_ids: idList(msg`Please choose the companies`),
  duty_ids: idList(msg`Please choose the duties`),
  classroom_ids: idList(msg`Please choose the classrooms`),
};
export type Assignment = { company_ids: number[]; duty_ids: number[]; classroom_ids: number[] };

/** A member's place in the organisation (fields of the member's form). */
export const memberOrg = {
  company_id: optionalId(msg`Please choose a company`),
  duty_id: optionalId(msg`Please choose a duty`),
  classroom_ids: idList(msg`Please choose the classrooms`),
};
