import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { DropdownMenu } from "radix-ui";
import { ChevronDown, GraduationCap, LogIn, UserRound } from "lucide-react";
import { useEffect } from "react";
import { Link, NavLink, Outlet } from "react-router-dom";
import { flushOfficialAttempts } from "../../features/exam/official.ts";
import { startOffline, useSyncStatus } from "../../offline/index.ts";
import { releaseMemberCaches } from "../../pwa/caches.ts";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { useUserInfo } from "../../stores/userInfo.ts";
import { LanguageSwitch } from "../../ui/LanguageSwitch.tsx";
import { OfflineBanner } from "../../ui/OfflineBanner.tsx";
import { OnlineIndicator } from "../../ui/OnlineIndicator.tsx";
import { logoutMember } from "../../user/session.ts";
import { RejectedChanges } from "./RejectedChanges.tsx";

const navClass = ({ isActive }: { isActive: boolean }) =>
  `inline-flex min-h-11 items-center rounded-md px-3 text-sm ${isActive ? "bg-blue-50 font-medium text-primary dark:bg-slate-800" : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"}`;

function AccountMenu() {
  const { t } = useLingui();
  const loggedIn = useUserInfo((s) => Boolean(s.id && s.token));
  const name = useUserInfo((s) => s.nickname || s.username);
  if (!loggedIn) {
    return (
      <Link to="/" className="inline-flex min-h-11 items-center gap-1.5 rounded-md px-3 text-sm text-primary hover:bg-blue-50">
        <LogIn aria-hidden className="size-4" />
        <Trans>Log in</Trans>
      </Link>
    );
  }
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="inline-flex min-h-11 items-center gap-1.5 rounded-md px-3 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary dark:hover:bg-slate-800">
        <UserRound aria-hidden className="size-4" />
        <span className="max-w-32 truncate">{name}</span>
        <ChevronDown aria-hidden className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className="z-50 min-w-44 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <DropdownMenu.Item asChild>
            <Link to="/user" className="flex min-h-11 items-center rounded px-3 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800">
              {t`Member center`}
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item
            onSelect={() => void logoutMember()}
            className="flex min-h-11 cursor-pointer items-center rounded px-3 text-sm text-red-700 outline-none data-[highlighted]:bg-red-50 dark:text-red-400 dark:data-[highlighted]:bg-slate-800"
          >
            {t`Log out`}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Answers waiting to sync, while there are any (clears itself when sync succeeds). */
function PendingBadge() {
  const { t } = useLingui();
  const { pending } = useSyncStatus();
  if (pending === 0) return null;
  return (
    <span role="status" className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
      {t`${plural(pending, { one: "# change waiting to sync", other: "# changes waiting to sync" })}`}
    </span>
  );
}

/** Member side: header with navigation, account menu, language switch, online status. */
export default function MemberLayout() {
  const { t } = useLingui();
  const memberId = useUserInfo((s) => (s.id && s.token ? s.id : 0));
  useEffect(() => {
    // The member's offline data and its sync engine (closed again on logout).
    if (memberId) startOffline(memberId);
  }, [memberId]);
  const signedOut = useUserInfo((s) => !s.id);
  useEffect(() => {
    // Nobody signed in: finish clearing the previous member's cached course data and videos (a
    // logout reloads the page, which may have cut the clean-up short).
    if (signedOut) void releaseMemberCaches();
  }, [signedOut]);
  useEffect(() => {
    // Official-exam answers left unsent when a page closed offline go out now and on reconnect.
    if (!memberId) return;
    const flush = () => void flushOfficialAttempts();
    flush();
    window.addEventListener("online", flush);
    return () => window.removeEventListener("online", flush);
  }, [memberId]);
  const siteName = useSiteConfig((s) => s.siteName) || "ExamHub";
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-4 px-4 py-1">
          <Link to="/" className="flex min-h-11 items-center gap-2 text-lg font-semibold">
            <GraduationCap aria-hidden className="size-6 text-primary" />
            {siteName}
          </Link>
          <nav aria-label={t`Main`} className="order-3 flex w-full gap-1 overflow-x-auto sm:order-none sm:w-auto">
            <NavLink to="/user/course/my_course" className={navClass}>
              {t`My courses`}
            </NavLink>
            <NavLink to="/exam/myTest" className={navClass}>
              {t`Exams`}
            </NavLink>
            <NavLink to="/user" end className={navClass}>
              {t`Member center`}
            </NavLink>
          </nav>
          <div className="flex items-center gap-3">
            <PendingBadge />
            <RejectedChanges />
            <OnlineIndicator />
            <LanguageSwitch />
            <AccountMenu />
          </div>
        </div>
        <OfflineBanner />
      </header>
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-6">
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 py-4 text-center text-xs text-slate-500 dark:border-slate-800">
        <Trans>ExamHub — courses and exams, online and offline</Trans>
      </footer>
    </div>
  );
}
