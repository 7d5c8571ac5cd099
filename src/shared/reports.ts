import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { EXPORT_FORMATS } from "./admin/crud.ts";
import { timeZone } from "./push.ts";
import { dbIdParam, dbIntParam, withMessage } from "./schema.ts";
import type { MemberCertificate } from "./certificate.ts";

/**
 * Reports: a member's transcript (every official room sat, every course taken, the
 * review streak) and the progress of a classroom, company or duty in the rooms and courses
 * assigned to it. Wire shapes shared by the server and both apps.
 */

/** One official room the member sat: best score, passed, last attempt, attempts used of allowed (0: unlimited). */
export interface TranscriptRoom {
  id: number;
  title: string;
  bestScore: number | null;
  passScore: number;
  passed: boolean;
  /** Unix seconds of the latest attempt (its submission, else its start). */
  lastAt: number;
  attemptsUsed: number;
  /** The room's attempts plus the member's extra attempts; 0: unlimited. */
  attemptsAllowed: number;
}

/** One course the member joined or studied: lessons done of total, completed (Unix seconds) when every lesson is. */
export interface TranscriptCourse {
  id: number;
  title: string;
  lessonsDone: number;
  lessonsTotal: number;
  completedAt: number | null;
}

/** Spaced review: days in a row (UTC days, up to today or yesterday) with a review, and all reviews. */
export interface ReviewStreak {
  days: number;
  reviews: number;
  lastAt: number | null;
}

export interface Transcript {
  member: { id: number; username: string; nickname: string };
  rooms: TranscriptRoom[];
  courses: TranscriptCourse[];
  review: ReviewStreak;
  /** The member's certificates, newest first, revoked ones included (marked). */
  certificates: MemberCertificate[];
}

export const REPORT_GROUPS = ["classroom", "company", "duty"] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** A member's status in a room (failed: finished attempts, none passed) or a course (passed: completed). */
export const ROOM_STATUSES = ["not_started", "in_progress", "failed", "passed"] as const;
export const COURSE_STATUSES = ["not_started", "in_progress", "completed"] as const;
export const PROGRESS_STATUSES = ["not_started", "in_progress", "failed", "passed", "completed"] as const;
export type ProgressStatus = (typeof PROGRESS_STATUSES)[number];

const format = withMessage(z.enum(EXPORT_FORMATS), msg`Choose .xlsx or .csv`);

/**
 * `GET /admin/reports/progress/index`: the group (`group` and `id`), optionally one room or course
 * (`target`: `room-12` / `course-3`, else the first assigned), the member rows of that target
 * filtered by `status` and `overdue`, a page of them.
 */
export const progressQuery = z.object({
  group: withMessage(z.enum(REPORT_GROUPS), msg`Choose a classroom, company or duty`),
  id: withMessage(dbIdParam, msg`Choose a classroom, company or duty`),
  target: withMessage(z.string().regex(/^(room|course)-[1-9]\d{0,9}$/).optional(), msg`Choose a room or course`),
  status: withMessage(z.enum(PROGRESS_STATUSES).optional(), msg`The status is not valid`),
  overdue: z.enum(["1", "0"]).optional(),
  page: withMessage(dbIntParam(1, 1_000_000).optional(), msg`The page number is not valid`),
  limit: withMessage(dbIntParam(1, 100).optional(), msg`The page size must be between 1 and 100`),
});
export type ProgressQuery = z.infer<typeof progressQuery>;

export const progressExportQuery = progressQuery.omit({ page: true, limit: true }).extend({ format, tz: timeZone.optional() });

export const transcriptExportQuery = z.object({ format, tz: timeZone.optional() });

/** `GET /admin/user/user/transcript?id=` (and its export). */
export const memberTranscriptQuery = z.object({ id: withMessage(dbIdParam, msg`Choose a member`) });

export interface ProgressCounts {
  not_started: number;
  in_progress: number;
  failed: number;
  passed: number;
  completed: number;
  overdue: number;
}

/** A room or course assigned to the group, with its members' counts. */
export interface ProgressTarget {
  key: string;
  kind: "room" | "course";
  id: number;
  title: string;
  /** Unix seconds the room's window or the classroom's period ends (0: none). */
  endsAt: number;
  members: number;
  counts: ProgressCounts;
}

export interface ProgressMemberRow {
  id: number;
  username: string;
  nickname: string;
  status: ProgressStatus;
  overdue: boolean;
  /** Rooms: best score and attempts; courses: lessons done. */
  bestScore: number | null;
  attempts: number;
  lessonsDone: number;
  /** Unix seconds of the latest attempt or lesson, or the pass / completion. */
  lastAt: number | null;
}

export interface ProgressReport {
  group: { kind: ReportGroup; id: number; name: string };
  targets: ProgressTarget[];
  /** The target whose members are listed (null: nothing assigned). */
  target: string | null;
  list: ProgressMemberRow[];
  total: number;
}

/** The dashboard's "due this week": rooms whose window closes within 7 days and how many assigned members have not passed. */
export interface DueRoom {
  id: number;
  title: string;
  endTime: number;
  notPassed: number;
  /** A group the room is assigned to, for the link to the progress report (none: open to everyone). */
  group: { kind: ReportGroup; id: number } | null;
}
