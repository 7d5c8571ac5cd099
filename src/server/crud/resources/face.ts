import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { faceReviewDecl, faceRuleDecl } from "../../../shared/admin/resources/face.ts";
import { faceReviewBody, faceRuleAdd, faceRuleEdit, type FaceTimeline } from "../../../shared/exam/face.ts";
import { dbId, withMessage } from "../../../shared/schema.ts";
import { ApiError } from "../../errors.ts";
import { decodeImage, enrolFace, readFacePicture } from "../../modules/face/checks.ts";
import type { ResourceDef } from "../resource.ts";
import { faceCheck, faceChecksOf, faceReviewAttempt, markFaceReviewed, memberExists, roomsPerFaceRule, usernameOf } from "./face.repository.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";

/**
 * Face rules (`org/faceRule`, the menu rule seeded in 0003), the face review of official
 * attempts (`exam/faceReview`, beside the marking queue) and staff enrolment of a member's
 * reference photo (`user/user/face`, in member.ts's actions).
 */

export const faceRuleResource: ResourceDef = {
  ...declared(faceRuleDecl),
  table: "face_rule",
  selectFields: ["id", "name"],
  editColumns: ["id", "name", "before_start", "every_minutes", "random_count", "threshold", "liveness", "max_failures", "action", "status", "create_time"],
  ...addEditDelete(faceRuleAdd, faceRuleEdit),
  // Shared settings: a company admin picks a rule for their rooms, never changes one.
  company: "read",
  hooks: {
    async listRows(ctx, rows) {
      const ids = rows.map((r) => r.id as number);
      const used = ids.length ? await roomsPerFaceRule(ctx.tx, ids) : [];
      const rooms = new Map(used.map((u) => [u.face_rule_id, u.n]));
      return rows.map((r) => ({ ...r, threshold: Number(r.threshold), rooms: rooms.get(r.id as number) ?? 0 }));
    },
    async editRow(_ctx, row) {
      return { ...row, threshold: Number(row.threshold) };
    },
  },
};

const attemptId = z.object({ id: withMessage(z.coerce.number().int().min(1).max(2_147_483_647), msg`Please choose an attempt`) });
const checkId = z.object({ id: withMessage(z.coerce.number().int().min(1).max(2_147_483_647), msg`Please choose a check`) });


/** Official attempts of rooms with a face rule: failed checks, the flag, the snapshots on a timeline; a reviewer clears a flag. */
export const faceReviewResource: ResourceDef = {
  ...declared(faceReviewDecl, { username: "m.username", room_title: "r.title" }),
  table: "exam_face_attempt",
  joins: [joinById("member", "m", "t.user_id"), joinById("exam_room", "r", "t.room_id")],
  defaultOrder: ["id", "desc"],
  editColumns: ["id", "user_id", "room_id", "status", "started_at", "face_failures", "face_flag", "checks", "missed"],
  rules: { edit: "exam/faceReview/index" },
  // A company admin reviews only their company's members' attempts.
  company: { column: "m.company_id" },
  hooks: {
    async listRows(_ctx, rows) {
      return rows.map((r) => ({ ...r, min_similarity: r.min_similarity === null ? null : Number(r.min_similarity) }));
    },
    // The row of `GET edit` names its member, as the list does.
    async editRow(ctx, row) {
      return { ...row, username: (await usernameOf(ctx.tx, row.user_id)) ?? "" };
    },
  },
  actions: {
    timeline: {
      method: "GET",
      input: attemptId,
      rule: "exam/faceReview/index",
      async run(ctx, input): Promise<FaceTimeline> {
        const { id } = input as { id: number };
        const a = await faceReviewAttempt(ctx.tx, id);
        if (!a) throw new ApiError(msg`This exam record does not exist`);
        const rows = await faceChecksOf(ctx.tx, id);
        const num = (v: string | null) => (v === null ? null : Number(v));
        return {
          attempt: { id: a.id, username: a.username, roomTitle: a.title, startedAt: Number(a.started_at), deadline: num(a.deadline), status: a.status, failures: a.face_failures, flag: a.face_flag, threshold: num(a.threshold), action: a.action, maxFailures: a.max_failures },
          checks: rows.map((c) => ({ id: c.id, kind: c.kind, takenAt: Number(c.taken_at), receivedAt: Number(c.received_at), verdict: c.verdict, deviceVerdict: c.device_verdict, similarity: num(c.similarity), live: num(c.live), faces: c.faces, ms: c.check_ms, picture: c.path !== null })),
        };
      },
    },
    picture: {
      method: "GET",
      // `id` is a face check's: the attempt it belongs to is the row a company admin must reach.
      input: checkId,
      rule: "exam/faceReview/index",
      async rows(ctx, input) {
        const { id } = input as { id: number };
        // No such check: an id no attempt has, so a company admin is answered as for another company's.
        return [(await faceCheck(ctx.tx, id))?.attempt_id ?? 0];
      },
      run: async () => null,
      async send(ctx, input, reply) {
        const { id } = input as { id: number };
        const row = await faceCheck(ctx.tx, id);
        if (!row?.path) throw new ApiError(msg`This picture does not exist`);
        const bytes = await readFacePicture(ctx.req.server.config.dataDir, row.path);
        return reply.header("content-type", "image/jpeg").header("cache-control", "private, no-store").header("x-content-type-options", "nosniff").send(bytes);
      },
    },
    review: {
      method: "POST",
      input: faceReviewBody,
      done: msg`Marked as reviewed`,
      async run(ctx, input) {
        const { id } = input as { id: number };
        if (!(await markFaceReviewed(ctx.tx, id))) throw new ApiError(msg`This attempt is not waiting for a face review`);
        return { id, flag: "reviewed" };
      },
    },
  },
};

/** `POST /admin/user/user/face {id, image}`: staff enrol a member's reference photo (one face, checked on the server). */
export const memberFaceAction = {
  method: "POST" as const,
  bodyLimit: 3_200_000,
  input: z.object({
    id: withMessage(dbId, msg`Please choose a member`),
    image: withMessage(z.string().min(1).max(3_000_000), msg`Choose a photo (at most 2 MB)`),
  }),
  done: msg`The reference photo is saved`,
  async run(ctx: Parameters<NonNullable<ResourceDef["actions"]>[string]["run"]>[0], input: unknown) {
    const { id, image } = input as { id: number; image: string };
    if (!(await memberExists(ctx.tx, id))) throw new ApiError(msg`This member does not exist`);
    return enrolFace(ctx.tx, ctx.req.server.config.dataDir, id, decodeImage(image), "admin");
  },
};
