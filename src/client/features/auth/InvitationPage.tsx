import { Trans, useLingui } from "@lingui/react/macro";
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { request, serverRefusal } from "../../api/index.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { Field } from "../../ui/form/Field.tsx";
import { FormAlert } from "../../ui/FormFooter.tsx";
import { newPasswordSchema, type NewPasswordValues } from "../../ui/form/rules.ts";
import { Spinner } from "../../ui/Spinner.tsx";

type State = { kind: "loading" } | { kind: "refused"; message: string } | { kind: "open"; username: string; nickname: string };

/** The link's token: in the fragment (`#token=`), or in the query string of links sent before it moved there. */
function tokenOf(hash: string, search: string): { token: string; inQuery: boolean } {
  const fromHash = new URLSearchParams(hash.replace(/^#/, "")).get("token");
  if (fromHash) return { token: fromHash, inQuery: false };
  const fromQuery = new URLSearchParams(search).get("token");
  return { token: fromQuery ?? "", inQuery: fromQuery !== null };
}

/**
 * `/invitation#token=`: a member staff created sets their first password from the link in
 * their invitation email (no captcha, no code: the single-use link is the proof), then logs in.
 * A used or expired link says so, and who can send a new one. The token is in the fragment, which
 * no server sees (not its log, not a Referer), and is checked with a POST; an older link's
 * `?token=` is read once and the address rewritten to the fragment.
 */
export default function InvitationPage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const location = useLocation();
  const { token, inQuery } = tokenOf(location.hash, location.search);
  const [state, setState] = useState<State>({ kind: "loading" });
  const [schema] = useState(() => newPasswordSchema((m) => i18n._(m)));
  const form = useForm<NewPasswordValues>({ defaultValues: { newPassword: "", confirmPassword: "" }, resolver: zodResolver(schema) });
  const errors = form.formState.errors;
  // The server's refusal (a link used meanwhile, a password it will not take).
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The greeting's words (an open invitation's member).
  const username = state.kind === "open" ? state.username : "";
  const name = state.kind === "open" ? state.nickname || state.username : "";

  // An older link (?token=): the address bar, history and the next Referer lose it at once.
  useEffect(() => {
    if (inQuery) void navigate({ pathname: location.pathname, search: "", hash: `token=${token}` }, { replace: true });
  }, [inQuery, token, location.pathname, navigate]);

  useEffect(() => {
    let live = true;
    request<{ username: string; nickname: string }>({ url: "/api/user/invitation/check", method: "post", data: { token } }, { showCodeMessage: false, showErrorMessage: false }).then(
      (res) => live && setState({ kind: "open", ...res.data }),
      (e: unknown) => live && setState({ kind: "refused", message: serverRefusal(e)?.msg ?? t`The invitation could not be checked: try again` }),
    );
    return () => {
      live = false;
    };
  }, [token, t]);

  const submit = form.handleSubmit(async ({ newPassword }) => {
    setError(null);
    setBusy(true);
    try {
      await request({ url: "/api/user/invitation", method: "post", data: { token, password: newPassword } }, { showCodeMessage: false, showSuccessMessage: true });
      void navigate("/", { replace: true });
    } catch (e) {
      setError(serverRefusal(e)?.msg ?? t`The password could not be set: try again`);
    } finally {
      setBusy(false);
    }
  });

  return (
    <section className="mx-auto max-w-sm space-y-4 py-12">
      <h1 className="text-xl font-semibold">
        <Trans>Set your password</Trans>
      </h1>
      {state.kind === "loading" && <Spinner className="size-6" />}
      {state.kind === "refused" && (
        <>
          <p role="alert" className="text-red-700 dark:text-red-300">
            {state.message}
          </p>
          <Link to="/" className={buttonClass("primary")}>
            <Trans>Go to the login page</Trans>
          </Link>
        </>
      )}
      {state.kind === "open" && (
        <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3">
          <p>
            <Trans>
              Welcome, {name}. Your username is <strong>{username}</strong>: choose the password you will log in with.
            </Trans>
          </p>
          <Field label={t`New password`} type="password" autoComplete="new-password" error={errors.newPassword?.message} {...form.register("newPassword", { deps: ["confirmPassword"] })} />
          <Field label={t`Confirm password`} type="password" autoComplete="new-password" error={errors.confirmPassword?.message} {...form.register("confirmPassword")} />
          <FormAlert text={error} />
          <Button variant="primary" type="submit" className="w-full" disabled={busy}>
            <Trans>Set password</Trans>
          </Button>
        </form>
      )}
    </section>
  );
}
