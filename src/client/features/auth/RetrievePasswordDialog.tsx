import { useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { Trans, useLingui } from "@lingui/react/macro";
import { Dialog } from "radix-ui";
import { Controller, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { validatePassword } from "../../../shared/validation.ts";
import { request } from "../../api/index.ts";
import { Field } from "../../ui/form/Field.tsx";
import { ruled, type Translate } from "../../ui/form/rules.ts";
import { ChannelChoice } from "./ChannelChoice.tsx";
import { SendCodeButton } from "./SendCodeButton.tsx";
import { Button } from "../../ui/Button.tsx";

/** The new password follows SPEC §5, as the server checks it; the address and the code are the server's to judge. */
export function retrievePasswordSchema(translate: Translate) {
  return z.object({ type: z.enum(["email", "mobile"]), account: z.string(), code: z.string(), password: ruled(validatePassword, translate) });
}

type RetrieveValues = z.infer<ReturnType<typeof retrievePasswordSchema>>;

/** "Forgot password": a code to the bound email or mobile, then a new password. */
export function RetrievePasswordDialog({ open, onOpenChange, types }: { open: boolean; onOpenChange(open: boolean): void; types: ("email" | "mobile")[] }) {
  const { t, i18n } = useLingui();
  const [schema] = useState(() => retrievePasswordSchema((m) => i18n._(m)));
  const form = useForm<RetrieveValues>({ defaultValues: { type: types[0] ?? "email", account: "", code: "", password: "" }, resolver: zodResolver(schema) });
  const [type, account] = useWatch({ control: form.control, name: ["type", "account"] });

  const submit = form.handleSubmit(async ({ type, account, code, password }) => {
    try {
      await request({ url: "/api/account/retrievePassword", method: "post", data: { type, account, captcha: code, password } }, { showSuccessMessage: true, loading: true });
      onOpenChange(false);
    } catch {
      // Shown by the request layer.
    }
  });

  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={<Trans>Retrieve password</Trans>}>
      <Dialog.Description className="sr-only">{t`We send a code to the email address or mobile number of your account.`}</Dialog.Description>
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3">
        <Controller control={form.control} name="type" render={({ field }) => <ChannelChoice label={t`Retrieve by`} name="retrieve-type" types={types} value={field.value} onChange={field.onChange} />} />
        {/* The address and the code lose their spaces as they are typed. */}
        <Controller
          control={form.control}
          name="account"
          render={({ field }) => (
            <Field label={type === "email" ? t`Email` : t`Mobile`} ref={field.ref} value={field.value} onBlur={field.onBlur} onChange={(e) => field.onChange(e.target.value.trim())} autoComplete={type === "email" ? "email" : "tel"} />
          )}
        />
        <div className="flex items-end gap-2">
          <div className="flex-1">
            <Controller
              control={form.control}
              name="code"
              render={({ field }) => (
                <Field label={t`Verification code`} ref={field.ref} value={field.value} onBlur={field.onBlur} inputMode="numeric" autoComplete="one-time-code" onChange={(e) => field.onChange(e.target.value.trim())} />
              )}
            />
          </div>
          <SendCodeButton channel={type} target={account} event="user_retrieve_pwd" />
        </div>
        <Field label={t`New password`} type="password" autoComplete="new-password" error={form.formState.errors.password?.message} {...form.register("password")} />
        <Button variant="primary" type="submit" className="w-full">
          <Trans>Reset password</Trans>
        </Button>
      </form>
    </DialogFrame>
  );
}
