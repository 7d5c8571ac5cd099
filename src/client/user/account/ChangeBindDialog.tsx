import { useState, type FormEvent } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Dialog } from "radix-ui";
import { X } from "lucide-react";
import { request } from "../../api/index.ts";
import { SendCodeButton } from "../../features/auth/SendCodeButton.tsx";
import { Field } from "../../ui/form/Field.tsx";

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

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,26rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900 dark:text-slate-100">
          <div className="mb-3 flex items-center justify-between">
            <Dialog.Title className="text-lg font-semibold">{type === "email" ? t`Change email` : t`Change mobile number`}</Dialog.Title>
            <Dialog.Close aria-label={t`Close`} className="rounded p-2 hover:bg-slate-100 dark:hover:bg-slate-800">
              <X aria-hidden className="size-4" />
            </Dialog.Close>
          </div>
          {proof === null ? (
            <form onSubmit={verify} noValidate className="space-y-3">
              <Dialog.Description className="text-sm text-slate-600 dark:text-slate-300">
                <Trans>First confirm your current address {current} with a code.</Trans>
              </Dialog.Description>
              <div className="flex items-end gap-2">
                <div className="flex-1">
                  <Field label={t`Verification code`} inputMode="numeric" autoComplete="one-time-code" value={oldCode} onChange={(e) => setOldCode(e.target.value.trim())} />
                </div>
                <SendCodeButton channel={type} target={current} event={type === "email" ? "user_email_verify" : "user_mobile_verify"} />
              </div>
              <button type="submit" disabled={!oldCode} className="min-h-11 w-full rounded-md bg-primary font-medium text-white hover:bg-primary-strong disabled:opacity-60">
                <Trans>Next</Trans>
              </button>
            </form>
          ) : (
            <form onSubmit={bind} noValidate className="space-y-3">
              <Dialog.Description className="text-sm text-slate-600 dark:text-slate-300">
                <Trans>Enter the new address and the code sent to it.</Trans>
              </Dialog.Description>
              <Field label={label} type={type === "email" ? "email" : "tel"} value={target} onChange={(e) => setTarget(e.target.value.trim())} />
              <div className="flex items-end gap-2">
                <div className="flex-1">
                  <Field label={t`Verification code`} inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value.trim())} />
                </div>
                <SendCodeButton channel={type} target={target} event={type === "email" ? "user_change_email" : "user_change_mobile"} />
              </div>
              <button type="submit" disabled={!target || !code} className="min-h-11 w-full rounded-md bg-primary font-medium text-white hover:bg-primary-strong disabled:opacity-60">
                <Trans>Save</Trans>
              </button>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
