import { useLayoutEffect, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { Dialog, DropdownMenu } from "radix-ui";
import { ChevronDown, GraduationCap, LayoutTemplate, Menu, Moon, Palette, PanelLeftClose, PanelLeftOpen, Sun, UserRound, UserRoundCog, X } from "lucide-react";
import { Link, Outlet, useLocation, useMatch } from "react-router-dom";
import { fullUrl } from "../../shared/url.ts";
import { useAdminInfo } from "../stores/adminInfo.ts";
import { useConfig } from "../stores/config.ts";
import { useNavTabs } from "../stores/navTabs.ts";
import { useSiteConfig } from "../stores/siteConfig.ts";
import { Button, buttonClass } from "../ui/Button.tsx";
import { ModalPanel } from "../ui/DialogFrame.tsx";
import { LanguageSwitch } from "../ui/LanguageSwitch.tsx";
import { OfflineBanner } from "../ui/OfflineBanner.tsx";
import { SMALL_SCREEN, useMediaQuery } from "../ui/useMediaQuery.ts";
import { LayoutSettings } from "./LayoutSettings.tsx";
import { logoutAdmin } from "./session.ts";
import { SideMenu } from "./SideMenu.tsx";
import { TabBar } from "./TabBar.tsx";
import { TerminalButton, TerminalPanel } from "./terminal/TerminalPanel.tsx";

/** The header's first button: collapses the side menu, or on a small screen opens the drawer. */
function MenuButton({ small, onOpenDrawer }: { small: boolean; onOpenDrawer: () => void }) {
  const { t } = useLingui();
  const collapsed = useConfig((s) => s.layout.menuCollapse);
  const setLayout = useConfig((s) => s.setLayout);
  if (small) {
    return (
      <Button variant="ghost" size="icon" aria-label={t`Open the menu`} aria-haspopup="dialog" onClick={onOpenDrawer}>
        <Menu aria-hidden className="size-5" />
      </Button>
    );
  }
  return (
    <Button variant="ghost" size="icon" aria-label={collapsed ? t`Expand the menu` : t`Collapse the menu`} onClick={() => setLayout("menuCollapse", !collapsed)}>
      {collapsed ? <PanelLeftOpen aria-hidden className="size-5" /> : <PanelLeftClose aria-hidden className="size-5" />}
    </Button>
  );
}

/**
 * The header's own colours (layout settings): its buttons and links take the header's text
 * colour, and a tint of it on hover, over whatever look their component gives them.
 */
const HEADER_CLASS =
  "flex h-14 items-center gap-1 border-b border-slate-200 bg-(--header-bg) px-2 text-(--header-color) dark:border-slate-700 [&_:is(button,a)]:text-(--header-color) [&_:is(button,a):hover]:bg-current/10";

function Header({ small, onOpenDrawer }: { small: boolean; onOpenDrawer: () => void }) {
  const { t } = useLingui();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const layout = useConfig((s) => s.layout);
  const setLayout = useConfig((s) => s.setLayout);
  const name = useAdminInfo((s) => s.nickname || s.username);
  const avatar = useAdminInfo((s) => s.avatar);
  const cdnUrl = useSiteConfig((s) => s.cdnUrl);
  const apiUrl = useSiteConfig((s) => s.apiUrl);
  // The terminal runs commands on the server: super admins only (the server checks too).
  const isSuper = useAdminInfo((s) => s.super);
  // The layout the layout button switches to.
  const mode = layout.layoutMode === "Default" ? "Classic" : "Default";
  return (
    <header className={HEADER_CLASS}>
      {/* The rail has no wider form to open. */}
      {(small || layout.layoutMode !== "Rail") && <MenuButton small={small} onOpenDrawer={onOpenDrawer} />}
      <div className="flex-1" />
      {/* The layout choice is about the side menu, which a small screen shows as a drawer. */}
      {!small && (
        <Button
          variant="ghost"
          size="icon"
          aria-label={layout.layoutMode === "Default" ? t`Switch to the classic layout` : t`Switch to the default layout`}
          onClick={() => setLayout("layoutMode", mode)}
        >
          <LayoutTemplate aria-hidden className="size-5" />
        </Button>
      )}
      {/* Only on a computer: a phone's header has no room for it (the page would widen past the screen). */}
      {!small && (
        <Button variant="ghost" size="icon" aria-label={t`Layout settings`} aria-haspopup="dialog" onClick={() => setSettingsOpen(true)}>
          <Palette aria-hidden className="size-5" />
        </Button>
      )}
      <LayoutSettings open={settingsOpen} onOpenChange={setSettingsOpen} />
      {isSuper && <TerminalButton />}
      <Button variant="ghost" size="icon" aria-label={layout.isDark ? t`Light mode` : t`Dark mode`} aria-pressed={layout.isDark} onClick={() => setLayout("isDark", !layout.isDark)}>
        {layout.isDark ? <Sun aria-hidden className="size-5" /> : <Moon aria-hidden className="size-5" />}
      </Button>
      <LanguageSwitch />
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          aria-label={small ? t`Account: ${name}` : undefined}
          className={buttonClass("ghost", "ml-1 text-sm")}
        >
          {avatar ? <img src={fullUrl(avatar, cdnUrl, apiUrl)} alt="" className="size-6 rounded-full object-cover" /> : <UserRound aria-hidden className="size-4" />}
          <span className="max-w-32 truncate max-sm:sr-only">{name}</span>
          <ChevronDown aria-hidden className="size-4" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={4} className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
            <DropdownMenu.Item asChild className="flex min-h-11 cursor-pointer items-center gap-2 rounded px-3 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800">
              <Link to="/admin/profile">
                <UserRoundCog aria-hidden className="size-4" />
                {t`My account`}
              </Link>
            </DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => void logoutAdmin()} className="flex min-h-11 cursor-pointer items-center rounded px-3 text-sm text-red-700 outline-none data-[highlighted]:bg-red-50 dark:text-red-400 dark:data-[highlighted]:bg-slate-800">
              {t`Log out`}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </header>
  );
}

