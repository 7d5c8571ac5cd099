import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { request } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";

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
    <Button onClick={() => void send()} disabled={disabled || busy || left > 0 || !target} className="shrink-0 text-sm">
      {left > 0 ? t`Resend in ${left} s` : t`Send code`}
    </Button>
  );
}
