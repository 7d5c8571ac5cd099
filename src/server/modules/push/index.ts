import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { DEFAULT_REMINDER_HOUR, MAX_PUSH_DEVICES, pushDevice, subscribeBody, unsubscribeBody, type PushConfig, type PushTestResult } from "../../../shared/push.ts";
import { jsonBody } from "../../../shared/schema.ts";
import { ApiError } from "../../errors.ts";
import { getSettings } from "../../settings.ts";
import { endpointProblem } from "./endpoint.ts";
import {
  deleteDeviceSubscription,
  hasSubscription,
  lockMember,
  reminderPreference,
  saveReminderPreference,
  saveSubscription,
  subscribedDevices,
  trimSubscriptions,
} from "./repository.ts";
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
  // Made on the first start, before the first request needs them (once the database is usable: app.ts).
  app.whenOpen(async () => {
    await vapidKeys(db);
  });

  api.get("/api/push/config", { config: { auth: "member" }, schema: { querystring: z.object({ device: pushDevice }) } }, async (req, reply) => {
    const userId = req.member!.id;
    const { publicKey } = await vapidKeys(db);
    const devices = await subscribedDevices(db, userId);
    const pref = await reminderPreference(db, userId);
    const config: PushConfig = {
      publicKey,
      subscribed: devices.some((d) => d === req.query.device),
      devices: devices.length,
      hour: pref?.hour ?? DEFAULT_REMINDER_HOUR,
      timeZone: pref?.time_zone ?? null,
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
        await lockMember(tx, userId);
        await saveSubscription(tx, userId, { device, endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth }, at);
        const removed = await trimSubscriptions(tx, userId, device, MAX_PUSH_DEVICES);
        await saveReminderPreference(tx, userId, hour, timeZone, req.lang, at);
        return removed;
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
    const removed = await deleteDeviceSubscription(db, req.member!.id, req.body.device);
    return reply.success({ removed }, msg`Reminders are off for this device`);
  });

  api.post("/api/push/test", { config: { auth: "member", rateLimit: { max: 5, timeWindow: "1 minute", keyGenerator: perMember } } }, async (req, reply) => {
    const userId = req.member!.id;
    if (!(await hasSubscription(db, userId))) throw new ApiError(msg`Turn reminders on first`);
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
