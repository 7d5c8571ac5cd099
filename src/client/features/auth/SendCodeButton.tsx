import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { request } from "../../api/index.ts";

export const RESEND_SECONDS = 60;

/** Sends an email or SMS code for an event, then counts down before it can send again. */
export function SendCodeButton({
  channel,
  target,
  event,
  disabled,
}: {
  channel: "email" | "mobile";
  target: string;
  event: string;
  disabled?: boolean;
}) {
  const { t } = useLingui();
  const [left, setLeft] = useState(0);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  async function send() {
    setBusy(true);
    try {
      await request(
        channel === "email"
          ? { url: "/api/Ems/send", method: "post", data: { email: target, event } }
          : { url: "/api/Sms/send", method: "post", data: { mobile: target, template_code: event } },
        { showSuccessMessage: true },
      );
      setLeft(RESEND_SECONDS);
    } catch {
      // The request layer shows why.
    } finally {
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      onClick={() => void send()}
      disabled={disabled || busy || left > 0 || !target}
      className="min-h-11 shrink-0 rounded-md border border-primary px-3 text-sm text-primary hover:bg-blue-50 disabled:cursor-not-allowed disabled:border-slate-300 disabled:text-slate-400 dark:hover:bg-slate-800"
    >
      {left > 0 ? t`Resend in ${left} s` : t`Send code`}
    </button>
  );
}
