import { sql, type RawBuilder } from "kysely";
import type { ProgressStatus, ReportGroup } from "../../../shared/reports.ts";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/**
 * The reports' rows, aggregated in SQL: a member's transcript, the progress of a
 * classroom, company or duty in the rooms and courses assigned to it, the rooms due this week.
 * Statuses are the same CASE everywhere (`ROOM_STATUS`, `COURSE_STATUS`), so counts and member
 * rows never disagree.
 */

/** The reach of a company admin (their company and those under it), or null: everyone. */
export type Reach = number | null;

const inReach = (column: RawBuilder<unknown>, reach: Reach) => (reach === null ? sql`true` : sql`${column} in (select company_subtree(${reach}::int))`);

// ---------------------------------------------------------------- transcript

export interface TranscriptMemberRow {
  id: number;
  username: string;
  nickname: string;
  group_id: number | null;
}

/** The member, if they exist and (for a company admin) belong to the admin's companies. */
export async function transcriptMember(db: Queryable, memberId: number, reach: Reach): Promise<TranscriptMemberRow | undefined> {
  const { rows } = await sql<TranscriptMemberRow>`select m.id, m.username, m.nickname, m.group_id from member m
     where m.id = ${memberId} and ${inReach(sql`m.company_id`, reach)}`.execute(kyselyOf(db));
  return rows[0];
}

export interface TranscriptRoomRow {
  id: number;
  title: string;
  best_score: string | null;
  pass_score: string;
  passed: boolean;
  last_at: string;
  attempts_used: number;
  attempts_allowed: number;
}

/** Every official room the member sat (attempts of a deleted room are left out: it has no title). */
export async function transcriptRooms(db: Queryable, member: TranscriptMemberRow): Promise<TranscriptRoomRow[]> {
  const { rows } = await sql<TranscriptRoomRow>`select r.id, r.title, max(a.score) as best_score, r.pass_score, bool_or(a.passed is true) as passed,
            max(coalesce(a.submitted_at, a.started_at)) as last_at, count(*)::int as attempts_used,
            case when r.attempts_allowed = 0 then 0 else r.attempts_allowed + coalesce((select max(o.extra_attempts) from exam_room_override o
              where o.room_id = r.id and (o.user_id = ${member.id} or o.user_group_id = ${member.group_id}::int)), 0) end::int as attempts_allowed
     from exam_attempt a join exam_room r on r.id = a.room_id
     where a.user_id = ${member.id} and a.kind = 'official'
     group by r.id order by max(coalesce(a.submitted_at, a.started_at)) desc, r.id`.execute(kyselyOf(db));
  return rows;
}

export interface TranscriptCourseRow {
  id: number;
  title: string;
  lessons_done: number;
  lessons_total: number;
  completed_ms: string | null;
}

/** Every course the member joined or studied a lesson of, with lessons done of its enabled lessons. */
export async function transcriptCourses(db: Queryable, memberId: number): Promise<TranscriptCourseRow[]> {
  const { rows } = await sql<TranscriptCourseRow>`with mine as (
       select course_id from course_enrolment where user_id = ${memberId}
       union select l.course_id from lesson_progress p join lesson l on l.id = p.lesson_id where p.user_id = ${memberId}),
     done as (select l.course_id, count(*)::int as n, max(p.completed_at) as at from lesson_progress p join lesson l on l.id = p.lesson_id
       where p.user_id = ${memberId} and p.completed and l.status = 'enable' group by l.course_id)
     select c.id, c.title, coalesce(d.n, 0) as lessons_done,
            (select count(*) from lesson l where l.course_id = c.id and l.status = 'enable')::int as lessons_total, d.at as completed_ms
     from mine join course c on c.id = mine.course_id left join done d on d.course_id = c.id
     order by c.weigh desc, c.id`.execute(kyselyOf(db));
  return rows;
}

