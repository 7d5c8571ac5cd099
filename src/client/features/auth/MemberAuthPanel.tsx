import { lazy, Suspense, useEffect, useState, type FormEvent } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "react-router-dom";
import { validateAccount, validatePassword } from "../../../shared/validation.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { asksForCaptcha, postLogin } from "../../api/login.ts";
import { useMemberCenter } from "../../stores/memberCenter.ts";
import { useUserInfo, type UserInfo } from "../../stores/userInfo.ts";
import { Field } from "../../ui/form/Field.tsx";
import { Button } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { Tabs } from "../../ui/Tabs.tsx";
import { lazyDialog } from "../../ui/lazyDialog.tsx";
import { afterFirstPaint } from "../../ui/afterPaint.ts";
import { withCommonCatalog } from "../../i18n/index.ts";

// Loaded when first opened: not part of the login screen's first download.
const ClickCaptcha = lazyDialog(async () => (await import("./ClickCaptcha.tsx")).ClickCaptcha);
const RetrievePasswordDialog = lazyDialog(async () => (await import("./RetrievePasswordDialog.tsx")).RetrievePasswordDialog);
// The register tab's address and code fields: loaded once the login form has been painted.
const loadRegisterVerification = withCommonCatalog(() => import("./RegisterVerification.tsx"));
const RegisterVerification = lazy(loadRegisterVerification);

type Tab = "login" | "register";
type Errors = Partial<Record<"username" | "password" | "target" | "code", string | null>>;
interface CheckInConfig {
  userLoginCaptchaSwitch: boolean;
  accountVerificationType: ("email" | "mobile")[];
}

/**
 * Member login and registration (`/`): SPEC §5 rules checked here and again on the server.
 *
 * Kept on plain state instead of react-hook-form and zod (the other forms' way): this is the
 * member's first screen, already at the 120 KiB first-load goal, and the two (even zod/mini)
 * cost the admin login screen 31 KiB gzipped more before it was usable. The checks are the
 * rules the server runs on the same body (shared/validation.ts).
 */
