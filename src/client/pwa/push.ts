import type { PushConfig, PushTestResult } from "../../shared/push.ts";
import { request } from "../api/index.ts";

/**
 * Web Push on the device: subscribe this browser for the member's reminders,
 * unsubscribe, and keep the server in step when the member revokes the permission or the browser
 * drops the subscription. The server keeps one subscription per member and device (this id).
 */

const DEVICE_KEY = "examhub.device";
/** Set while this device has reminders on: the app checks the permission then (no request otherwise). */
const ON_KEY = "examhub.push";

export function pushSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** This browser's id for the server (kept in localStorage). */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    id = crypto.randomUUID();
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export async function pushConfig(signal?: AbortSignal): Promise<PushConfig> {
  return (await request<PushConfig>({ url: "/api/push/config", method: "get", params: { device: deviceId() }, signal }, { showErrorMessage: false, showCodeMessage: false })).data;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export type EnableOutcome = "on" | "denied" | "unsupported";

/** Asks for the permission, subscribes this browser and stores it on the server with the hour. */
export async function enableReminders(hour: number): Promise<EnableOutcome> {
  if (!pushSupported()) return "unsupported";
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  if (permission !== "granted") return "denied";
  const { publicKey } = await pushConfig();
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = subscription.toJSON();
  await request(
    {
      url: "/api/push/subscribe",
      method: "post",
      data: { device: deviceId(), subscription: { endpoint: json.endpoint, keys: json.keys }, hour, timeZone: localTimeZone() },
    },
    { showSuccessMessage: true },
  );
  localStorage.setItem(ON_KEY, "1");
  return "on";
}

/** Turns reminders off on this device: the browser's subscription and the server's. */
export async function disableReminders(options: { quiet?: boolean } = {}): Promise<void> {
  try {
    await (await currentSubscription())?.unsubscribe();
  } catch {
    // Already gone: the server's copy is removed below all the same.
  }
  await request({ url: "/api/push/unsubscribe", method: "post", data: { device: deviceId() } }, { showSuccessMessage: !options.quiet, showErrorMessage: !options.quiet });
  // Only once the server has forgotten it (offline: checked again later).
  localStorage.removeItem(ON_KEY);
}

export async function sendTestNotification(): Promise<PushTestResult> {
  return (await request<PushTestResult>({ url: "/api/push/test", method: "post" }, { showSuccessMessage: true })).data;
}

/** Reminders were on here, but the permission is no longer granted or the subscription is gone. */
export async function remindersLost(): Promise<boolean> {
  if (localStorage.getItem(ON_KEY) !== "1") return false;
  if (!pushSupported() || Notification.permission !== "granted") return true;
  return (await currentSubscription()) === null;
}

/**
 * A member who revoked the permission (or whose browser dropped the subscription) is
 * unsubscribed on the server: checked on start, when the permission changes and when the app
 * comes back to the foreground. Returns the cleanup.
 */
export function watchPushPermission(onLost?: () => void): () => void {
  if (!pushSupported()) return () => undefined;
  let stopped = false;
  const check = async () => {
    if (stopped || !navigator.onLine) return;
    try {
      if (await remindersLost()) {
        await disableReminders({ quiet: true });
        onLost?.();
      }
    } catch {
      // Offline or refused: checked again next time.
    }
  };
  void check();
  const onVisible = () => {
    if (document.visibilityState === "visible") void check();
  };
  document.addEventListener("visibilitychange", onVisible);
  let status: PermissionStatus | null = null;
  const onChange = () => void check();
  void navigator.permissions
    ?.query({ name: "notifications" })
    .then((s) => {
      if (stopped) return;
      status = s;
      s.addEventListener("change", onChange);
    })
    .catch(() => undefined);
  return () => {
    stopped = true;
    document.removeEventListener("visibilitychange", onVisible);
    status?.removeEventListener("change", onChange);
  };
}