/** The UTC days (days since the epoch, newest first) the member reviewed on, and their reviews. */
export async function reviewDays(db: Queryable, memberId: number): Promise<{ days: number[]; reviews: number; lastAt: number | null }> {
  const k = kyselyOf(db);
  const days = await sql<{ day: string }>`select distinct (at / 86400000)::bigint as day from exam_review_log
     where user_id = ${memberId} order by day desc limit 3660`.execute(k);
  const total = await sql<{ n: number; last: string | null }>`select count(*)::int as n, max(at) as last from exam_review_log where user_id = ${memberId}`.execute(k);
  const last = total.rows[0]?.last;
  return { days: days.rows.map((r) => Number(r.day)), reviews: total.rows[0]?.n ?? 0, lastAt: last === null || last === undefined ? null : Math.floor(Number(last) / 1000) };
}

// ---------------------------------------------------------------- progress

export interface GroupRow {
  id: number;
  name: string;
  /** The classroom's period end (Unix seconds, 0: none); 0 for a company or duty. */
  end_time: number;
}

/** The classroom, company or duty, if it exists and (a company admin) is theirs: a classroom or company of their reach; a duty is shared. */
export async function reportGroup(db: Queryable, kind: ReportGroup, id: number, reach: Reach): Promise<GroupRow | undefined> {
  const k = kyselyOf(db);
  const query =
    kind === "classroom"
      ? sql<GroupRow>`select id, name, end_time::int as end_time from classroom where id = ${id} and ${reach === null ? sql`true` : sql`company_id in (select company_subtree(${reach}::int))`}`
      : kind === "company"
        ? sql<GroupRow>`select id, name, 0 as end_time from company where id = ${id} and ${inReach(sql`id`, reach)}`
        : sql<GroupRow>`select id, name, 0 as end_time from duty where id = ${id}`;
  return (await query.execute(k)).rows[0];
}

/** SQL condition: the member (`m`) is one of the group's, inside the admin's reach. */
function inGroup(kind: ReportGroup, id: number, reach: Reach): RawBuilder<unknown> {
  const where =
    kind === "classroom"
      ? sql`m.id in (select cm.user_id from classroom_member cm where cm.classroom_id = ${id})`
      : kind === "company"
        ? sql`m.company_id in (select company_subtree(${id}::int))`
        : sql`m.duty_id = ${id}`;
  return sql`${where} and ${inReach(sql`m.company_id`, reach)}`;
}

/** SQL of the group's members (ids and member groups), inside the admin's reach; `only`: of these members only. */
function groupMembers(kind: ReportGroup, id: number, reach: Reach, only?: readonly number[]): RawBuilder<unknown> {
  const these = only === undefined ? sql`true` : sql`m.id = any(${only}::int[])`;
  return sql`select m.id, m.group_id, m.username, m.nickname from member m where ${inGroup(kind, id, reach)} and ${these}`;
}

/** The org_access rows naming the group (a company: it or a company above it, whose content its members see too). */
function namesGroup(kind: ReportGroup, id: number): RawBuilder<unknown> {
  return kind === "classroom" ? sql`oa.classroom_id = ${id}` : kind === "company" ? sql`oa.company_id in (select company_path(${id}::int))` : sql`oa.duty_id = ${id}`;
}

export interface TargetRow {
  kind: "room" | "course";
  id: number;
  title: string;
  end_time: number;
  user_group_id: number | null;
}

/** The rooms (a company admin: their companies' rooms) and courses (shared) assigned to the group, rooms by their end, then courses. */
export async function groupTargets(db: Queryable, kind: ReportGroup, id: number, reach: Reach): Promise<TargetRow[]> {
  const names = namesGroup(kind, id);
  const { rows } = await sql<TargetRow>`select * from (
       select 'room' as kind, r.id, r.title, r.end_time::bigint as end_time, r.user_group_id, 0 as ord from exam_room r
         where exists (select 1 from org_access oa where oa.room_id = r.id and ${names}) and ${inReach(sql`r.company_id`, reach)}
       union all
       select 'course', c.id, c.title, 0, null, 1 from course c
         where exists (select 1 from org_access oa where oa.course_id = c.id and ${names})) t
     order by ord, end_time, id`.execute(kyselyOf(db));
  return rows.map((r) => ({ ...r, end_time: Number(r.end_time) }));
}