export function MemberAuthPanel() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [tab, setTab] = useState<Tab>("login");
  const [config, setConfig] = useState<CheckInConfig>({ userLoginCaptchaSwitch: false, accountVerificationType: ["email", "mobile"] });
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [keep, setKeep] = useState(true);
  const [registerType, setRegisterType] = useState<"email" | "mobile">("email");
  const [target, setTarget] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const [retrieveOpen, setRetrieveOpen] = useState(false);
  const [pending, setPending] = useState<Tab | null>(null);

  // The login options (captcha, how to register) once the form has been painted: the form is
  // usable with the defaults meanwhile, and the request layer (axios) is not in its way.
  // A logged-in member is sent on by the server's 303 'logged in'. The register tab's fields
  // load then too.
  useEffect(
    () =>
      afterFirstPaint(() => {
        void loadRegisterVerification().catch(() => {});
        request<CheckInConfig>({ url: "/api/user/checkIn", method: "get" }, { showCodeMessage: false, showErrorMessage: false }).then(
          (res) => {
            setConfig(res.data);
            if (res.data.accountVerificationType[0]) setRegisterType(res.data.accountVerificationType[0]);
          },
          () => {},
        );
      }),
    [],
  );

  function validate(which: Tab): boolean {
    const u = validateAccount(username);
    const p = validatePassword(password);
    const next: Errors = { username: u && i18n._(u), password: p && i18n._(p) };
    if (which === "register" && config.accountVerificationType.length > 0) {
      if (!target) next.target = t`Required`;
      if (!code) next.code = t`Required`;
    }
    setErrors(next);
    return !Object.values(next).some(Boolean);
  }

  async function send(which: Tab, captcha?: { captchaId: string; captchaInfo: string }) {
    setBusy(true);
    try {
      const data = {
        tab: which,
        username,
        password,
        keep,
        ...captcha,
        ...(which === "register" ? { registerType, [registerType]: target, captcha: code } : {}),
      };
      const answer = await postLogin<{ userInfo: UserInfo; routePath: string }>("/api/user/checkIn", data);
      useMemberCenter.getState().reset();
      useUserInfo.getState().dataFill(answer.userInfo);
      void navigate(answer.routePath || "/user", { replace: true });
    } catch (error) {
      const refusal = serverRefusal(error);
      if (asksForCaptcha(error) && which === "login" && !captcha) {
        setPending(which);
        setCaptchaOpen(true);
      } else if (refusal?.msg) {
        setErrors((e) => ({ ...e, password: refusal.msg }));
      }
    } finally {
      setBusy(false);
    }
  }

  function submit(which: Tab) {
    return (event: FormEvent) => {
      event.preventDefault();
      if (!validate(which)) return;
      if (which === "register" || config.userLoginCaptchaSwitch) {
        setPending(which);
        setCaptchaOpen(true);
      } else {
        void send(which);
      }
    };
  }

  const tabClass =
    "min-h-11 flex-1 border-b-2 border-transparent text-sm font-medium text-slate-600 data-[state=active]:border-primary data-[state=active]:text-primary dark:text-slate-300";
  const common = (
    <>
      <Field label={t`Username`} name="username" autoComplete="username" value={username} error={errors.username} onChange={(e) => setUsername(e.target.value)} />
      <Field
        label={t`Password`}
        name="password"
        type="password"
        autoComplete={tab === "login" ? "current-password" : "new-password"}
        value={password}
        error={errors.password}
        onChange={(e) => setPassword(e.target.value)}
      />
    </>
  );

  const loginForm = (
    <form onSubmit={submit("login")} noValidate className="space-y-4">
      {common}
      <div className="flex items-center justify-between text-sm">
        <label className="flex min-h-11 items-center gap-2">
          <input type="checkbox" className="size-4 accent-primary" checked={keep} onChange={(e) => setKeep(e.target.checked)} />
          <Trans>Keep me logged in</Trans>
        </label>
        <Button variant="bare" className="min-h-11 rounded-sm px-1 text-primary hover:underline" onClick={() => setRetrieveOpen(true)}>
          <Trans>Forgot password?</Trans>
        </Button>
      </div>
      <Button variant="primary" type="submit" disabled={busy} className="w-full">
        <Trans>Log in</Trans>
      </Button>
    </form>
  );
  const registerForm = (
    <form onSubmit={submit("register")} noValidate className="space-y-4">
      {common}
      {config.accountVerificationType.length > 0 && (
        <Suspense fallback={<Spinner className="mx-auto my-4 size-6" />}>
          <RegisterVerification
            types={config.accountVerificationType}
            type={registerType}
            onTypeChange={setRegisterType}
            target={target}
            onTargetChange={setTarget}
            code={code}
            onCodeChange={setCode}
            errors={errors}
          />
        </Suspense>
      )}
      <Button variant="primary" type="submit" disabled={busy} className="w-full">
        <Trans>Register</Trans>
      </Button>
    </form>
  );

  return (
    <div className="rounded-2xl bg-white p-5 shadow-lg dark:bg-slate-900">
      <Tabs
        value={tab}
        onValueChange={(v) => {
          setTab(v);
          setErrors({});
        }}
        label={t`Log in or register`}
        listClassName="mb-4 flex border-b border-slate-200 dark:border-slate-700"
        tabClassName={tabClass}
        items={[
          { value: "login", label: <Trans>Log in</Trans>, content: loginForm },
          { value: "register", label: <Trans>Register</Trans>, content: registerForm },
        ]}
      />
      <ClickCaptcha
        open={captchaOpen}
        onOpenChange={setCaptchaOpen}
        onSuccess={(result) => {
          const which = pending ?? tab;
          setPending(null);
          void send(which, result);
        }}
      />
      <RetrievePasswordDialog open={retrieveOpen} onOpenChange={setRetrieveOpen} types={config.accountVerificationType} />
    </div>
  );
}
