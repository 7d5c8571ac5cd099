import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { excludedValues, kyselyOf, rowById } from "../../db/kysely.ts";
import { visibleTo } from "../org/visibility.ts";

/** The push module's rows (index.ts, service.ts and reminders.ts call these; no SQL lives beside them). */

/* ---- VAPID keys ---- */

export async function storedVapidKeys(q: Queryable): Promise<{ public_key: string; private_key: string } | undefined> {
  return rowById(q, "push_vapid", ["public_key", "private_key"], 1);
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
  const rows = await kyselyOf(q).selectFrom("push_subscription").select("device").where("user_id", "=", userId).execute();
  return rows.map((r) => r.device);
}

export async function reminderPreference(q: Queryable, userId: number): Promise<{ hour: number; time_zone: string } | undefined> {
  return kyselyOf(q).selectFrom("push_preference").select(["hour", "time_zone"]).where("user_id", "=", userId).executeTakeFirst();
}

export async function hasSubscription(q: Queryable, userId: number): Promise<boolean> {
  return (await kyselyOf(q).selectFrom("push_subscription").select("id").where("user_id", "=", userId).limit(1).executeTakeFirst()) !== undefined;
}

/** Locks the member row: one member's subscribes run one at a time. */
export async function lockMember(q: Queryable, userId: number): Promise<void> {
  await kyselyOf(q).selectFrom("member").select("id").where("id", "=", userId).forUpdate().execute();
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
  const k = kyselyOf(q);
  await k
    .deleteFrom("push_subscription")
    .where("endpoint", "=", s.endpoint)
    .where((eb) => eb.not(eb.and([eb("user_id", "=", userId), eb("device", "=", s.device)])))
    .execute();
  await k
    .insertInto("push_subscription")
    .values({ user_id: userId, device: s.device, endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, create_time: at, update_time: at })
    .onConflict((oc) =>
      oc.columns(["user_id", "device"]).doUpdateSet(excludedValues("endpoint", "p256dh", "auth", "update_time")),
    )
    .execute();
}

/** Keeps the member's `max` latest subscriptions (`device`'s first); answers how many it removed. */
export async function trimSubscriptions(q: Queryable, userId: number, device: string, max: number): Promise<number> {
  const k = kyselyOf(q);
  const kept = k
    .selectFrom("push_subscription")
    .select("id")
    .where("user_id", "=", userId)
    .orderBy(sql`device = ${device}`, "desc")
    .orderBy("update_time", "desc")
    .orderBy("id", "desc")
    .limit(max);
  const result = await k.deleteFrom("push_subscription").where("user_id", "=", userId).where("id", "not in", kept).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function saveReminderPreference(q: Queryable, userId: number, hour: number, timeZone: string, lang: string, at: number): Promise<void> {
  await kyselyOf(q)
    .insertInto("push_preference")
    .values({ user_id: userId, hour, time_zone: timeZone, lang, update_time: at })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet(excludedValues("hour", "time_zone", "lang", "update_time")),
    )
    .execute();
}

/** Removes the member's subscription of this device; answers how many rows went. */
export async function deleteDeviceSubscription(q: Queryable, userId: number, device: string): Promise<number> {
  const result = await kyselyOf(q).deleteFrom("push_subscription").where("user_id", "=", userId).where("device", "=", device).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/* ---- reminders ---- */

/** Claims a reminder by writing its `push_sent` row: true for the one caller whose insert lands. */
export async function claimReminder(q: Queryable, userId: number, kind: "daily" | "room", ref: string, at: number): Promise<boolean> {
  const claimed = await kyselyOf(q)
    .insertInto("push_sent")
    .values({ user_id: userId, kind, ref, sent_at: at })
    .onConflict((oc) => oc.doNothing())
    .returning("user_id")
    .execute();
  return claimed.length > 0;
}

/** Enabled members with a subscription, and when (and in which language) they want reminders. */
export async function dailyReminderMembers(q: Queryable): Promise<{ user_id: number; hour: number; time_zone: string; lang: string }[]> {
  return kyselyOf(q)
    .selectFrom("push_preference as p")
    .innerJoin("member as m", (join) => join.onRef("m.id", "=", "p.user_id").on("m.status", "=", "enable"))
    .select(["p.user_id", "p.hour", "p.time_zone", "p.lang"])
    .where(({ exists, selectFrom }) => exists(selectFrom("push_subscription as s").select("s.id").whereRef("s.user_id", "=", "p.user_id")))
    .orderBy("p.user_id")
    .$castTo<{ user_id: number; hour: number; time_zone: string; lang: string }>()
    .execute();
}

export async function dailyReminderSent(q: Queryable, userId: number, day: string): Promise<boolean> {
  const sent = await kyselyOf(q).selectFrom("push_sent").select("user_id").where("user_id", "=", userId).where("kind", "=", "daily").where("ref", "=", day).executeTakeFirst();
  return sent !== undefined;
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
