import { useRef, useState, type FormEvent } from "react";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { useNavigate } from "react-router-dom";
import { validatePassword, validateRequired } from "../../../shared/validation.ts";
import { request } from "../../api/index.ts";
import { useMemberCenter } from "../../stores/memberCenter.ts";
import { useUserInfo } from "../../stores/userInfo.ts";
import { Field } from "../../ui/form/Field.tsx";
import { focusFirstError } from "../../ui/form/focusFirstError.ts";
import { Button } from "../../ui/Button.tsx";

export interface ChangePasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export type ChangePasswordErrors = Partial<Record<keyof ChangePasswordValues, MessageDescriptor>>;

/** Old password required; the new one follows SPEC §5 (6-32 characters, none of & < > " '); the confirmation matches it. */
export function validateChangePassword(values: ChangePasswordValues): ChangePasswordErrors {
  const errors: ChangePasswordErrors = {};
  const old = validateRequired(values.oldPassword);
  if (old) errors.oldPassword = old;
  const next = validatePassword(values.newPassword);
  if (next) errors.newPassword = next;
  const confirm = validateRequired(values.confirmPassword);
  if (confirm) errors.confirmPassword = confirm;
  else if (values.confirmPassword !== values.newPassword) errors.confirmPassword = msg`The two passwords do not match`;
  return errors;
}

const FIELDS = ["oldPassword", "newPassword", "confirmPassword"] as const;

/** `/user/account/changePassword`: on success the server ends the session, so the member logs in again. */
export default function ChangePassword() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<ChangePasswordValues>({ oldPassword: "", newPassword: "", confirmPassword: "" });
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const username = useUserInfo((s) => s.username);
  const errors = submitted ? validateChangePassword(values) : {};
  const errorText = (m: MessageDescriptor | undefined) => (m ? i18n._(m) : null);
  const set = (key: keyof ChangePasswordValues, value: string) => setValues((v) => ({ ...v, [key]: value }));
  const passwordField = (name: keyof ChangePasswordValues, label: string, autoComplete: "current-password" | "new-password") => (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete={autoComplete}
      value={values[name]}
      error={errorText(errors[name])}
      onChange={(e) => set(name, e.target.value)}
    />
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (focusFirstError(formRef.current, FIELDS, validateChangePassword(values))) return;
    setBusy(true);
    try {
      await request(
        { url: "/api/account/changePassword", method: "post", data: { oldPassword: values.oldPassword, newPassword: values.newPassword } },
        { showSuccessMessage: true },
      );
      // The server has revoked the session: leave the member center (first, so it does not
      // go to its loading route), then forget the member, their menus and cached data.
      void navigate("/", { replace: true });
      useUserInfo.getState().clear();
      useMemberCenter.getState().reset();
      queryClient.removeQueries({ queryKey: ["account"] });
    } catch {
      // The request layer has shown the server's message (e.g. a wrong old password).
      setBusy(false);
    }
  }

  return (
    <section className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <form ref={formRef} onSubmit={submit} noValidate className="space-y-4">
        <h1 className="text-xl font-semibold">
          <Trans>Change password</Trans>
        </h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <Trans>After the change you will be logged out and log in again with the new password.</Trans>
        </p>
        {/* Lets password managers tie the new password to the account. */}
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        {passwordField("oldPassword", t`Old password`, "current-password")}
        {passwordField("newPassword", t`New password`, "new-password")}
        <p className="-mt-2 text-xs text-slate-600 dark:text-slate-300">
          {t`6 to 32 characters, without & < > " '`}
        </p>
        {passwordField("confirmPassword", t`Confirm new password`, "new-password")}
        <Button
          variant="primary"
          type="submit"
          disabled={busy}
          className="w-full px-6"
        >
          {busy && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
          <Trans>Change password</Trans>
        </Button>
      </form>
    </section>
  );
}
