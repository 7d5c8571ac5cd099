import { Trans } from "@lingui/react/macro";
import { GraduationCap } from "lucide-react";
import { Link, Outlet } from "react-router-dom";
import { LanguageSwitch } from "../ui/LanguageSwitch.tsx";
import { OfflineBanner } from "../ui/OfflineBanner.tsx";

/** The app shell: header, offline banner, the current screen. */
export function Shell() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-2">
          <Link to="/" className="flex min-h-11 items-center gap-2 text-lg font-semibold text-slate-900">
            <GraduationCap aria-hidden className="size-6 text-primary" />
            ExamHub
          </Link>
          <LanguageSwitch />
        </div>
        <OfflineBanner />
      </header>
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-6">
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 py-4 text-center text-xs text-slate-500">
        <Trans>ExamHub — courses and exams, online and offline</Trans>
      </footer>
    </div>
  );
}
