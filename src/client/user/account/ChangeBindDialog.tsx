import { useState, type FormEvent } from "react";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { Trans, useLingui } from "@lingui/react/macro";
import { Dialog } from "radix-ui";
import { request } from "../../api/index.ts";
import { SendCodeButton } from "../../features/auth/SendCodeButton.tsx";
import { Field } from "../../ui/form/Field.tsx";
import { Button } from "../../ui/Button.tsx";

/**
 * Changing the bound email or mobile (SPEC: only through verification): first a code to the
 * current address proves it is the member's, then a code to the new address binds it.
 */
export function ChangeBindDialog({
  type,
  current,
  open,
  onOpenChange,
  onChanged,
}: {
  type: "email" | "mobile";
  current: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  onChanged(): void;
}) {
  const { t } = useLingui();
  const [proof, setProof] = useState<string | null>(current ? null : "");
  const [oldCode, setOldCode] = useState("");
  const [target, setTarget] = useState("");
  const [code, setCode] = useState("");
  const label = type === "email" ? t`Email` : t`Mobile number`;

  async function verify(event: FormEvent) {
    event.preventDefault();
    try {
      const res = await request<{ accountVerificationToken: string }>(
        { url: "/api/account/verification", method: "post", data: { type, captcha: oldCode } },
        { loading: true },
      );
      setProof(res.data.accountVerificationToken);
    } catch {
      // Shown by the request layer.
    }
  }

  async function bind(event: FormEvent) {
    event.preventDefault();
    try {
      await request(
        { url: "/api/account/changeBind", method: "post", data: { type, [type]: target, captcha: code, accountVerificationToken: proof } },
        { loading: true, showSuccessMessage: true },
      );
      onChanged();
      onOpenChange(false);
    } catch {
      // Shown by the request layer.
    }
  }

  /** A step's code: the field, and the button that sends the code to `to` for `event`. */
  const codeRow = (value: string, setValue: (code: string) => void, to: string, event: string) => (
    <div className="flex items-end gap-2">
      <div className="flex-1">
        <Field label={t`Verification code`} inputMode="numeric" autoComplete="one-time-code" value={value} onChange={(e) => setValue(e.target.value.trim())} />
      </div>
      <SendCodeButton channel={type} target={to} event={event} />
    </div>
  );

  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={type === "email" ? t`Change email` : t`Change mobile number`}>
      {proof === null ? (
        <form onSubmit={verify} noValidate className="space-y-3">
          <Dialog.Description className="text-sm text-slate-600 dark:text-slate-300">
            <Trans>First confirm your current address {current} with a code.</Trans>
          </Dialog.Description>
          {codeRow(oldCode, setOldCode, current, type === "email" ? "user_email_verify" : "user_mobile_verify")}
          <Button variant="primary" type="submit" disabled={!oldCode} className="w-full">
            <Trans>Next</Trans>
          </Button>
        </form>
      ) : (
        <form onSubmit={bind} noValidate className="space-y-3">
          <Dialog.Description className="text-sm text-slate-600 dark:text-slate-300">
            <Trans>Enter the new address and the code sent to it.</Trans>
          </Dialog.Description>
          <Field label={label} type={type === "email" ? "email" : "tel"} value={target} onChange={(e) => setTarget(e.target.value.trim())} />
          {codeRow(code, setCode, target, type === "email" ? "user_change_email" : "user_change_mobile")}
          <Button variant="primary" type="submit" disabled={!target || !code} className="w-full">
            <Trans>Save</Trans>
          </Button>
        </form>
      )}
    </DialogFrame>
  );
}