function SuperAdminTerminal() {
  const isSuper = useAdminInfo((s) => s.super);
  return isSuper ? <TerminalPanel /> : null;
}

function Brand({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const siteName = useSiteConfig((s) => s.siteName) || "ExamHub";
  return (
    <Link to="/admin" onClick={onNavigate} aria-label={collapsed ? siteName : undefined} className="flex h-14 shrink-0 items-center gap-2 px-4 font-semibold">
      <GraduationCap aria-hidden className="size-6 shrink-0 text-primary" />
      {!collapsed && <span className="truncate">{siteName}</span>}
    </Link>
  );
}

/**
 * On small screens the side menu is a drawer (closed by default) that the header's menu button
 * opens; it closes when a page is chosen.
 */
function MenuDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  const menus = useNavTabs((s) => s.menus);
  return (
    <ModalPanel
      open={open}
      onOpenChange={onOpenChange}
      className="fixed inset-y-0 left-0 z-50 flex w-[min(18rem,85vw)] flex-col bg-(--menu-bg) text-(--menu-color) shadow-xl outline-none"
    >
      <Dialog.Title className="sr-only">{t`Back office menu`}</Dialog.Title>
      <div className="flex items-center justify-between pr-2">
        <Brand collapsed={false} onNavigate={() => onOpenChange(false)} />
        <Dialog.Close className={buttonClass("ghost", "", "icon")} aria-label={t`Close the menu`}>
          <X aria-hidden className="size-5" />
        </Dialog.Close>
      </div>
      <SideMenu menus={menus} collapsed={false} onNavigate={() => onOpenChange(false)} />
    </ModalPanel>
  );
}

/**
 * The back office (SPEC §2, §3): side menu from the admin's rules (260 px, 64 px collapsed; a
 * drawer on small screens), the layout mode, colours and tab bar of the layout settings, dark
 * mode. Until the admin's data is loaded only the loading screen shows.
 */
export default function AdminLayout() {
  const loaded = useNavTabs((s) => s.loaded);
  const menus = useNavTabs((s) => s.menus);
  const mode = useConfig((s) => s.layout.layoutMode);
  const collapsed = useConfig((s) => s.layout.menuCollapse || s.layout.layoutMode === "Rail");
  const showTabs = useConfig((s) => s.layout.showTabs);
  const width = useConfig((s) => s.menuWidth());
  const adminId = useAdminInfo((s) => s.id);
  // This admin's layout settings, before the frame is painted with another's.
  useLayoutEffect(() => useConfig.getState().loadAdminLayout(adminId), [adminId]);
  const small = useMediaQuery(SMALL_SCREEN);
  // The drawer is open on the page it was opened on: choosing a page (or going back) closes it.
  const { pathname } = useLocation();
  const [drawerOpenAt, setDrawerOpenAt] = useState<string | null>(null);
  const drawerOpen = small && drawerOpenAt === pathname;
  const setDrawerOpen = (open: boolean) => setDrawerOpenAt(open ? pathname : null);

  // The loading route keeps the bare frame until it has navigated on: switching frames under it
  // would mount it a second time, load twice and navigate twice (an unknown path's redirect to
  // /404 could then be overtaken and leave a blank page).
  const onLoadingRoute = useMatch("/admin/loading/:to?") !== null;
  if (!loaded || onLoadingRoute) {
    return (
      <div className="min-h-screen bg-slate-50 dark:bg-slate-950 dark:text-slate-100">
        <Outlet />
      </div>
    );
  }

  // The Default layout's floating cards need room: a small screen gets the plain frame.
  const floating = mode === "Default" && !small;
  return (
    <div data-layout={mode} className="flex h-screen bg-slate-100 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      {small ? (
        <MenuDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
      ) : (
        <aside
          style={{ width }}
          className={`flex shrink-0 flex-col bg-(--menu-bg) text-(--menu-color) transition-[width] ${
            floating ? "m-3 mr-0 rounded-xl shadow-sm" : "border-r border-slate-200 dark:border-slate-700"
          }`}
        >
          <Brand collapsed={collapsed} />
          <SideMenu menus={menus} collapsed={collapsed} />
        </aside>
      )}
      <div className={`flex min-w-0 flex-1 flex-col ${floating ? "m-3 overflow-hidden rounded-xl shadow-sm" : ""}`}>
        <Header small={small} onOpenDrawer={() => setDrawerOpen(true)} />
        <SuperAdminTerminal />
        <OfflineBanner />
        {showTabs && <TabBar />}
        {/* The screen's scroll area: focusable, so a keyboard can scroll a screen without controls (the dashboard's chart). */}
        <main tabIndex={0} className="flex-1 overflow-auto bg-slate-50 p-4 outline-none focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-inset dark:bg-slate-950">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
