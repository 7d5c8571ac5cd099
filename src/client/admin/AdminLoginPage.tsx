import { useEffect, useState, type FormEvent } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { GraduationCap } from "lucide-react";
import { useNavigate } from "react-router-dom";
import { validateAccount, validatePassword } from "../../shared/validation.ts";
import { request, serverRefusal } from "../api/index.ts";
import { whenIdle } from "../browser/whenIdle.ts";
import { landingLoggedIn, prefetchLanding } from "../routing/landing.ts";
import { asksForCaptcha, postLogin } from "../api/login.ts";
import { useAdminInfo, type AdminInfo } from "../stores/adminInfo.ts";
import { useNavTabs } from "../stores/navTabs.ts";
import { Button } from "../ui/Button.tsx";
import { lazyDialog } from "../ui/lazyDialog.tsx";
import { Field } from "../ui/form/Field.tsx";
import { LanguageSwitch } from "../ui/LanguageSwitch.tsx";
import { OfflineBanner } from "../ui/OfflineBanner.tsx";

// Loaded when first opened: not part of the login screen's first download.
const ClickCaptcha = lazyDialog(async () => (await import("../features/auth/ClickCaptcha.tsx")).ClickCaptcha);

/**
 * `/admin/login`: username and password (SPEC §5 rules checked here and on the server).
 *
 * The one back-office form not on react-hook-form and zod, on purpose: this screen is a first
 * download, and the two (even zod/mini) added 31 KiB gzipped before it was usable (115 -> 146
 * KiB, 5 -> 8 files; tests/bench/first-load.mjs) for two fields. It checks with the rules the
 * server runs on the same body (shared/validation.ts), as the other forms' schemas do.
 */
export default function AdminLoginPage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [keep, setKeep] = useState(false);
  const [errors, setErrors] = useState<{ username?: string | null; password?: string | null }>({});
  const [busy, setBusy] = useState(false);
  const [captchaNeeded, setCaptchaNeeded] = useState(false);
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const hasToken = useAdminInfo((s) => Boolean(s.token));

  useEffect(() => {
    if (hasToken) void navigate("/admin", { replace: true });
  }, [hasToken, navigate]);

  // The back office's first page after login downloads while the admin types (routing/landing.ts).
  useEffect(() => whenIdle(() => prefetchLanding("admin")), []);

  useEffect(() => {
    request<{ captcha: boolean }>({ url: "/admin/index/login", method: "get" }, { showErrorMessage: false, showCodeMessage: false }).then(
      (res) => setCaptchaNeeded(res.data.captcha),
      () => {},
    );
  }, []);

  async function send(captcha?: { captchaId: string; captchaInfo: string }) {
    setBusy(true);
    try {
      const answer = await postLogin<{ userInfo: AdminInfo; routePath?: string }>("/admin/index/login", { username, password, keep, ...captcha });
      useNavTabs.getState().reset();
      useAdminInfo.getState().dataFill(answer.userInfo);
      // The admin's menus and rules are asked for now, beside the back office's chunks, and
      // before the next page renders.
      await landingLoggedIn("admin");
      void navigate(answer.routePath || "/admin", { replace: true });
    } catch (error) {
      const refusal = serverRefusal(error);
      if (asksForCaptcha(error)) {
        setCaptchaNeeded(true);
        if (!captcha) setCaptchaOpen(true);
      }
      if (refusal?.msg) setErrors((e) => ({ ...e, password: refusal.msg }));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const u = validateAccount(username);
    const p = validatePassword(password);
    setErrors({ username: u && i18n._(u), password: p && i18n._(p) });
    if (u || p) return;
    if (captchaNeeded) setCaptchaOpen(true);
    else void send();
  }

  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-br from-slate-100 to-blue-100 dark:from-slate-950 dark:to-slate-900 dark:text-slate-100">
      <OfflineBanner />
      <div className="flex justify-end p-3">
        <LanguageSwitch />
      </div>
      <main className="flex flex-1 items-start justify-center px-4 pt-8 sm:items-center sm:pt-0">
        <form onSubmit={submit} noValidate className="w-full max-w-sm space-y-4 rounded-2xl bg-white p-6 shadow-lg dark:bg-slate-900">
          <div className="flex items-center gap-2">
            <GraduationCap aria-hidden className="size-7 text-primary" />
            <h1 className="text-xl font-semibold">
              <Trans>Back office login</Trans>
            </h1>
          </div>
          <Field label={t`Username`} name="username" autoComplete="username" value={username} error={errors.username} onChange={(e) => setUsername(e.target.value)} />
          <Field label={t`Password`} name="password" type="password" autoComplete="current-password" value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
          <label className="flex min-h-11 items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" checked={keep} onChange={(e) => setKeep(e.target.checked)} />
            <Trans>Keep me logged in</Trans>
          </label>
          <Button type="submit" variant="primary" disabled={busy} className="w-full">
            <Trans>Log in</Trans>
          </Button>
        </form>
        <ClickCaptcha open={captchaOpen} onOpenChange={setCaptchaOpen} onSuccess={(result) => void send(result)} />
      </main>
    </div>
  );
}
