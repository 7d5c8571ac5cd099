import { useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm, useWatch, type Control } from "react-hook-form";
import { z } from "zod";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { Trans, useLingui } from "@lingui/react/macro";
import { Dialog } from "radix-ui";
import { request } from "../../api/index.ts";
import { SendCodeButton } from "../../features/auth/SendCodeButton.tsx";
import { Field } from "../../ui/form/Field.tsx";
import { Button } from "../../ui/Button.tsx";

/** The two steps' fields; the codes and the address are the server's to judge (a button stays off while its step's fields are empty). */
const bindSchema = z.object({ oldCode: z.string(), target: z.string(), code: z.string() });
type BindValues = z.infer<typeof bindSchema>;

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
  const form = useForm<BindValues>({ defaultValues: { oldCode: "", target: "", code: "" }, resolver: zodResolver(bindSchema) });
  const [oldCode, target, code] = useWatch({ control: form.control, name: ["oldCode", "target", "code"] });
  const label = type === "email" ? t`Email` : t`Mobile number`;

  const verify = form.handleSubmit(async ({ oldCode }) => {
    try {
      const res = await request<{ accountVerificationToken: string }>(
        { url: "/api/account/verification", method: "post", data: { type, captcha: oldCode } },
        { loading: true },
      );
      setProof(res.data.accountVerificationToken);
    } catch {
      // Shown by the request layer.
    }
  });

  const bind = form.handleSubmit(async ({ target, code }) => {
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
  });

  /** A step's code: the field, and the button that sends the code to `to` for `event`. */
  const codeRow = (name: "oldCode" | "code", to: string, event: string) => (
    <div className="flex items-end gap-2">
      <div className="flex-1">
        <TrimmedField control={form.control} name={name} label={t`Verification code`} inputMode="numeric" autoComplete="one-time-code" />
      </div>
      <SendCodeButton channel={type} target={to} event={event} />
    </div>
  );

  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={type === "email" ? t`Change email` : t`Change mobile number`}>
      {proof === null ? (
        <form onSubmit={(e) => void verify(e)} noValidate className="space-y-3">
          <Dialog.Description className="text-sm text-slate-600 dark:text-slate-300">
            <Trans>First confirm your current address {current} with a code.</Trans>
          </Dialog.Description>
          {codeRow("oldCode", current, type === "email" ? "user_email_verify" : "user_mobile_verify")}
          <Button variant="primary" type="submit" disabled={!oldCode} className="w-full">
            <Trans>Next</Trans>
          </Button>
        </form>
      ) : (
        <form onSubmit={(e) => void bind(e)} noValidate className="space-y-3">
          <Dialog.Description className="text-sm text-slate-600 dark:text-slate-300">
            <Trans>Enter the new address and the code sent to it.</Trans>
          </Dialog.Description>
          <TrimmedField control={form.control} name="target" label={label} type={type === "email" ? "email" : "tel"} />
          {codeRow("code", target, type === "email" ? "user_change_email" : "user_change_mobile")}
          <Button variant="primary" type="submit" disabled={!target || !code} className="w-full">
            <Trans>Save</Trans>
          </Button>
        </form>
      )}
    </DialogFrame>
  );
}

/** A field of the dialog that loses its spaces as it is typed (an address, a code). */
function TrimmedField({ control, name, ...input }: { control: Control<BindValues>; name: keyof BindValues; label: string; type?: string; inputMode?: "numeric"; autoComplete?: string }) {
  return <Controller control={control} name={name} render={({ field }) => <Field {...input} ref={field.ref} value={field.value} onBlur={field.onBlur} onChange={(e) => field.onChange(e.target.value.trim())} />} />;
}