/** The statuses of a room's and a course's members, in the report's order (overdue ones come first: they are the statuses before the last). */
export const STATUS_OF_KIND: Record<"room" | "course", readonly ProgressStatus[]> = {
  room: ["not_started", "in_progress", "failed", "passed"],
  course: ["not_started", "in_progress", "completed"],
};

/** One member's status in a room: passed, else in progress (an open or unmarked attempt), else failed (finished attempts), else not started. */
const ROOM_STATUS = sql`case when att.passed then 'passed' when att.pending then 'in_progress' when att.n > 0 then 'failed' else 'not_started' end`;
/** One member's status in a course: completed (every enabled lesson done), in progress (any lesson opened), not started. */
const COURSE_STATUS = sql`case when tot.total > 0 and coalesce(lp.done, 0) >= tot.total then 'completed' when lp.user_id is not null then 'in_progress' else 'not_started' end`;

export interface StatusRow {
  id: number;
  username: string;
  nickname: string;
  status: string;
  overdue: boolean;
  best_score: string | null;
  attempts: number;
  lessons_done: number;
  last_at: string | null;
}

/** SQL of a room's official attempts per member (`users`: of these members only), as ROOM_STATUS reads them. */
const roomAttempts = (roomId: number, users?: RawBuilder<unknown>) =>
  sql`select a.user_id, count(*)::int as n, max(a.score) as best, bool_or(a.passed is true) as passed,
       bool_or(a.status = 'open' or (a.status = 'submitted' and a.passed is null)) as pending, max(coalesce(a.submitted_at, a.started_at)) as last_at
     from exam_attempt a where a.room_id = ${roomId} and a.kind = 'official' and ${users ? sql`a.user_id in (${users})` : sql`true`} group by a.user_id`;

/** SQL of a course's enabled lessons (`total`), as COURSE_STATUS reads them. */
const courseLessons = (courseId: number) => sql`select count(*)::int as total from lesson where course_id = ${courseId} and status = 'enable'`;

/** SQL of each member's progress in a course's enabled lessons (`users`: of these members only), as COURSE_STATUS reads it. */
const courseProgress = (courseId: number, users?: RawBuilder<unknown>) =>
  sql`select p.user_id, count(*) filter (where p.completed)::int as done, max(p.last_watched) as last_at from lesson_progress p
       join lesson l on l.id = p.lesson_id and l.status = 'enable'
     where l.course_id = ${courseId} and ${users ? sql`p.user_id in (${users})` : sql`true`} group by p.user_id`;

/**
 * SQL of every group member's status in one room: `members` the group's members, the room's
 * member group (if it has one) narrowing them; overdue: the room's window ended without a pass.
 */
function roomStatuses(members: RawBuilder<unknown>, roomId: number, now: number): RawBuilder<StatusRow> {
  return sql<StatusRow>`with r as (select id, end_time, user_group_id from exam_room where id = ${roomId}),
     m as not materialized (${members}),
     att as (${roomAttempts(roomId, sql`select id from m`)})
     select m.id, m.username, m.nickname, ${ROOM_STATUS} as status,
            (r.end_time < ${now} and not coalesce(att.passed, false)) as overdue,
            att.best as best_score, coalesce(att.n, 0) as attempts, 0 as lessons_done, att.last_at
     from m cross join r left join att on att.user_id = m.id
     where r.user_group_id is null or m.group_id = r.user_group_id`;
}

