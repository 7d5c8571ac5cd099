import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { visibleTo } from "../org/visibility.ts";

/** The push module's rows (index.ts, service.ts and reminders.ts call these; no SQL lives beside them). */

/* ---- VAPID keys ---- */

export async function storedVapidKeys(q: Queryable): Promise<{ public_key: string; private_key: string } | undefined> {
  return kyselyOf(q).selectFrom("push_vapid").select(["public_key", "private_key"]).where("id", "=", 1).executeTakeFirst();
}

/** Stores the key pair unless one is there already (the first process to write it wins). */
export async function insertVapidKeys(q: Queryable, publicKey: string, privateKey: string, at: number): Promise<void> {
  await kyselyOf(q)
    .insertInto("push_vapid")
    .values({ id: 1, public_key: publicKey, private_key: privateKey, create_time: at })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

/* ---- subscriptions and preferences ---- */

export interface SubscriptionRow {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export async function memberSubscriptions(q: Queryable, userId: number): Promise<SubscriptionRow[]> {
  return kyselyOf(q).selectFrom("push_subscription").select(["id", "endpoint", "p256dh", "auth"]).where("user_id", "=", userId).orderBy("id").execute();
}

export async function deleteSubscription(q: Queryable, id: number): Promise<void> {
  await kyselyOf(q).deleteFrom("push_subscription").where("id", "=", id).execute();
}

/** The devices the member subscribed (in no particular order). */
export async function subscribedDevices(q: Queryable, userId: number): Promise<string[]> {
  const { rows } = await q.query<{ device: string }>("select device from push_subscription where user_id = $1", [userId]);
  return rows.map((r) => r.device);
}

export async function reminderPreference(q: Queryable, userId: number): Promise<{ hour: number; time_zone: string } | undefined> {
  return kyselyOf(q).selectFrom("push_preference").select(["hour", "time_zone"]).where("user_id", "=", userId).executeTakeFirst();
}

export async function hasSubscription(q: Queryable, userId: number): Promise<boolean> {
  return (await q.query("select 1 from push_subscription where user_id = $1 limit 1", [userId])).rows.length > 0;
}

/** Locks the member row: one member's subscribes run one at a time. */
export async function lockMember(q: Queryable, userId: number): Promise<void> {
  await q.query("select 1 from member where id = $1 for update", [userId]);
}

export interface Subscription {
  device: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Saves the device's subscription (replacing the device's earlier one); the endpoint is taken
 * from whoever held it before (an endpoint is one browser's: whoever subscribes with it last holds it).
 */
export async function saveSubscription(q: Queryable, userId: number, s: Subscription, at: number): Promise<void> {
  await q.query("delete from push_subscription where endpoint = $1 and not (user_id = $2 and device = $3)", [s.endpoint, userId, s.device]);
  await q.query(
    `insert into push_subscription (user_id, device, endpoint, p256dh, auth, create_time, update_time) values ($1, $2, $3, $4, $5, $6, $6)
     on conflict (user_id, device) do update set endpoint = excluded.endpoint, p256dh = excluded.p256dh, auth = excluded.auth, update_time = excluded.update_time`,
    [userId, s.device, s.endpoint, s.p256dh, s.auth, at],
  );
}

/** Keeps the member's `max` latest subscriptions (`device`'s first); answers how many it removed. */
export async function trimSubscriptions(q: Queryable, userId: number, device: string, max: number): Promise<number> {
  const { rowCount } = await q.query(
    `delete from push_subscription where user_id = $1 and id not in (
       select id from push_subscription where user_id = $1 order by (device = $2) desc, update_time desc, id desc limit $3)`,
    [userId, device, max],
  );
  return rowCount ?? 0;
}

export async function saveReminderPreference(q: Queryable, userId: number, hour: number, timeZone: string | null, lang: string, at: number): Promise<void> {
  await q.query(
    `insert into push_preference (user_id, hour, time_zone, lang, update_time) values ($1, $2, $3, $4, $5)
     on conflict (user_id) do update set hour = excluded.hour, time_zone = excluded.time_zone, lang = excluded.lang, update_time = excluded.update_time`,
    [userId, hour, timeZone, lang, at],
  );
}

/** Removes the member's subscription of this device; answers how many rows went. */
export async function deleteDeviceSubscription(q: Queryable, userId: number, device: string): Promise<number> {
  const { rowCount } = await q.query("delete from push_subscription where user_id = $1 and device = $2", [userId, device]);
  return rowCount ?? 0;
}

/* ---- reminders ---- */

/** Claims a reminder by writing its `push_sent` row: true for the one caller whose insert lands. */
export async function claimReminder(q: Queryable, userId: number, kind: "daily" | "room", ref: string, at: number): Promise<boolean> {
  return (await q.query("insert into push_sent (user_id, kind, ref, sent_at) values ($1, $2, $3, $4) on conflict do nothing returning user_id", [userId, kind, ref, at])).rows
    .length > 0;
}

/** Enabled members with a subscription, and when (and in which language) they want reminders. */
export async function dailyReminderMembers(q: Queryable): Promise<{ user_id: number; hour: number; time_zone: string; lang: string }[]> {
  const { rows } = await q.query<{ user_id: number; hour: number; time_zone: string; lang: string }>(
    `select p.user_id, p.hour, p.time_zone, p.lang from push_preference p join member m on m.id = p.user_id and m.status = 'enable'
     where exists (select 1 from push_subscription s where s.user_id = p.user_id) order by p.user_id`,
  );
  return rows;
}

export async function dailyReminderSent(q: Queryable, userId: number, day: string): Promise<boolean> {
  return (await q.query("select 1 from push_sent where user_id = $1 and kind = 'daily' and ref = $2", [userId, day])).rows.length > 0;
}

export interface RoomReminderRow {
  room_id: number;
  title: string;
  start_time: string | number;
  user_id: number;
  lang: string;
}

/**
 * Enabled rooms opening in (from, to] (Unix seconds), with each enabled member who may sit one
 * (their group or every group, open to their organisation), has a subscription and was not
 * reminded of it yet.
 */
export async function roomReminders(q: Queryable, from: number, to: number): Promise<RoomReminderRow[]> {
  const { rows } = await sql<RoomReminderRow>`select r.id as room_id, r.title, r.start_time, m.id as user_id, p.lang
     from exam_room r
     join member m on m.status = 'enable' and (r.user_group_id is null or r.user_group_id = m.group_id)
     join push_preference p on p.user_id = m.id
     where r.status = 'enable' and r.start_time > ${from} and r.start_time <= ${to}
       and exists (select 1 from push_subscription s where s.user_id = m.id)
       and not exists (select 1 from push_sent x where x.user_id = m.id and x.kind = 'room' and x.ref = r.id::text)
       and ${visibleTo("room", sql.ref("r.id"), sql.ref("m.id"))}
     order by r.start_time, r.id, m.id`.execute(kyselyOf(q));
  return rows;
}
