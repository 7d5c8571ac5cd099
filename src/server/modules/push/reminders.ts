import type { FastifyInstance } from "fastify";
import { msg, plural } from "@lingui/core/macro";
import { now as clockNow, everyMinute } from "../../clock.ts";
import { translator } from "../../i18n/index.ts";
import { getSettings } from "../../settings.ts";
import { dueList } from "../exam/review.ts";
import { pushDeps } from "./index.ts";
import { claimReminder, dailyReminderMembers, dailyReminderSent, roomReminders } from "./repository.ts";
import { sendToMember, type SendOutcome } from "./service.ts";

/**
 * The reminders' job, run once a minute by every server process:
 * - "N reviews due today" once a day per member, during the member's chosen hour in their time
 *   zone, when something is due;
 * - "exam room X opens in N minutes" once per member and room, within the hour before a room the
 *   member may sit opens (enabled room, the member's group or every group, open to their
 *   organisation).
 * Each reminder is claimed by inserting its `push_sent` row: with several processes only the one
 * whose insert lands sends, so a member gets each reminder once.
 */

const HOUR_MS = 3_600_000;

/** The local day (YYYY-MM-DD) and hour (0-23) of `ms` in `timeZone`. */
export function localTime(ms: number, timeZone: string): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", hourCycle: "h23" }).formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { day: `${part("year")}-${part("month")}-${part("day")}`, hour: Number(part("hour")) };
}

export interface ReminderRun {
  daily: { userId: number; due: number; outcome: SendOutcome }[];
  rooms: { userId: number; roomId: number; outcome: SendOutcome }[];
}

export async function runReminders(app: FastifyInstance, now = clockNow()): Promise<ReminderRun> {
  const { db } = app;
  const deps = pushDeps(app);
  const { site_name } = await getSettings(db, ["site_name"]);
  const site = site_name || app.config.siteName;
  const run: ReminderRun = { daily: [], rooms: [] };

  const claim = (userId: number, kind: "daily" | "room", ref: string) => claimReminder(db, userId, kind, ref, now);

  // Daily: members with a subscription, at their hour.
  const members = await dailyReminderMembers(db);
  for (const m of members) {
    let local: { day: string; hour: number };
    try {
      local = localTime(now, m.time_zone);
    } catch {
      continue;
    }
    if (local.hour !== m.hour) continue;
    if (await dailyReminderSent(db, m.user_id, local.day)) continue;
    const due = (await dueList(db, m.user_id, now)).due.length;
    if (due === 0 || !(await claim(m.user_id, "daily", local.day))) continue;
    const t = translator(m.lang);
    const outcome = await sendToMember(deps, m.user_id, {
      title: site,
      body: t(msg`${plural(due, { one: "# review is due today", other: "# reviews are due today" })}: a few minutes keep them in your memory.`),
      url: "/exam/examTab/review",
      tag: "daily-review",
      badge: due,
    });
    run.daily.push({ userId: m.user_id, due, outcome });
  }

  // Rooms opening within the hour, for members who may sit them and have a subscription.
  const nowSeconds = Math.floor(now / 1000);
  const rooms = await roomReminders(db, nowSeconds, nowSeconds + HOUR_MS / 1000);
  for (const r of rooms) {
    if (!(await claim(r.user_id, "room", String(r.room_id)))) continue;
    const t = translator(r.lang);
    const minutes = Math.max(1, Math.round((Number(r.start_time) - nowSeconds) / 60));
    const title = r.title;
    const outcome = await sendToMember(deps, r.user_id, {
      title: site,
      body: t(msg`Exam room “${title}” opens in ${plural(minutes, { one: "# minute", other: "# minutes" })}.`),
      url: "/exam/examTab/officialTest",
      tag: `room-${r.room_id}`,
    });
    run.rooms.push({ userId: r.user_id, roomId: r.room_id, outcome });
  }
  return run;
}

/** Runs the job once a minute in this process (not in tests: they call `runReminders` with a fixed clock). */
export function startReminders(app: FastifyInstance, everyMs = 60_000): void {
  everyMinute(app, "push reminders", everyMs, 5_000, async () => {
    const run = await runReminders(app);
    const sent = run.daily.length + run.rooms.length;
    if (sent > 0) app.log.info({ daily: run.daily.length, rooms: run.rooms.length }, "push reminders sent");
  });
}
