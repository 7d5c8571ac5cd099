import type { FastifyInstance } from "fastify";
import { msg, plural } from "@lingui/core/macro";
import { CLOSING_NOTICE_SECONDS, noticeUrl, type NoticeData, type NoticeKind } from "../../../shared/notice.ts";
import { now as clockNow, everyMinute } from "../../clock.ts";
import { translator, type Translate } from "../../i18n/index.ts";
import { getSettings } from "../../settings.ts";
import { pushDeps } from "../push/index.ts";
import { sendToMember } from "../push/service.ts";
import { insertResults, insertRoomClosing, insertRoomOpen, recipients, setChannels, type NewNotice, type Recipient } from "./repository.ts";

/**
 * The notices' job, run once a minute by every server process (startNotices), like the push
 * reminders: each kind is one set-based insert of at most BATCH notices (repository.ts), whose
 * unique key is the claim, then the new rows are sent by the process that made them: web push
 * when the member has a subscription and push on, email when a mail server is configured and the
 * member has an address and email on. The in-app notice is the row itself.
 *
 * Limits: a tick makes at most BATCH notices of each kind (the rest wait for the next minute, so
 * 10 000 members of a room opening get theirs within 20 minutes). The room kinds pair every room
 * open now with every enabled member of its group and keep the pairs without a notice (one
 * anti-join on the unique key), then check organisation, attempts and switches on those only.
 * Measured on the embedded database (PGlite, in memory, on a loaded 2-core machine), 20 000
 * members and 3 rooms open to all: a tick that makes 500 notices took 0.4-1.5 s, a tick with
 * nothing left to make 0.6 s (it grows with members x open rooms; PostgreSQL runs it beside the
 * requests, PGlite holds them for that long). Results are found through partial indexes on when
 * they were published, within the last RESULT_WINDOW (a late answer's decision later than that
 * after the submission is not announced).
 * Sending is one push / email at a time: a slow push service slows that tick, never doubles it.
 */

export const BATCH = 500;
/** Results published longer ago than this are not announced (a server down for a while catches up within it). */
const RESULT_WINDOW_SECONDS = 3 * 86_400;

/** The push title / email subject and body of a notice, in the language of `t`. */
export function renderNotice(t: Translate, kind: NoticeKind, data: NoticeData, nowSeconds: number): { subject: string; body: string } {
  const title = data.title ?? "";
  if (kind === "room_open") return { subject: t(msg`Exam room open`), body: t(msg`Exam room “${title}” is open: you can sit it now.`) };
  if (kind === "room_closing") {
    const left = Math.max(60, (data.endTime ?? nowSeconds) - nowSeconds);
    const hours = Math.round(left / 3600);
    const minutes = Math.round(left / 60);
    const body =
      left >= 2 * 3600
        ? t(msg`Exam room “${title}” closes in ${plural(hours, { one: "# hour", other: "# hours" })} and you have not sat it yet.`)
        : t(msg`Exam room “${title}” closes in ${plural(minutes, { one: "# minute", other: "# minutes" })} and you have not sat it yet.`);
    return { subject: t(msg`Exam room closing soon`), body };
  }
  const score = Number(data.score ?? 0);
  const outcome = data.passed ? t(msg`passed`) : t(msg`not passed`);
  return data.regraded
    ? { subject: t(msg`Exam result updated`), body: t(msg`Your result in “${title}” was updated: ${score} points, ${outcome}.`) }
    : { subject: t(msg`Exam result published`), body: t(msg`Your result in “${title}”: ${score} points, ${outcome}.`) };
}

/** Whether email leaves the server: an SMTP server in the environment or in the site settings. */
async function mailConfigured(app: FastifyInstance): Promise<boolean> {
  if (app.config.smtp) return true;
  const { mail_host } = await getSettings(app.db, ["mail_host"]);
  return Boolean(mail_host);
}

export interface NoticeRun {
  made: { id: number; userId: number; kind: NoticeKind; channels: string[] }[];
}

async function deliver(app: FastifyInstance, notices: NewNotice[], nowSeconds: number, site: string, mail: boolean): Promise<NoticeRun["made"]> {
  const byMember = new Map<number, Recipient>((await recipients(app.db, [...new Set(notices.map((n) => n.user_id))])).map((r) => [r.user_id, r]));
  const deps = pushDeps(app);
  const made: NoticeRun["made"] = [];
  for (const n of notices) {
    const who = byMember.get(n.user_id);
    const channels: string[] = [];
    if (who) {
      const t = translator(who.lang ?? undefined);
      const text = renderNotice(t, n.kind, n.data as NoticeData, nowSeconds);
      if (who.push && who.subscribed) {
        const outcome = await sendToMember(deps, n.user_id, { title: site, body: text.body, url: noticeUrl({ kind: n.kind, data: n.data as NoticeData }), tag: `notice-${n.id}` });
        if (outcome.sent > 0) channels.push("push");
      }
      if (mail && who.email_on && who.email) {
        try {
          await app.sender.send({ channel: "email", target: who.email, subject: `${site}: ${text.subject}`, body: text.body });
          channels.push("email");
        } catch (error) {
          // The notice's id only: never the address nor the server's answer (it may echo credentials).
          app.log.warn({ notice: n.id, err: { message: (error as Error).name } }, "notice email not sent");
        }
      }
      if (channels.length > 0) await setChannels(app.db, n.id, ["app", ...channels].join(","));
    }
    made.push({ id: n.id, userId: n.user_id, kind: n.kind, channels });
  }
  return made;
}

/** One tick at `now` (ms; tests give a fixed clock): makes the notices due and sends them. */
export async function runNotices(app: FastifyInstance, now = clockNow()): Promise<NoticeRun> {
  const nowSeconds = Math.floor(now / 1000);
  const { db } = app;
  const notices = [
    ...(await insertRoomOpen(db, nowSeconds, BATCH)),
    ...(await insertRoomClosing(db, nowSeconds, CLOSING_NOTICE_SECONDS, BATCH)),
    ...(await insertResults(db, nowSeconds, nowSeconds - RESULT_WINDOW_SECONDS, BATCH)),
  ];
  if (notices.length === 0) return { made: [] };
  const { site_name } = await getSettings(db, ["site_name"]);
  return { made: await deliver(app, notices, nowSeconds, site_name || app.config.siteName, await mailConfigured(app)) };
}

/** Runs the job once a minute in this process (not in tests: they call `runNotices` with a fixed clock). */
export function startNotices(app: FastifyInstance, everyMs = 60_000): void {
  everyMinute(app, "notices", everyMs, 7_000, async () => {
    const run = await runNotices(app);
    if (run.made.length > 0) app.log.info({ notices: run.made.length }, "notices made");
  });
}
