import { msg } from "@lingui/core/macro";
import { roomDecl } from "../../../shared/admin/resources/exam.ts";
import { roomAdd, roomEdit, roomExportQuery, roomResultsQuery, type RoomAdd } from "../../../shared/admin/rooms.ts";
import { ApiError } from "../../errors.ts";
import type { ResourceDef } from "../resource.ts";
import { assignmentHooks } from "./assignments.ts";
import { addEditDelete, declared, joinById, readById } from "./fields.ts";
import { fieldError, rowTotals } from "./papers.ts";
import { regradeActions } from "./regrade.ts";
import { fairnessActions, requireWithholdConfirmed, roomListFigures } from "./roomFairness.ts";
import { exportRoomResults, roomResults } from "./roomResults.ts";
import { attemptsInRooms, attemptsPerRoom, faceRuleExists, memberGroupExists, paperOfRoom } from "./rooms.repository.ts";

/** Exam rooms: an official sitting of a paper, open to members between two times. */
export const roomResource: ResourceDef = {
  ...declared(roomDecl, { paper_title: "p.title", group_name: "g.name", face_rule_name: "f.name", company_name: "co.name" }),
  table: "exam_room",
  joins: [
    joinById("exam_paper", "p", "t.paper_id"),
    joinById("user_group", "g", "t.user_group_id"),
    joinById("company", "co", "t.company_id"),
    joinById("face_rule", "f", "t.face_rule_id"),
  ],
  selectFields: ["id", "title"],
  editColumns: ["id", "paper_id", "title", "start_time", "end_time", "duration", "attempts_allowed", "pass_score", "user_group_id", "review_policy", "late_policy", "face_rule_id", "shuffle_questions", "status", "company_id"],
  ...addEditDelete(roomAdd, roomEdit),
  company: { column: "t.company_id", fill: "company_id" },
  hooks: assignmentHooks("room", {
    /** The paper and group must exist; a room members have sat keeps its paper (their attempts were drawn from it). */
    async beforeWrite(ctx, body, existing) {
      const { id: _id, company_ids: _c, duty_ids: _d, classroom_ids: _r, confirm_withhold: confirmWithhold, ...room } = body as RoomAdd & { id?: number };
      const paper = await paperOfRoom(ctx.tx, room.paper_id);
      if (!paper) throw fieldError(ctx.req, "paper_id", msg`This paper does not exist`);
      // Members would see the room and its introduction, and no start could load the paper.
      if (paper.status !== "enable" && room.status === "enable") throw fieldError(ctx.req, "paper_id", msg`This paper is disabled: enable it, or disable the room, before saving`);
      // Members are graded out of the paper's total: its rows must give exactly that many points.
      const total = Number(paper.total_score);
      const rowsTotal = (await rowTotals(ctx, [room.paper_id])).get(room.paper_id) ?? 0;
      if (Math.round(rowsTotal * 100) !== Math.round(total * 100)) {
        throw fieldError(ctx.req, "paper_id", msg`This paper's questions add up to ${rowsTotal} points, not its total of ${total}: correct the paper before a room uses it`);
      }
      if (Math.round(room.pass_score * 100) > Math.round(total * 100)) {
        throw fieldError(ctx.req, "pass_score", msg`The pass score cannot be above the paper's total of ${total} points`);
      }
      if (room.user_group_id !== null && !(await memberGroupExists(ctx.tx, room.user_group_id))) {
        throw fieldError(ctx.req, "user_group_id", msg`This member group does not exist`);
      }
      if (room.face_rule_id !== null && !(await faceRuleExists(ctx.tx, room.face_rule_id))) {
        throw fieldError(ctx.req, "face_rule_id", msg`This face rule does not exist`);
      }
      if (existing && Number(existing.paper_id) !== room.paper_id) {
        // The room row is locked (edit): a start waits for this, then sees the paper it keeps.
        if ((await attemptsInRooms(ctx.tx, [existing.id])) > 0) throw fieldError(ctx.req, "paper_id", msg`Members have already sat this room: its paper cannot change`);
      }
      // A room that would make mock papers unusable ("kept for an official exam") is saved only once the admin has seen which.
      await requireWithholdConfirmed(ctx, { id: existing ? Number(existing.id) : null, paperId: room.paper_id, endTime: room.end_time }, confirmWithhold);
      return room;
    },
    async listRows(ctx, rows) {
      const ids = rows.map((r) => r.id as number);
      const counts = ids.length
        ? await attemptsPerRoom(ctx.tx, ids)
        : [];
      const byRoom = new Map(counts.map((c) => [c.room_id, c.n]));
      // What each room keeps from practice and until when, whether its paper still adds up, its overrides (roomFairness.ts).
      const figures = await roomListFigures(ctx.tx, ids);
      return rows.map((r) => ({ ...r, pass_score: Number(r.pass_score), attempts: byRoom.get(r.id as number) ?? 0, ...figures.get(r.id as number) }));
    },
    async editRow(_ctx, row) {
      return { ...row, pass_score: Number(row.pass_score) };
    },
    /** A room members have sat is their exam's record (its results, review policy, marking): disable it instead. */
    async beforeDelete(ctx, rows) {
      if ((await attemptsInRooms(ctx.tx, rows.map((r) => r.id))) > 0) throw new ApiError(msg`Members have sat this room: it cannot be deleted; disable it instead`);
    },
  }),
  actions: {
    results: readById(roomResultsQuery, roomResults),
    export: {
      method: "GET",
      input: roomExportQuery,
      run: async () => null,
      send: (ctx, input, reply) => exportRoomResults(ctx, input as { id: number; tz?: string }, reply),
    },
    // Regrade: candidates, dry run, apply (regrade.ts).
    ...regradeActions,
    // Overrides and withholding (roomFairness.ts).
    ...fairnessActions,
  },
};
