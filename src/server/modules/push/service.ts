import type { FastifyBaseLogger } from "fastify";
import type webpushModule from "web-push";
import type { PushMessage } from "../../../shared/push.ts";
import type { Queryable } from "../../db/index.ts";
import { deleteSubscription, insertVapidKeys, memberSubscriptions, storedVapidKeys } from "./repository.ts";
import type { PushTransport } from "./transport.ts";
import { lazyRequire } from "../../lazy.ts";

const webpush = lazyRequire<typeof webpushModule>("web-push");

/**
 * VAPID keys and sending. The key pair is made on the first start and kept in
 * `push_vapid` (one row; two processes starting together keep the first one written). The
 * private key is never logged nor sent anywhere: it signs the VAPID header of each push.
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const cached = new WeakMap<object, VapidKeys>();

export async function vapidKeys(db: Queryable): Promise<VapidKeys> {
  const hit = cached.get(db);
  if (hit) return hit;
  let row = await storedVapidKeys(db);
  if (!row) {
    const keys = webpush().generateVAPIDKeys();
    await insertVapidKeys(db, keys.publicKey, keys.privateKey, Math.floor(Date.now() / 1000));
    row = (await storedVapidKeys(db))!;
  }
  const keys = { publicKey: row.public_key, privateKey: row.private_key };
  cached.set(db, keys);
  return keys;
}

export interface PushDeps {
  db: Queryable;
  transport: PushTransport;
  log: FastifyBaseLogger;
  /** The VAPID subject: a `mailto:` or https URL where the push service can reach the site's operator. */
  subject: string;
}

export interface SendOutcome {
  sent: number;
  removed: number;
  failed: number;
}

/**
 * Sends `message` to every subscription of the member. A push service answering 404 or 410 says
 * the subscription is gone (the member unsubscribed in the browser, or revoked the permission):
 * it is removed. Other failures are logged with the subscription's id, never its endpoint.
 */
export async function sendToMember(deps: PushDeps, userId: number, message: PushMessage): Promise<SendOutcome> {
  const rows = await memberSubscriptions(deps.db, userId);
  const outcome: SendOutcome = { sent: 0, removed: 0, failed: 0 };
  if (rows.length === 0) return outcome;
  const keys = await vapidKeys(deps.db);
  const payload = JSON.stringify(message);
  for (const row of rows) {
    let status: number;
    try {
      const details = webpush().generateRequestDetails({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, payload, {
        vapidDetails: { subject: deps.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: 12 * 60 * 60,
        urgency: "normal",
        topic: message.tag.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32) || undefined,
      });
      ({ status } = await deps.transport.send({
        endpoint: details.endpoint,
        method: details.method,
        headers: Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)])),
        body: (details.body as Buffer | null) ?? null,
      }));
    } catch (error) {
      deps.log.warn({ subscription: row.id, err: { message: (error as Error).message } }, "push not sent");
      outcome.failed += 1;
      continue;
    }
    if (status >= 200 && status < 300) {
      outcome.sent += 1;
    } else if (status === 404 || status === 410) {
      await deleteSubscription(deps.db, row.id);
      outcome.removed += 1;
    } else {
      deps.log.warn({ subscription: row.id, status }, "push refused by the push service");
      outcome.failed += 1;
    }
  }
  return outcome;
}
