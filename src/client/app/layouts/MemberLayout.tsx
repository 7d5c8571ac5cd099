import { Trans, useLingui } from "@lingui/react/macro";
import { GraduationCap, LogIn, Menu } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link, Outlet, useLocation } from "react-router-dom";
import { withCommonCatalog } from "../../i18n/index.ts";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { SiteFooter } from "./SiteFooter.tsx";
import { useUserInfo } from "../../stores/userInfo.ts";
import { Button } from "../../ui/Button.tsx";
import { LanguageSwitch } from "../../ui/LanguageSwitch.tsx";
import { OfflineBanner } from "../../ui/OfflineBanner.tsx";
import { OnlineIndicator } from "../../ui/OnlineIndicator.tsx";
import { PHONE_MENU_BUTTON } from "./headerStyles.ts";
import { MainLinks, MenuDueBadge } from "./MainLinks.tsx";

// The offline module (Dexie, the sync engine) loads only once a member is signed in.
const MemberSync = lazy(withCommonCatalog(() => import("./MemberSync.tsx")));
// The account menu (Radix DropdownMenu and its popper) is for signed-in members only.
const AccountDropdown = lazy(withCommonCatalog(() => import("./AccountDropdown.tsx")));
// The notices' bell (Radix Popover): signed-in members only.
const NoticeBell = lazy(withCommonCatalog(() => import("./NoticeBell.tsx")));
// The phone menu's sheet (Radix Dialog) loads when its button is first pointed at or used.
const loadPhoneMenu = withCommonCatalog(() => import("./PhoneMenuSheet.tsx"));
const PhoneMenuSheet = lazy(loadPhoneMenu);


const navClass = ({ isActive }: { isActive: boolean }) =>
  `inline-flex min-h-11 items-center rounded-md px-3 text-sm ${isActive ? "bg-blue-50 font-medium text-primary dark:bg-slate-800" : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"}`;

function AccountMenu() {
  const loggedIn = useUserInfo((s) => Boolean(s.id && s.token));
  if (!loggedIn) {
    return (
      <Link to="/" className="inline-flex min-h-11 items-center gap-1.5 rounded-md px-3 text-sm text-primary hover:bg-blue-50">
        <LogIn aria-hidden className="size-4" />
        <Trans>Log in</Trans>
      </Link>
    );
  }
  return (
    <Suspense fallback={null}>
      <AccountDropdown />
    </Suspense>
  );
}

/**
 * The phone's header menu: navigation, language and account behind one button, so the header
 * stays one row. It closes when a page is chosen (it is open only on the page it was opened on).
 * Until the button is first used it is a plain button (the sheet's code loads then).
 */
function PhoneMenu() {
  const { t } = useLingui();
  const { pathname } = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const [used, setUsed] = useState(false);
  const button = (
    <Button
      {...PHONE_MENU_BUTTON}
      aria-haspopup="dialog"
      onPointerEnter={() => void loadPhoneMenu()}
      onFocus={() => void loadPhoneMenu()}
      onClick={() => {
        setUsed(true);
        setOpenAt(pathname);
      }}
    >
      <Menu aria-hidden className="size-6" />
      <span className="sr-only">{t`Menu`}</span>
      <MenuDueBadge />
    </Button>
  );
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <PhoneMenuSheet open={openAt === pathname} onOpenChange={(open) => setOpenAt(open ? pathname : null)} close={() => setOpenAt(null)} />
    </Suspense>
  );
}

/**
 * The site's name in the header, subscribed on its own: the site config the app refreshes after
 * the first screen redraws this text, not the whole layout in one task.
 */
function SiteName() {
  const siteName = useSiteConfig((s) => s.siteName) || "ExamHub";
  return <span className="truncate">{siteName}</span>;
}

/** Member side: header with navigation, account menu, language switch, online status. */
export default function MemberLayout() {
  const { t } = useLingui();
  const memberId = useUserInfo((s) => (s.id && s.token ? s.id : 0));
  const signedOut = useUserInfo((s) => !s.id);
  useEffect(() => {
    // Nobody signed in: finish clearing the previous member's cached course data and videos (a
    // logout reloads the page, which may have cut the clean-up short). Loaded when needed: not
    // part of the login screen's first download.
    if (signedOut) void import("../../pwa/caches.ts").then(({ releaseMemberCaches }) => releaseMemberCaches(), () => {});
  }, [signedOut]);
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
        {/* One row on every screen: a phone keeps the logo and the sync status and puts the
            navigation, language and account behind the menu button. */}
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-x-2 px-4 py-1 sm:gap-x-4">
          <Link to="/" className="flex min-h-11 min-w-0 items-center gap-2 text-lg font-semibold">
            <GraduationCap aria-hidden className="size-6 shrink-0 text-primary" />
            <SiteName />
          </Link>
          <nav aria-label={t`Main`} className="hidden gap-1 sm:flex">
            <MainLinks className={navClass} />
          </nav>
          <div className="flex shrink-0 items-center gap-2 sm:gap-3">
            {memberId ? (
              <Suspense fallback={null}>
                <MemberSync memberId={memberId} />
              </Suspense>
            ) : null}
            <OnlineIndicator />
            {memberId ? (
              <Suspense fallback={null}>
                <NoticeBell memberId={memberId} />
              </Suspense>
            ) : null}
            <div className="hidden items-center gap-3 sm:flex">
              <LanguageSwitch />
              <AccountMenu />
            </div>
            <PhoneMenu />
          </div>
        </div>
        <OfflineBanner />
      </header>
      {/* At least a screen high: the footer starts below the fold, so a screen that grows as its
          data arrives does not push a footer in view down (Lighthouse counted that as layout shift). */}
      <main className="mx-auto min-h-screen w-full max-w-5xl flex-1 px-4 py-6">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
