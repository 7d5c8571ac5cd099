import { msg } from "@lingui/core/macro";
import { z } from "zod";
import type { PageLeaveSummary } from "../exam/pageLeaves.ts";
import { timeZone } from "../push.ts";
import { dbId, dbInt, safeText, withMessage } from "../schema.ts";
import { assignment, memberOrg } from "./org.ts";
import { MAX_DURATION, rowId, score, status } from "./papers.ts";

/** Back-office wire shapes of exam rooms: the add/edit bodies the server checks and the client's forms validate with, and their results. */

export const REVIEW_POLICIES = ["submitted", "closed", "never"] as const;
export type ReviewPolicy = (typeof REVIEW_POLICIES)[number];

const time = (message: Parameters<typeof withMessage>[1]) => withMessage(z.number().int().min(0).max(32_503_680_000), message);

const roomBase = z.object({
    paper_id: withMessage(dbId, msg`Please choose the paper`),
    title: withMessage(safeText(100).trim().min(1), msg`Please enter the room's title (at most 100 characters)`),
    start_time: time(msg`Please choose when the room opens`),
    end_time: time(msg`Please choose when the room closes`),
    duration: withMessage(dbInt(60, MAX_DURATION), msg`Enter a duration from 1 minute to 24 hours`),
    attempts_allowed: withMessage(dbInt(1, 100).optional().default(1), msg`Enter the attempts allowed, from 1 to 100`),
    pass_score: score(msg`Enter a pass score from 0 to 100000, with at most 2 decimals`),
    user_group_id: withMessage(dbId.nullable().optional().default(null), msg`Please choose a member group`),
    review_policy: withMessage(z.enum(REVIEW_POLICIES).optional().default("closed"), msg`Please choose when members see the answers`),
    late_policy: withMessage(z.enum(["review", "refuse"]).optional().default("review"), msg`Please choose what happens to late answers`),
    /** The face rule checking who sits the room (null: none). */
    face_rule_id: withMessage(dbId.nullable().optional().default(null), msg`Please choose a face rule`),
    /** Each attempt gets the paper's questions in its own random order. */
    shuffle_questions: withMessage(z.boolean().optional().default(false), msg`Please choose yes or no`),
    /**
     * The admin has seen which mock papers this room keeps for the official exam (they stop being
     * offered as mock papers until it closes) and saves anyway. Not stored.
     */
    confirm_withhold: withMessage(
      z
        .boolean()
        .nullish()
        .transform((v) => v === true),
      msg`Please choose yes or no`,
    ),
    status,
    /** The company the room belongs to (company admins see only theirs); null: the whole organisation's. */
    company_id: memberOrg.company_id,
    ...assignment,
  });
function checkRoom(room: z.infer<typeof roomBase>, ctx: z.RefinementCtx) {
  if (room.end_time <= room.start_time) ctx.addIssue({ code: "custom", path: ["end_time"], message: "after start" });
}
export const roomAdd = roomBase.superRefine(checkRoom);
export const roomEdit = roomBase.extend({ id: rowId }).superRefine(checkRoom);
export type RoomAdd = z.infer<typeof roomAdd>;

/** `GET /admin/exam/room/results` and `export`: one room. */
export const roomResultsQuery = z.object({ id: withMessage(z.coerce.number().int().min(1).max(2_147_483_647), msg`Please choose a room`) });

/** `GET /admin/exam/room/export`: one room, its times written as the reader's clock shows them (`tz`, IANA; default the server's). */
export const roomExportQuery = roomResultsQuery.extend({ tz: timeZone.optional() });

/** What `GET /admin/exam/room/results` answers. */
export interface RoomResults {
  room: { id: number; title: string; paperTitle: string; totalScore: number; passScore: number };
  attempts: {
    id: number;
    userId: number;
    username: string;
    nickname: string;
    score: number | null;
    passed: boolean | null;
    status: "open" | "submitted" | "expired";
    startedAt: number;
    submittedAt: number | null;
    /** Seconds from start to submission (null while open). */
    timeUsed: number | null;
    /** Short answers still waiting for a marker. */
    pendingMarks: number;
    /** How many times and how long (ms) the member left the exam page during it. */
    pageLeaves: PageLeaveSummary;
  }[];
  summary: { attempts: number; members: number; finished: number; passed: number; average: number | null; highest: number | null; lowest: number | null };
  /** Finished attempts per score band (ten bands of the paper's total). */
  distribution: { from: number; to: number; count: number }[];
  /** Per question of the finished attempts: how many members answered it, how many got it right. */
  items: { questionId: number; stem: string; type: string; attempts: number; correct: number; share: number }[];
}

/** Most extra minutes an override gives (24 hours: as long as the longest attempt). */
export const MAX_EXTRA_MINUTES = 1440;
/** Most extra attempts an override gives (as many as a room allows). */
export const MAX_EXTRA_ATTEMPTS = 100;

/** `GET /admin/exam/room/overrides?id=`: a room's overrides. */
export const roomOverridesQuery = roomResultsQuery;

/**
 * `POST /admin/exam/room/overrideAdd`: extra time and/or attempts in room `id` for one member
 * (`user_id`) or one member group (`user_group_id`), Moodle's user and group overrides.
 */
export const roomOverrideAdd = z.object({
  id: withMessage(dbId, msg`Please choose a room`),
  user_id: withMessage(dbId.nullable().optional().default(null), msg`Please choose a member`),
  user_group_id: withMessage(dbId.nullable().optional().default(null), msg`Please choose a member group`),
  extra_minutes: withMessage(z.number().int().min(0).max(MAX_EXTRA_MINUTES).optional().default(0), msg`Enter the extra minutes, from 0 to ${MAX_EXTRA_MINUTES}`),
  extra_attempts: withMessage(z.number().int().min(0).max(MAX_EXTRA_ATTEMPTS).optional().default(0), msg`Enter the extra attempts, from 0 to ${MAX_EXTRA_ATTEMPTS}`),
});
export type RoomOverrideAdd = z.infer<typeof roomOverrideAdd>;

/** `POST /admin/exam/room/overrideDel {id, override_id}`. */
export const roomOverrideDel = z.object({
  id: withMessage(dbId, msg`Please choose a room`),
  override_id: withMessage(dbId, msg`Please choose an override`),
});

/** One override as `GET overrides` lists it. */
export interface RoomOverride {
  id: number;
  /** The member's id, username and nickname, or null for a group override. */
  member: { id: number; username: string; nickname: string } | null;
  group: { id: number; name: string } | null;
  extraMinutes: number;
  extraAttempts: number;
}

/** `GET /admin/exam/room/withholding?paper_id=&end_time=&id=`: what saving the room would keep from practice. */
export const roomWithholdingQuery = z.object({
  id: withMessage(z.coerce.number().int().min(1).max(2_147_483_647).optional(), msg`Please choose a room`),
  paper_id: withMessage(z.coerce.number().int().min(1).max(2_147_483_647), msg`Please choose the paper`),
  end_time: withMessage(z.coerce.number().int().min(0).max(32_503_680_000), msg`Please choose when the room closes`),
});

/** What a room (as it would be saved) keeps from members' practice until it closes. */
export interface RoomWithholding {
  /** When the room closes (its end time plus the most extra time an override gives), seconds. */
  closesAt: number;
  /** Questions of practice banks kept out of practice until then (0 once the room has closed). */
  questions: number;
  /** Mock papers members can take now that this room would keep for the official exam. */
  papers: { id: number; title: string }[];
}
