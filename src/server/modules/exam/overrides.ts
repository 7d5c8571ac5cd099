import { sql, type Expression, type RawBuilder } from "kysely";

/**
 * Room overrides (Moodle's user and group overrides, migration 0043): extra minutes per
 * attempt and/or extra attempts in one room for a named member or a member group. A member
 * matched by a member override and a group override gets the more generous of each figure.
 *
 * Extra time and the room's end: a new attempt may start only before the room's `end_time`, and
 * its deadline is `min(start + duration + extra, end_time + extra)`: extra time lengthens the
 * attempt and moves the room's end for that member by the same amount, so a member given extra
 * time always has it, however late they start. The room counts as closed (its questions withheld
 * from practice, a 'closed' review policy waiting) until `end_time` plus the largest extra time
 * of its overrides (`exam_room_closes_at`).
 */

export interface MemberExtras {
  extraMinutes: number;
  extraAttempts: number;
}

/**
 * SQL of a member's extras in a room, the most generous of their member and group overrides:
 * columns `extra_minutes`, `extra_attempts` (0 when none). `room` is the room's id column
 * (`sql.ref("r.id")`); the member and their group (none: null) are values.
 */
export const memberExtras = (room: Expression<number>, memberId: number, groupId: number | null): RawBuilder<unknown> => {
  const applies = sql`o.room_id = ${room} and (o.user_id = ${memberId} or o.user_group_id = ${groupId}::int)`;
  return sql`(select coalesce(max(o.extra_minutes), 0)::int from exam_room_override o where ${applies}) as extra_minutes,
   (select coalesce(max(o.extra_attempts), 0)::int from exam_room_override o where ${applies}) as extra_attempts`;
};

/** An attempt's deadline (seconds): the room's time plus the member's extra time, never past the room's end plus that extra time. */
export const attemptDeadline = (startedAt: number, room: { duration: number; end_time: number | string }, extras: MemberExtras): number => {
  const extra = extras.extraMinutes * 60;
  return Math.min(startedAt + Number(room.duration) + extra, Number(room.end_time) + extra);
};
