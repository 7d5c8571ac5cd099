import { msg } from "@lingui/core/macro";
import {
  roomOverrideAdd,
  roomOverrideDel,
  roomOverridesQuery,
  roomWithholdingQuery,
  type RoomOverride,
  type RoomOverrideAdd,
  type RoomWithholding,
} from "../../../shared/admin/rooms.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import type { ExtraAction } from "../resource.ts";
import { readById } from "./fields.ts";
import { isCompanyAdmin } from "../scope.ts";
import { fieldError } from "./papers.ts";
import {
  deleteOverride,
  insertOverride,
  lockRoom,
  maxExtraMinutes,
  memberGroupExists,
  memberInReach,
  mockPapersSharingQuestions,
  overrideExists,
  overridesOfRoom,
  practiceQuestionsOfPaper,
  roomFigureRows,
} from "./roomFairness.repository.ts";

/**
 * The room screen's fairness and withholding: its overrides (extra time and attempts
 * for a member or a member group: modules/exam/overrides.ts) and what a room keeps from practice
 * (modules/exam/withheld.ts), listed on the rooms and told to the form before a save makes a
 * mock paper unusable. Every action names its room by `id`, so a company admin reaches only
 * rooms of their companies (crud/scope.ts).
 */

/** Most papers a warning names (the rest are counted in the list the admin opens). */
const MAX_NAMED_PAPERS = 20;

/**
 * What a room on paper `paperId` closing at `endTime` (plus the extra time of room `roomId`'s
 * overrides, when it exists) keeps from practice: how many practice questions, until when, and
 * which mock papers members can take now would stop being offered.
 */
export async function roomWithholding(db: Queryable, room: { id?: number | null; paperId: number; endTime: number }): Promise<RoomWithholding> {
  const extra = room.id ? await maxExtraMinutes(db, room.id) : 0;
  const closesAt = room.endTime + extra * 60;
  if (closesAt <= Math.floor(Date.now() / 1000)) return { closesAt, questions: 0, papers: [] };
  const questions = await practiceQuestionsOfPaper(db, room.paperId);
  // Mock papers offered now that would then contain a withheld question (or be the room's paper).
  const papers = await mockPapersSharingQuestions(db, room.paperId, MAX_NAMED_PAPERS);
  return { closesAt, questions, papers };
}

/**
 * The add or edit of a room: refused (beside `confirm_withhold`) when it would make mock papers
 * unusable and the admin has not confirmed it, naming the papers. Nothing is written then.
 */
export async function requireWithholdConfirmed(
  ctx: Parameters<ExtraAction["run"]>[0],
  room: { id?: number | null; paperId: number; endTime: number },
  confirmed: boolean,
): Promise<void> {
  if (confirmed) return;
  const { papers } = await roomWithholding(ctx.tx, room);
  if (papers.length === 0) return;
  const names = papers.map((p) => `“${p.title}”`).join(", ");
  throw fieldError(
    ctx.req,
    "confirm_withhold",
    msg`Saving this room keeps these mock papers for the official exam until it closes: ${names}. Members cannot take them as mock papers until then. Tick the box to save anyway.`,
  );
}

/** Each room's figures for the list: practice questions it keeps and until when, its paper's totals, its overrides. */
export async function roomListFigures(
  db: Queryable,
  ids: number[],
): Promise<Map<number, { closes_at: number; withheld_questions: number; paper_total: number; paper_rows_total: number; overrides: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await roomFigureRows(db, ids);
  return new Map(
    rows.map((r) => [
      r.id,
      { closes_at: Number(r.closes_at), withheld_questions: r.withheld_questions, paper_total: Number(r.paper_total ?? 0), paper_rows_total: Number(r.paper_rows_total), overrides: r.overrides },
    ]),
  );
}

async function listOverrides(db: Queryable, roomId: number): Promise<{ overrides: RoomOverride[] }> {
  const rows = await overridesOfRoom(db, roomId);
  return {
    overrides: rows.map((r) => ({
      id: r.id,
      member: r.user_id === null ? null : { id: r.user_id, username: r.username ?? "", nickname: r.nickname ?? "" },
      group: r.user_group_id === null ? null : { id: r.user_group_id, name: r.group_name ?? "" },
      extraMinutes: r.extra_minutes,
      extraAttempts: r.extra_attempts,
    })),
  };
}

/** `exam/room`'s extra actions: overrides (list, add, remove) and the withholding a save would cause. */
export const fairnessActions: Record<string, ExtraAction> = {
  overrides: readById(roomOverridesQuery, listOverrides),
  overrideAdd: {
    method: "POST",
    input: roomOverrideAdd,
    done: msg`Override added`,
    async run(ctx, input) {
      const o = input as RoomOverrideAdd;
      if (o.user_id === null && o.user_group_id === null) throw fieldError(ctx.req, "user_id", msg`Choose a member or a member group`);
      if (o.user_id !== null && o.user_group_id !== null) throw fieldError(ctx.req, "user_id", msg`Choose a member or a member group, not both`);
      if (o.extra_minutes === 0 && o.extra_attempts === 0) throw fieldError(ctx.req, "extra_minutes", msg`Give extra minutes, extra attempts or both`);
      if (!(await lockRoom(ctx.tx, o.id))) throw new ApiError(msg`The row does not exist`);
      if (o.user_id !== null) {
        // A company admin names only members of their companies.
        const scope = isCompanyAdmin(ctx) ? { companyId: ctx.admin.company_id ?? null } : null;
        if (!(await memberInReach(ctx.tx, o.user_id, scope))) throw fieldError(ctx.req, "user_id", msg`This member does not exist`);
        if (await overrideExists(ctx.tx, o.id, { column: "user_id", id: o.user_id })) {
          throw fieldError(ctx.req, "user_id", msg`This member already has an override in this room: remove it first`);
        }
      } else {
        if (!(await memberGroupExists(ctx.tx, o.user_group_id!))) throw fieldError(ctx.req, "user_group_id", msg`This member group does not exist`);
        if (await overrideExists(ctx.tx, o.id, { column: "user_group_id", id: o.user_group_id! })) {
          throw fieldError(ctx.req, "user_group_id", msg`This member group already has an override in this room: remove it first`);
        }
      }
      return { id: await insertOverride(ctx.tx, { room_id: o.id, user_id: o.user_id, user_group_id: o.user_group_id, extra_minutes: o.extra_minutes, extra_attempts: o.extra_attempts }) };
    },
  },
  overrideDel: {
    method: "POST",
    input: roomOverrideDel,
    done: msg`Override removed`,
    async run(ctx, input) {
      const { id, override_id } = input as { id: number; override_id: number };
      if (!(await deleteOverride(ctx.tx, id, override_id))) throw new ApiError(msg`This override does not exist`);
      return null;
    },
  },
  withholding: {
    method: "GET",
    input: roomWithholdingQuery,
    // The form's note: whoever may list rooms may see what a room keeps from practice.
    rule: "exam/room/index",
    run: (ctx, input) => {
      const q = input as { id?: number; paper_id: number; end_time: number };
      return roomWithholding(ctx.tx, { id: q.id ?? null, paperId: q.paper_id, endTime: q.end_time });
    },
  },
};
