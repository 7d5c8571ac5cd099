import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { withMessage } from "./schema.ts";

/**
 * Web Push reminders: the member endpoints' bodies and the notification the service
 * worker shows. A subscription is the browser's PushSubscription (`endpoint`, `keys.p256dh`,
 * `keys.auth`), kept per member and device; the daily reminder's hour is in the member's time zone.
 */

const base64url = /^[A-Za-z0-9_-]+=*$/;

/** The app's id of this browser (localStorage), so one device holds one subscription per member. */
export const pushDevice = withMessage(z.string().regex(/^[A-Za-z0-9_-]{8,64}$/), msg`Unknown device`);

/** An IANA time zone the runtime knows ("Asia/Shanghai", "Europe/Paris", "UTC"). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const reminderHour = withMessage(z.number().int().min(0).max(23), msg`Please choose an hour between 0 and 23`);
export const timeZone = withMessage(z.string().min(1).max(64).refine(isTimeZone), msg`Unknown time zone`);

export const pushSubscription = withMessage(
  z.object({
    // Push services are reached over HTTPS only (never a plain or internal address).
    endpoint: z.url({ protocol: /^https$/ }).max(2048),
    keys: z.object({
      p256dh: z.string().regex(base64url).min(80).max(100),
      auth: z.string().regex(base64url).min(16).max(32),
    }),
  }),
  msg`This push subscription is not valid`,
);

export const subscribeBody = z.object({
  device: pushDevice,
  subscription: pushSubscription,
  hour: reminderHour,
  timeZone,
});
export type SubscribeBody = z.infer<typeof subscribeBody>;

export const unsubscribeBody = z.object({ device: pushDevice });

/** `GET /api/push/config?device=`: what the member center's reminder card shows. */
export interface PushConfig {
  /** The server's VAPID public key (base64url), for `pushManager.subscribe`. */
  publicKey: string;
  /** This device has a subscription on the server for this member. */
  subscribed: boolean;
  /** Devices of the member with a subscription. */
  devices: number;
  hour: number;
  timeZone: string | null;
}

/** `POST /api/push/test`: per subscription of the member, what the push service answered. */
export interface PushTestResult {
  sent: number;
  /** Subscriptions the push service said are gone (404/410): removed. */
  removed: number;
  failed: number;
}

/** The JSON a push carries; the service worker shows it. */
export interface PushMessage {
  title: string;
  body: string;
  /** Same-origin path the notification opens. */
  url: string;
  /** One notification per tag (a newer daily reminder replaces the older). */
  tag: string;
  /** Reviews due, for the app icon badge (absent: leave the badge). */
  badge?: number;
}

export { DEFAULT_REMINDER_HOUR } from "./reminderHour.ts";

/**
 * Devices per member that receive reminders. A person's phone, tablet, laptop and work
 * computer, each with a browser or two, fit; one member can no longer make every reminder and
 * test fan out to dozens of endpoints. A new device beyond it replaces the member's device that
 * subscribed longest ago rather than being refused: the app can only unsubscribe the device it
 * runs on, so a member whose browsers lost their storage would otherwise be locked out, and the
 * replaced one is the most likely to be gone already.
 */
export const MAX_PUSH_DEVICES = 10;
