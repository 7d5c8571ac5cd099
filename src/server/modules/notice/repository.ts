import { sql } from "kysely";
import type { NoticeKind, NoticePreference } from "../../../shared/notice.ts";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { visibleTo } from "../org/visibility.ts";

/**
 * The notice module's rows. The tick's three inserts are set-based (`insert ... select`): each
 * makes at most `batch` notices of its kind, skipping pairs that already have one (the anti-join
 * on the unique key) and the members who turned the kind off; `on conflict do nothing` makes the
 * unique key the claim, so two processes running the same tick make each notice once, and only
 * the process whose row landed gets it back (and sends it).
 */

export interface NewNotice {
  id: number;
  user_id: number;
  kind: NoticeKind;
  data: Record<string, unknown>;
}

/** SQL true when the member `m` has not turned `kind` off. */
const kindOn = (kind: NoticeKind) => sql`not exists (select 1 from notice_preference np where np.user_id = m.id and not np.${sql.ref(kind)})`;

const notYet = (kind: NoticeKind, ref: ReturnType<typeof sql>) => sql`not exists (select 1 from notice n where n.user_id = m.id and n.kind = ${kind} and n.ref = ${ref})`;

/**
 * A room kind's insert: the pairs of an enabled room matching `roomWhere` and an enabled member of
 * its group (or every group) that have no such notice yet are found first (materialized: in the
 * steady state, when every pair has its notice, the tick is this one anti-join), then the costlier
 * checks run on what is left: the room open to the member's organisation, the attempt rule
 * (`attemptWhere` over `a`), the member's switch.
 */
