import { useId, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Bell, BellOff } from "lucide-react";
import { DEFAULT_REMINDER_HOUR } from "../../../shared/reminderHour.ts";
import { ApiError } from "../../api/index.ts";
import { disableReminders, enableReminders, localTimeZone, pushConfig, pushSupported, sendTestNotification } from "../../pwa/push.ts";
import { Button } from "../../ui/Button.tsx";
import { useOnline } from "../../browser/useOnline.ts";

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const pushQueryKey = ["push", "config"] as const;

/**
 * The member center's reminders card: Web Push for this device, off by default. On:
 * "N reviews due today" once a day at the chosen hour (this device's time zone) and "exam room X
 * opens soon"; a test notification. Where push is missing, the app's badge still counts reviews.
 */
export function Reminders() {
  const { t } = useLingui();
  const id = useId();
  const online = useOnline();
  const queryClient = useQueryClient();
  const supported = pushSupported();
  const config = useQuery({ queryKey: pushQueryKey, queryFn: ({ signal }) => pushConfig(signal), enabled: supported && online });
  const [hourChoice, setHourChoice] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const on = config.data?.subscribed ?? false;
  const hour = hourChoice ?? config.data?.hour ?? DEFAULT_REMINDER_HOUR;
  const zone = localTimeZone();

  async function act(action: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setNote(null);
    try {
      await action();
    } catch (error) {
      // A refused request toasts the server's message; the browser's own refusal (a private
      // window, no push service) is said here.
      if (!(error instanceof ApiError)) setNote(t`This browser refused to turn reminders on (a private window, or no push service). The number of reviews due still shows beside “Exams”.`);
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: pushQueryKey });
    }
  }

  const turnOn = (at: number) =>
    act(async () => {
      const outcome = await enableReminders(at);
      if (outcome === "denied") setNote(t`Notifications are blocked for this site: allow them in the browser's site settings, then try again.`);
      if (outcome === "unsupported") setNote(t`This browser cannot show reminders.`);
    });

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-semibold">
        {on ? <Bell aria-hidden className="size-5 text-primary dark:text-blue-400" /> : <BellOff aria-hidden className="size-5 text-slate-500" />}
        <Trans>Reminders</Trans>
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        <Trans>A notification on this device when reviews are due (once a day, at the hour you choose) and an hour before an exam room you may sit opens.</Trans>
      </p>
      {!supported ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <Trans>This browser cannot show reminders. The number of reviews due still shows beside “Exams”.</Trans>
        </p>
      ) : !online ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <Trans>Reminders can be changed when you are online.</Trans>
        </p>
      ) : (
        <>
          <label className="flex flex-wrap items-center gap-2 text-sm">
            <span>{t`Daily review reminder at`}</span>
            <select
              value={hour}
              disabled={busy || config.isPending}
              onChange={(e) => {
                const next = Number(e.target.value);
                setHourChoice(next);
                // Already on: the new hour is saved at once.
                if (on) void turnOn(next);
              }}
              className="min-h-11 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-600 dark:bg-slate-900"
            >
              {HOURS.map((h) => (
                <option key={h} value={h}>
                  {`${String(h).padStart(2, "0")}:00`}
                </option>
              ))}
            </select>
            <span className="text-slate-600 dark:text-slate-400">{t`(time zone ${zone})`}</span>
          </label>
          <p role="status" className="text-sm font-medium">
            {config.isPending ? "" : on ? t`Reminders are on for this device.` : t`Reminders are off for this device.`}
          </p>
          <div className="flex flex-wrap gap-2">
            {on ? (
              <>
                <Button disabled={busy} onClick={() => void act(async () => void (await sendTestNotification()))}>
                  <Trans>Send a test notification</Trans>
                </Button>
                <Button disabled={busy} onClick={() => void act(() => disableReminders())}>
                  <Trans>Turn reminders off</Trans>
                </Button>
              </>
            ) : (
              <Button variant="primary" disabled={busy || config.isPending} onClick={() => void turnOn(hour)}>
                <Trans>Turn reminders on</Trans>
              </Button>
            )}
          </div>
          {note && (
            <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
              {note}
            </p>
          )}
        </>
      )}
    </section>
  );
}