/** SQL of every group member's status in one course; overdue: `endsAt` (the classroom's period) passed without completion. */
function courseStatuses(members: RawBuilder<unknown>, courseId: number, endsAt: number, now: number): RawBuilder<StatusRow> {
  const ended = endsAt > 0 && endsAt < now;
  return sql<StatusRow>`with m as not materialized (${members}),
     tot as (${courseLessons(courseId)}),
     lp as (${courseProgress(courseId, sql`select id from m`)})
     select m.id, m.username, m.nickname, ${COURSE_STATUS} as status,
            (${ended ? sql`true` : sql`false`} and ${COURSE_STATUS} <> 'completed') as overdue,
            null::numeric as best_score, 0 as attempts, coalesce(lp.done, 0) as lessons_done, lp.last_at
     from m cross join tot left join lp on lp.user_id = m.id`;
}

export interface TargetSpec {
  kind: "room" | "course";
  id: number;
  /** A room's end; a course's: the classroom's period end (0: none). */
  endsAt: number;
  /** The member group a room is open to (it narrows the group's members), or null: a course, a room open to every group. */
  userGroupId: number | null;
}

/** Whether the target's members who have not passed (completed) it are overdue: its window (the classroom's period) has ended. */
const hasEnded = (target: TargetSpec, now: number) => (target.kind === "room" ? target.endsAt < now : target.endsAt > 0 && target.endsAt < now);

/** SQL condition: the member (`m`) is one the target is open to (a room's member group). */
const openTo = (target: TargetSpec) => (target.userGroupId === null ? sql`true` : sql`m.group_id = ${target.userGroupId}`);

/**
 * SQL of the group's members who did something in the target (an official attempt in the room,
 * progress in an enabled lesson of the course), with their status: every status but not started,
 * read from the target's attempts or progress rows and the members they name, never from every
 * member of the group.
 */
function activeStatuses(group: ReportGroup, groupId: number, reach: Reach, target: TargetSpec): RawBuilder<{ id: number; username: string; status: string }> {
  // A classroom's or a duty's members are few next to the target's rows: only theirs are read (by
  // the indexes on room and member, member and lesson); a company's are most of them.
  const users = group === "company" ? undefined : sql`select m.id from member m where ${inGroup(group, groupId, reach)}`;
  return target.kind === "room"
    ? sql`select m.id, m.username, ${ROOM_STATUS} as status from (${roomAttempts(target.id, users)}) att join member m on m.id = att.user_id
       where ${inGroup(group, groupId, reach)} and ${openTo(target)}`
    : sql`select m.id, m.username, ${COURSE_STATUS} as status from (${courseProgress(target.id, users)}) lp join member m on m.id = lp.user_id
       cross join (${courseLessons(target.id)}) tot where ${inGroup(group, groupId, reach)}`;
}

/** SQL condition: the member (`m`) has not started the target (no official attempt in the room, no progress in an enabled lesson of the course). */
function notStarted(target: TargetSpec): RawBuilder<unknown> {
  return target.kind === "room"
    ? sql`not exists (select 1 from exam_attempt a where a.room_id = ${target.id} and a.kind = 'official' and a.user_id = m.id)`
    : sql`not exists (select 1 from lesson_progress p join lesson l on l.id = p.lesson_id and l.status = 'enable' where l.course_id = ${target.id} and p.user_id = m.id)`;
}

/**
 * How many of the group's members the target is open to. A company's (a room open to every
 * member group, or a course): the sum of the figures per company the database keeps (migration
 * 0060), not a read of every member.
 */
async function membersOf(db: Queryable, group: ReportGroup, groupId: number, reach: Reach, target: TargetSpec): Promise<number> {
  const query =
    group === "company" && target.userGroupId === null
      ? sql<{ n: number }>`select coalesce(sum(m.n), 0)::int as n from member_count m
         where m.company_id in (select company_subtree(${groupId}::int)) and ${inReach(sql`m.company_id`, reach)}`
      : sql<{ n: number }>`select count(*)::int as n from member m where ${inGroup(group, groupId, reach)} and ${openTo(target)}`;
  return (await query.execute(kyselyOf(db))).rows[0]?.n ?? 0;
}

