import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { DEFAULT_REMINDER_HOUR, MAX_PUSH_DEVICES, pushDevice, subscribeBody, unsubscribeBody, type PushConfig, type PushTestResult } from "../../../shared/push.ts";
import { jsonBody } from "../../../shared/schema.ts";
import { ApiError } from "../../errors.ts";
import { getSettings } from "../../settings.ts";
import { endpointProblem } from "./endpoint.ts";
import { sendToMember, vapidKeys, type PushDeps } from "./service.ts";
import type { PushTransport } from "./transport.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** How pushes reach the push services (tests fake their HTTP answer). */
    pushTransport: PushTransport;
  }
}

/** The VAPID subject: the site's contact when it is a mailto: or https URL, else a placeholder the push services accept. */
function vapidSubject(contactUrl: string | undefined): string {
  return contactUrl && /^(mailto:|https:\/\/)/.test(contactUrl) ? contactUrl : "mailto:webmaster@example.com";
}

/**
 * Rate limits per member, not per address: a school's members share one address, and one member
 * must not get more by changing address. The member is known: the route's auth check runs first.
 */
const perMember = (req: FastifyRequest) => (req.member ? `member:${req.member.id}` : `ip:${req.ip}`);

export function pushDeps(app: FastifyInstance): PushDeps {
  return { db: app.db, transport: app.pushTransport, log: app.log, subject: vapidSubject(app.config.siteContactUrl) };
}

/**
 * Web Push for members: the server's public key, subscribe (per member and device,
 * idempotent: the same device again replaces its subscription and reminder hour), unsubscribe,
 * and a test notification. The reminders themselves: reminders.ts.
 */
export async function pushRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Made on the first start, before the first request needs them.
  await vapidKeys(db);

  api.get("/api/push/config", { config: { auth: "member" }, schema: { querystring: z.object({ device: pushDevice }) } }, async (req, reply) => {
    const userId = req.member!.id;
    const { publicKey } = await vapidKeys(db);
    const subs = await db.query<{ device: string }>("select device from push_subscription where user_id = $1", [userId]);
    const pref = await db.query<{ hour: number; time_zone: string }>("select hour, time_zone from push_preference where user_id = $1", [userId]);
    const config: PushConfig = {
      publicKey,
      subscribed: subs.rows.some((s) => s.device === req.query.device),
      devices: subs.rows.length,
      hour: pref.rows[0]?.hour ?? DEFAULT_REMINDER_HOUR,
      timeZone: pref.rows[0]?.time_zone ?? null,
    };
    return reply.success(config);
  });

  // Subscribing again from the same device replaces its subscription; a new device beyond
  // MAX_PUSH_DEVICES replaces the member's device that subscribed longest ago (see shared/push.ts).
  api.post(
    "/api/push/subscribe",
    { config: { auth: "member", rateLimit: { max: 30, timeWindow: "1 minute", keyGenerator: perMember } }, schema: { body: jsonBody(subscribeBody) } },
    async (req, reply) => {
      const userId = req.member!.id;
      const { device, subscription, hour, timeZone } = req.body;
      // Only public push services: checked here with a clear answer, and again on the connection itself when sending.
      const problem = await endpointProblem(subscription.endpoint, (host) => app.pushTransport.resolve(host));
      if (problem) throw new ApiError(problem);
      const at = Math.floor(Date.now() / 1000);
      const replaced = await db.transaction(async (tx) => {
        // One member's subscribes one at a time, so the cap holds under concurrent calls.
        await tx.query("select 1 from member where id = $1 for update", [userId]);
        // An endpoint is one browser's: whoever subscribes with it last holds it.
        await tx.query("delete from push_subscription where endpoint = $1 and not (user_id = $2 and device = $3)", [subscription.endpoint, userId, device]);
        await tx.query(
          `insert into push_subscription (user_id, device, endpoint, p256dh, auth, create_time, update_time) values ($1, $2, $3, $4, $5, $6, $6)
           on conflict (user_id, device) do update set endpoint = excluded.endpoint, p256dh = excluded.p256dh, auth = excluded.auth, update_time = excluded.update_time`,
          [userId, device, subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth, at],
        );
        const { rowCount } = await tx.query(
          `delete from push_subscription where user_id = $1 and id not in (
             select id from push_subscription where user_id = $1 order by (device = $2) desc, update_time desc, id desc limit $3)`,
          [userId, device, MAX_PUSH_DEVICES],
        );
        await tx.query(
          `insert into push_preference (user_id, hour, time_zone, lang, update_time) values ($1, $2, $3, $4, $5)
           on conflict (user_id) do update set hour = excluded.hour, time_zone = excluded.time_zone, lang = excluded.lang, update_time = excluded.update_time`,
          [userId, hour, timeZone, req.lang, at],
        );
        return rowCount ?? 0;
      });
      const max = MAX_PUSH_DEVICES;
      if (replaced > 0) {
        return reply.success(
          { subscribed: true, replaced },
          msg`Reminders are on for this device. At most ${max} devices receive them, so the device that subscribed longest ago no longer does`,
        );
      }
      return reply.success({ subscribed: true, replaced }, msg`Reminders are on for this device`);
    },
  );

  api.post("/api/push/unsubscribe", { config: { auth: "member" }, schema: { body: jsonBody(unsubscribeBody) } }, async (req, reply) => {
    const { rowCount } = await db.query("delete from push_subscription where user_id = $1 and device = $2", [req.member!.id, req.body.device]);
    return reply.success({ removed: rowCount ?? 0 }, msg`Reminders are off for this device`);
  });

  api.post("/api/push/test", { config: { auth: "member", rateLimit: { max: 5, timeWindow: "1 minute", keyGenerator: perMember } } }, async (req, reply) => {
    const userId = req.member!.id;
    const has = await db.query("select 1 from push_subscription where user_id = $1 limit 1", [userId]);
    if (has.rows.length === 0) throw new ApiError(msg`Turn reminders on first`);
    const { site_name } = await getSettings(db, ["site_name"]);
    const result: PushTestResult = await sendToMember(pushDeps(app), userId, {
      title: site_name || app.config.siteName,
      body: req.t(msg`This is a test notification: reminders reach this device.`),
      url: "/user",
      tag: "test",
    });
    if (result.sent === 0) throw new ApiError(msg`The test notification could not be delivered: turn reminders off and on again on this device`);
    return reply.success(result, msg`Test notification sent`);
  });
}