async function insertRoomKind(q: Queryable, kind: "room_open" | "room_closing", roomWhere: ReturnType<typeof sql>, attemptWhere: ReturnType<typeof sql>, now: number, batch: number): Promise<NewNotice[]> {
  const { rows } = await sql<NewNotice>`with pending as materialized (
      select r.id as room_id, r.title, r.start_time, r.end_time, m.id as user_id
      from exam_room r join member m on m.status = 'enable' and (r.user_group_id is null or r.user_group_id = m.group_id)
      where r.status = 'enable' and ${roomWhere} and ${notYet(kind, sql`r.id::text`)}
    )
    insert into notice (user_id, kind, ref, data, create_time)
    select p.user_id, ${kind}, p.room_id::text,
      jsonb_build_object('roomId', p.room_id, 'title', p.title, 'startTime', p.start_time, 'endTime', p.end_time), ${now}
    from pending p join member m on m.id = p.user_id
    where ${visibleTo("room", sql.ref("p.room_id"), sql.ref("m.id"))}
      and not exists (select 1 from exam_attempt a where a.room_id = p.room_id and a.user_id = m.id and ${attemptWhere})
      and ${kindOn(kind)}
    limit ${batch}
    on conflict do nothing
    returning id, user_id, kind, data`.execute(kyselyOf(q));
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * Rooms open now (start reached, end not) for members who may sit them and have no attempt in
 * them yet; a member assigned after the room opened is found by the next tick.
 */
export function insertRoomOpen(q: Queryable, now: number, batch: number): Promise<NewNotice[]> {
  return insertRoomKind(q, "room_open", sql`r.start_time <= ${now} and r.end_time > ${now}`, sql`true`, now, batch);
}

/**
 * Rooms open now that close within `within` seconds (or within the second half of a shorter room,
 * so its opening and closing notices never come together), for members who may sit them and have
 * not submitted an attempt.
 */
export function insertRoomClosing(q: Queryable, now: number, within: number, batch: number): Promise<NewNotice[]> {
  const closing = sql`r.start_time <= ${now} and r.end_time > ${now} and r.end_time - ${now} <= least(${within}, (r.end_time - r.start_time) / 2)`;
  return insertRoomKind(q, "room_closing", closing, sql`a.status <> 'open'`, now, batch);
}

/**
 * Official results published since `since`: a closed attempt with its score and nothing left to
 * mark, found by what publishes it (submitted, its last mark given, regraded) through the partial
 * indexes of 0054. A regrade is a new result (ref `id@regraded_at`).
 */
export async function insertResults(q: Queryable, now: number, since: number, batch: number): Promise<NewNotice[]> {
  const ref = sql`case when a.regraded_at is null then a.id::text else a.id::text || '@' || a.regraded_at::text end`;
  const { rows } = await sql<NewNotice>`insert into notice (user_id, kind, ref, data, create_time)
    select m.id, 'result', ${ref},
      jsonb_build_object('attemptId', a.id, 'roomId', a.room_id, 'title', r.title, 'score', a.score, 'passed', a.passed, 'regraded', a.regraded_at is not null), ${now}
    from (select id from exam_attempt where kind = 'official' and submitted_at >= ${since}
          union select id from exam_attempt where regraded_at >= ${since}
          union select attempt_id from exam_mark where marked_at >= ${since}) c
    join exam_attempt a on a.id = c.id
    join member m on m.id = a.user_id and m.status = 'enable'
    left join exam_room r on r.id = a.room_id
    where a.kind = 'official' and a.status <> 'open' and not a.needs_review and a.score is not null
      and ${notYet("result", ref)} and ${kindOn("result")}
    limit ${batch}
    on conflict do nothing
    returning id, user_id, kind, data`.execute(kyselyOf(q));
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Where each member's notice may go: their email, language, push and email switches, whether they have a push subscription. */
export interface Recipient {
  user_id: number;
  email: string | null;
  lang: string | null;
  push: boolean;
  email_on: boolean;
  subscribed: boolean;
}

export async function recipients(q: Queryable, userIds: number[]): Promise<Recipient[]> {
  if (userIds.length === 0) return [];
  const { rows } = await sql<Recipient>`select m.id as user_id, m.email, pp.lang,
      coalesce(np.push, true) as push, coalesce(np.email, true) as email_on,
      exists (select 1 from push_subscription s where s.user_id = m.id) as subscribed
    from member m
    left join push_preference pp on pp.user_id = m.id
    left join notice_preference np on np.user_id = m.id
    where m.id in (${sql.join(userIds)})`.execute(kyselyOf(q));
  return rows;
}

export async function setChannels(q: Queryable, id: number, channels: string): Promise<void> {
  await kyselyOf(q).updateTable("notice").set({ channels }).where("id", "=", id).execute();
}

/* ---- the member's side ---- */

export interface NoticeRow {
  id: number | string;
  kind: NoticeKind;
  data: Record<string, unknown>;
  create_time: number | string;
  read_at: number | string | null;
}

export async function memberNotices(q: Queryable, userId: number, limit: number): Promise<NoticeRow[]> {
  return kyselyOf(q)
    .selectFrom("notice")
    .select(["id", "kind", "data", "create_time", "read_at"])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(limit)
    .$castTo<NoticeRow>()
    .execute();
}

export async function unreadCount(q: Queryable, userId: number): Promise<number> {
  const row = await kyselyOf(q)
    .selectFrom("notice")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Marks one of the member's notices read (or all of them when `id` is null); answers how many changed. */
export async function markRead(q: Queryable, userId: number, id: number | null, at: number): Promise<number> {
  let update = kyselyOf(q).updateTable("notice").set({ read_at: at }).where("user_id", "=", userId).where("read_at", "is", null);
  if (id !== null) update = update.where("id", "=", id);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function noticePreference(q: Queryable, userId: number): Promise<NoticePreference | undefined> {
  return kyselyOf(q).selectFrom("notice_preference").select(["room_open", "room_closing", "result", "push", "email"]).where("user_id", "=", userId).executeTakeFirst();
}

export async function saveNoticePreference(q: Queryable, userId: number, p: NoticePreference, at: number): Promise<void> {
  await kyselyOf(q)
    .insertInto("notice_preference")
    .values({ user_id: userId, ...p, update_time: at })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...p, update_time: at }))
    .execute();
}