function statuses(group: ReportGroup, groupId: number, reach: Reach, target: TargetSpec, now: number, only?: readonly number[]): RawBuilder<StatusRow> {
  const members = groupMembers(group, groupId, reach, only);
  return target.kind === "room" ? roomStatuses(members, target.id, now) : courseStatuses(members, target.id, target.endsAt, now);
}

export interface CountRow {
  status: string;
  n: number;
  overdue: number;
}

/**
 * The target's members by status (and how many of each are overdue), in the report's order, the
 * statuses no member has left out: those who did something counted from the target's attempts or
 * progress, the others (not started) the rest of the group's members. Overdue: every status
 * but the last (passed, completed) once the target has ended.
 */
export async function statusCounts(db: Queryable, group: ReportGroup, groupId: number, reach: Reach, target: TargetSpec, now: number): Promise<CountRow[]> {
  const { rows } = await sql<{ status: string; n: number }>`select s.status, count(*)::int as n
     from (${activeStatuses(group, groupId, reach, target)}) s group by s.status`.execute(kyselyOf(db));
  const counts = new Map(rows.map((r) => [r.status, r.n]));
  counts.set("not_started", (await membersOf(db, group, groupId, reach, target)) - rows.reduce((sum, r) => sum + r.n, 0));
  const statuses = STATUS_OF_KIND[target.kind];
  const late = hasEnded(target, now);
  return statuses.flatMap((status) => {
    const n = counts.get(status) ?? 0;
    return n > 0 ? [{ status, n, overdue: late && status !== statuses.at(-1) ? n : 0 }] : [];
  });
}

export interface StatusFilter {
  status?: string;
  overdue?: boolean;
}

const filtered = (filter: StatusFilter) =>
  sql`${filter.status === undefined ? sql`true` : sql`s.status = ${filter.status}`} and ${filter.overdue === undefined ? sql`true` : sql`s.overdue = ${filter.overdue}`}`;

/** How many of `counts` match the filter (the page's total, from the counts already read). */
export function matching(counts: readonly CountRow[], filter: StatusFilter): number {
  return counts
    .filter((c) => filter.status === undefined || c.status === filter.status)
    .reduce((sum, c) => sum + (filter.overdue === undefined ? c.n : filter.overdue ? c.overdue : c.n - c.overdue), 0);
}

/** The order of the report's member rows: overdue first, then not started ... passed, then by username. */
const ORDER = sql`s.overdue desc, array_position(array['not_started', 'in_progress', 'failed', 'passed', 'completed'], s.status), s.username, s.id`;

/**
 * The ids of a page of the target's members in the report's order (read with statusRowsOf), from
 * its counts (statusCounts): the order is by status, then username (overdue first is the same
 * order: every status but the last is overdue, or none is), so the page lies in one or two
 * statuses, whose members are read alone, a status at a time: those not started among the group's
 * members by username, the others among those the target's attempts or progress name.
 */
export async function statusPage(
  db: Queryable,
  group: ReportGroup,
  groupId: number,
  reach: Reach,
  target: TargetSpec,
  counts: readonly CountRow[],
  filter: StatusFilter,
  page: { offset: number; limit: number },
): Promise<number[]> {
  const ids: number[] = [];
  let skip = page.offset;
  for (const count of counts) {
    const n = matching([count], filter);
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const limit = Math.min(n - skip, page.limit - ids.length);
    const query =
      count.status === "not_started"
        ? sql<{ id: number }>`select m.id from member m where ${inGroup(group, groupId, reach)} and ${openTo(target)} and ${notStarted(target)}
           order by m.username, m.id limit ${limit} offset ${skip}`
        : sql<{ id: number }>`select s.id from (${activeStatuses(group, groupId, reach, target)}) s where s.status = ${count.status}
           order by s.username, s.id limit ${limit} offset ${skip}`;
    ids.push(...(await query.execute(kyselyOf(db))).rows.map((r) => r.id));
    skip = 0;
    if (ids.length >= page.limit) break;
  }
  return ids;
}

