import { msg } from "@lingui/core/macro";
import type { ReportGroup, ProgressCounts, ProgressMemberRow, ProgressQuery, ProgressReport, ProgressStatus, ProgressTarget, Transcript, DueRoom } from "../../../shared/reports.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { memberCertificates } from "../certificate/repository.ts";
import type { AdminRow } from "../../plugins/auth.ts";
import {
  dueRooms,
  groupTargets,
  matching,
  reportGroup,
  reviewDays,
  STATUS_OF_KIND,
  statusCounts,
  statusIds,
  statusPage,
  statusRowsOf,
  transcriptCourses,
  transcriptMember,
  transcriptRooms,
  type CountRow,
  type Reach,
  type StatusFilter,
  type StatusRow,
  type TargetRow,
  type TargetSpec,
} from "./repository.ts";

const DAY = 86_400;
const num = (v: string | number | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

/** A company-scoped admin's reach (their company; -1, nobody's, when they have none), else null: everyone. */
export function reachOf(admin: AdminRow): Reach {
  return admin.is_company && !admin.is_super ? (admin.company_id ?? -1) : null;
}

/** Days in a row (UTC days since the epoch, newest first) ending today or yesterday. */
export function streakOf(days: readonly number[], today: number): number {
  if (days.length === 0 || days[0]! < today - 1) return 0;
  let n = 1;
  while (n < days.length && days[n] === days[n - 1]! - 1) n++;
  return n;
}

/** The member's transcript; a member outside the reach (or none) is "does not exist". */
export async function transcriptOf(db: Queryable, memberId: number, reach: Reach, now: number): Promise<Transcript> {
  const member = await transcriptMember(db, memberId, reach);
  if (!member) throw new ApiError(msg`The member does not exist`);
  const [rooms, courses, review, certificates] = [await transcriptRooms(db, member), await transcriptCourses(db, member.id), await reviewDays(db, member.id), await memberCertificates(db, member.id)];
  return {
    member: { id: member.id, username: member.username, nickname: member.nickname },
    rooms: rooms.map((r) => ({
      id: r.id,
      title: r.title,
      bestScore: num(r.best_score),
      passScore: Number(r.pass_score),
      passed: r.passed,
      lastAt: Number(r.last_at),
      attemptsUsed: r.attempts_used,
      attemptsAllowed: r.attempts_allowed,
    })),
    courses: courses.map((c) => ({
      id: c.id,
      title: c.title,
      lessonsDone: c.lessons_done,
      lessonsTotal: c.lessons_total,
      completedAt: c.lessons_total > 0 && c.lessons_done >= c.lessons_total && c.completed_ms !== null ? Math.floor(Number(c.completed_ms) / 1000) : null,
    })),
    review: { days: streakOf(review.days, Math.floor(now / DAY)), reviews: review.reviews, lastAt: review.lastAt },
    certificates,
  };
}

const EMPTY_COUNTS = (): ProgressCounts => ({ not_started: 0, in_progress: 0, failed: 0, passed: 0, completed: 0, overdue: 0 });

function targetSpec(row: TargetRow, group: { end_time: number }): TargetSpec {
  return { kind: row.kind, id: row.id, endsAt: row.kind === "room" ? row.end_time : group.end_time, userGroupId: row.kind === "room" ? row.user_group_id : null };
}

const memberRow = (r: StatusRow): ProgressMemberRow => ({
  id: r.id,
  username: r.username,
  nickname: r.nickname,
  status: r.status as ProgressStatus,
  overdue: r.overdue,
  bestScore: num(r.best_score),
  attempts: r.attempts,
  lessonsDone: r.lessons_done,
  lastAt: num(r.last_at),
});

interface Resolved {
  group: { kind: ReportGroup; id: number; name: string; end_time: number };
  targets: TargetRow[];
  chosen: TargetRow | null;
  filter: StatusFilter;
}

/** The group, its assigned targets and the chosen one; a group or target outside them is refused (code 0). */
async function resolve(db: Queryable, query: Omit<ProgressQuery, "page" | "limit">, reach: Reach): Promise<Resolved> {
  const group = await reportGroup(db, query.group, query.id, reach);
  if (!group) throw new ApiError(msg`The classroom, company or duty does not exist`);
  const targets = await groupTargets(db, query.group, query.id, reach);
  const chosen = query.target ? targets.find((t) => `${t.kind}-${t.id}` === query.target) : targets[0];
  if (query.target && !chosen) throw new ApiError(msg`That room or course is not assigned to this group`);
  if (chosen && query.status && !STATUS_OF_KIND[chosen.kind].includes(query.status)) throw new ApiError(msg`The status is not valid`);
  const filter: StatusFilter = { ...(query.status ? { status: query.status } : {}), ...(query.overdue ? { overdue: query.overdue === "1" } : {}) };
  return { group: { kind: query.group, ...group }, targets, chosen: chosen ?? null, filter };
}

/** The progress report: every assigned target's counts, and a page of the chosen target's members. */
export async function progressReport(db: Queryable, query: ProgressQuery, reach: Reach, now: number): Promise<ProgressReport> {
  const { group, targets, chosen, filter } = await resolve(db, query, reach);
  const summaries: ProgressTarget[] = [];
  // The chosen target's page total comes from its counts (no second pass over its members), and
  // its page is read status by status from them (statusPage).
  let total = 0;
  let chosenCounts: CountRow[] = [];
  for (const target of targets) {
    const spec = targetSpec(target, group);
    const counts = EMPTY_COUNTS();
    let members = 0;
    const rows = await statusCounts(db, group.kind, group.id, reach, spec, now);
    for (const row of rows) {
      counts[row.status as ProgressStatus] = row.n;
      counts.overdue += row.overdue;
      members += row.n;
    }
    if (target === chosen) {
      total = matching(rows, filter);
      chosenCounts = rows;
    }
    summaries.push({ key: `${target.kind}-${target.id}`, kind: target.kind, id: target.id, title: target.title, endsAt: spec.endsAt, members, counts });
  }
  const limit = query.limit ?? 20;
  const spec = chosen ? targetSpec(chosen, group) : null;
  const ids = spec ? await statusPage(db, group.kind, group.id, reach, spec, chosenCounts, filter, { offset: ((query.page ?? 1) - 1) * limit, limit }) : [];
  const rows = spec ? await statusRowsOf(db, group.kind, group.id, reach, spec, now, ids) : [];
  return {
    group: { kind: group.kind, id: group.id, name: group.name },
    targets: summaries,
    target: chosen ? `${chosen.kind}-${chosen.id}` : null,
    list: rows.map(memberRow),
    total,
  };
}

/** Most member rows one progress export writes; and how many one query of it reads. */
export const PROGRESS_EXPORT = { rows: 100_000, batch: 1000 };

/**
 * The chosen target's title and every matching member row (for the export), batch after batch:
 * the matching members' ids in the report's order once, then their rows a batch at a time, so an
 * export of 100,000 members holds one batch of rows at a time.
 */
export async function progressRows(
  db: Queryable,
  query: Omit<ProgressQuery, "page" | "limit">,
  reach: Reach,
  now: number,
): Promise<{ title: string; kind: "room" | "course"; rows: AsyncGenerator<ProgressMemberRow[]> }> {
  const { group, chosen, filter } = await resolve(db, query, reach);
  if (!chosen) throw new ApiError(msg`Nothing is assigned to this group`);
  const spec = targetSpec(chosen, group);
  const ids = await statusIds(db, group.kind, group.id, reach, spec, now, filter, PROGRESS_EXPORT.rows);
  async function* rows(): AsyncGenerator<ProgressMemberRow[]> {
    for (let from = 0; from < ids.length; from += PROGRESS_EXPORT.batch) {
      yield (await statusRowsOf(db, group.kind, group.id, reach, spec, now, ids.slice(from, from + PROGRESS_EXPORT.batch))).map(memberRow);
    }
  }
  return { title: chosen.title, kind: chosen.kind, rows: rows() };
}

/** The dashboard's rooms due within 7 days (at most 10). */
export async function dueThisWeek(db: Queryable, reach: Reach, now: number): Promise<DueRoom[]> {
  const rows = await dueRooms(db, now, now + 7 * DAY, reach, 10);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    endTime: Number(r.end_time),
    notPassed: r.not_passed,
    group:
      r.classroom_id !== null ? { kind: "classroom", id: r.classroom_id } : r.company_id !== null ? { kind: "company", id: r.company_id } : r.duty_id !== null ? { kind: "duty", id: r.duty_id } : null,
  }));
}
