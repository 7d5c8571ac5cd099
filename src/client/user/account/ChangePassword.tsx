import { useEffect, useState } from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router-dom";
import { request } from "../../api/index.ts";
import { useMemberCenter } from "../../stores/memberCenter.ts";
import { useUserInfo } from "../../stores/userInfo.ts";
import { Field } from "../../ui/form/Field.tsx";
import { useDirtyForm } from "../../ui/discardGuard.tsx";
import { changePasswordSchema, type ChangePasswordValues } from "../../ui/form/rules.ts";
import { Button } from "../../ui/Button.tsx";

/** `/user/account/changePassword`: on success the server ends the session, so the member logs in again. */
export default function ChangePassword() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [schema] = useState(() => changePasswordSchema((m) => i18n._(m)));
  // The first field with an error gets the focus on a refused submit (react-hook-form's shouldFocusError).
  const form = useForm<ChangePasswordValues>({ defaultValues: { oldPassword: "", newPassword: "", confirmPassword: "" }, resolver: zodResolver(schema) });
  const [busy, setBusy] = useState(false);
  const saved = useDirtyForm(form.formState.isDirty);
  const [signedOut, setSignedOut] = useState(false);
  useEffect(() => {
    if (!signedOut) return;
    return () => {
      useMemberCenter.getState().reset();
      queryClient.removeQueries({ queryKey: ["account"] });
    };
  }, [signedOut, queryClient]);
  const username = useUserInfo((s) => s.username);
  const errors = form.formState.errors;
  const passwordField = (name: keyof ChangePasswordValues, label: string, autoComplete: "current-password" | "new-password") => (
    <Field
      label={label}
      type="password"
      autoComplete={autoComplete}
      error={errors[name]?.message}
      // A new password checks its confirmation again, as the member types either.
      {...form.register(name, name === "newPassword" ? { deps: ["confirmPassword"] } : {})}
    />
  );

  const submit = form.handleSubmit(async (values) => {
    setBusy(true);
    try {
      await request(
        { url: "/api/account/changePassword", method: "post", data: { oldPassword: values.oldPassword, newPassword: values.newPassword } },
        { showSuccessMessage: true },
      );
      // The server has revoked the session: the member's tokens go at once (no request goes
      // out with them again), the member center's menus and cached data once this screen has
      // left (the effect below). Cleared while the member center is still on screen (the way
      // to `/` loads its code first), the member center would go to its loading route and ask
      // the server for a signed-out member's data: a "Please log in first" over the success toast.
      setSignedOut(true);
      saved();
      void navigate("/", { replace: true });
      useUserInfo.getState().clear();
    } catch {
      // The request layer has shown the server's message (e.g. a wrong old password).
      setBusy(false);
    }
  });

  return (
    <section className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
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