/** The ids of the first `limit` matching members in the report's order (an export reads their rows batch after batch). */
export async function statusIds(db: Queryable, group: ReportGroup, groupId: number, reach: Reach, target: TargetSpec, now: number, filter: StatusFilter, limit: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select s.id from (${statuses(group, groupId, reach, target, now)}) s
     where ${filtered(filter)} order by ${ORDER} limit ${limit}`.execute(kyselyOf(db));
  return rows.map((r) => r.id);
}

/** The rows of these members (found by statusIds), in that order; one who left the group since is left out. */
export async function statusRowsOf(db: Queryable, group: ReportGroup, groupId: number, reach: Reach, target: TargetSpec, now: number, ids: readonly number[]): Promise<StatusRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<StatusRow>`select s.* from (${statuses(group, groupId, reach, target, now, ids)}) s`.execute(kyselyOf(db));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// ---------------------------------------------------------------- due this week

export interface DueRoomRow {
  id: number;
  title: string;
  end_time: string;
  not_passed: number;
  classroom_id: number | null;
  company_id: number | null;
  duty_id: number | null;
}

/**
 * Enabled rooms whose window closes in [now, until), soonest first, with how many members they are
 * assigned to (open to all: every member; a member group narrows them) have not passed; a company
 * admin sees their companies' rooms and members only. With one group each room is assigned to
 * (for the link to the progress report).
 */
export async function dueRooms(db: Queryable, now: number, until: number, reach: Reach, limit: number): Promise<DueRoomRow[]> {
  const { rows } = await sql<DueRoomRow>`select r.id, r.title, r.end_time,
       (select count(*) from member m where ${inReach(sql`m.company_id`, reach)}
          and (r.user_group_id is null or m.group_id = r.user_group_id)
          and (not exists (select 1 from org_access oa where oa.room_id = r.id)
            or m.company_id in (select company_subtree(oa.company_id) from org_access oa where oa.room_id = r.id and oa.company_id is not null)
            or m.duty_id in (select oa.duty_id from org_access oa where oa.room_id = r.id and oa.duty_id is not null)
            or m.id in (select cm.user_id from org_access oa join classroom cr on cr.id = oa.classroom_id and cr.status = 'enable'
                          join classroom_member cm on cm.classroom_id = cr.id where oa.room_id = r.id))
          and not exists (select 1 from exam_attempt a where a.room_id = r.id and a.user_id = m.id and a.kind = 'official' and a.passed is true))::int as not_passed,
       g.classroom_id, g.company_id, g.duty_id
     from exam_room r
     left join lateral (select oa.classroom_id, oa.company_id, oa.duty_id from org_access oa where oa.room_id = r.id order by oa.id limit 1) g on true
     where r.status = 'enable' and r.end_time >= ${now} and r.end_time < ${until} and ${inReach(sql`r.company_id`, reach)}
     order by r.end_time, r.id limit ${limit}`.execute(kyselyOf(db));
  return rows;
}

/** The classrooms (of the admin's reach), companies (of it) or duties to pick from, by name. */
export async function groupOptions(db: Queryable, kind: ReportGroup, reach: Reach): Promise<{ id: number; name: string }[]> {
  const table = sql.table(kind);
  const scoped = kind === "duty" ? sql`true` : inReach(kind === "company" ? sql`id` : sql`company_id`, reach);
  const { rows } = await sql<{ id: number; name: string }>`select id, name from ${table} where ${scoped} order by name, id limit 1000`.execute(kyselyOf(db));
  return rows;
}
