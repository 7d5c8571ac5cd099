import { useState, type FormEvent } from "react";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { Trans, useLingui } from "@lingui/react/macro";
import { Dialog } from "radix-ui";
import { validatePassword } from "../../../shared/validation.ts";
import { request } from "../../api/index.ts";
import { Field } from "../../ui/form/Field.tsx";
import { ChannelChoice } from "./ChannelChoice.tsx";
import { SendCodeButton } from "./SendCodeButton.tsx";
import { Button } from "../../ui/Button.tsx";

/** "Forgot password": a code to the bound email or mobile, then a new password. */
export function RetrievePasswordDialog({ open, onOpenChange, types }: { open: boolean; onOpenChange(open: boolean): void; types: ("email" | "mobile")[] }) {
  const { t, i18n } = useLingui();
  const [type, setType] = useState<"email" | "mobile">(types[0] ?? "email");
  const [account, setAccount] = useState("");
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = validatePassword(password);
    setError(invalid && i18n._(invalid));
    if (invalid) return;
    try {
      await request({ url: "/api/account/retrievePassword", method: "post", data: { type, account, captcha: code, password } }, { showSuccessMessage: true, loading: true });
      onOpenChange(false);
    } catch {
      // Shown by the request layer.
    }
  }

  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={<Trans>Retrieve password</Trans>}>
      <Dialog.Description className="sr-only">{t`We send a code to the email address or mobile number of your account.`}</Dialog.Description>
      <form onSubmit={submit} noValidate className="space-y-3">
        <ChannelChoice label={t`Retrieve by`} name="retrieve-type" types={types} value={type} onChange={setType} />
        <Field label={type === "email" ? t`Email` : t`Mobile`} value={account} onChange={(e) => setAccount(e.target.value.trim())} autoComplete={type === "email" ? "email" : "tel"} />
        <div className="flex items-end gap-2">
          <div className="flex-1">
            <Field label={t`Verification code`} value={code} inputMode="numeric" autoComplete="one-time-code" onChange={(e) => setCode(e.target.value.trim())} />
          </div>
          <SendCodeButton channel={type} target={account} event="user_retrieve_pwd" />
        </div>
        <Field label={t`New password`} type="password" autoComplete="new-password" value={password} error={error} onChange={(e) => setPassword(e.target.value)} />
        <Button variant="primary" type="submit" className="w-full">
          <Trans>Reset password</Trans>
        </Button>
      </form>
    </DialogFrame>
  );
}
