import { useLingui } from "@lingui/react/macro";
import { DropdownMenu } from "radix-ui";
import { ChevronDown, GraduationCap, LayoutTemplate, Moon, PanelLeftClose, PanelLeftOpen, Sun, UserRound } from "lucide-react";
import { Link, Outlet } from "react-router-dom";
import { useAdminInfo } from "../stores/adminInfo.ts";
import { useConfig } from "../stores/config.ts";
import { useNavTabs } from "../stores/navTabs.ts";
import { useSiteConfig } from "../stores/siteConfig.ts";
import { LanguageSwitch } from "../ui/LanguageSwitch.tsx";
import { OfflineBanner } from "../ui/OfflineBanner.tsx";
import { logoutAdmin } from "./session.ts";
import { SideMenu } from "./SideMenu.tsx";
import { TabBar } from "./TabBar.tsx";

const iconButton = "inline-flex size-11 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary dark:text-slate-300 dark:hover:bg-slate-800";

function Header() {
  const { t } = useLingui();
  const layout = useConfig((s) => s.layout);
  const setLayout = useConfig((s) => s.setLayout);
  const name = useAdminInfo((s) => s.nickname || s.username);
  return (
    <header className="flex h-14 items-center gap-1 border-b border-slate-200 bg-white px-2 dark:border-slate-700 dark:bg-slate-900">
      <button type="button" className={iconButton} aria-label={layout.menuCollapse ? t`Expand the menu` : t`Collapse the menu`} onClick={() => setLayout("menuCollapse", !layout.menuCollapse)}>
        {layout.menuCollapse ? <PanelLeftOpen aria-hidden className="size-5" /> : <PanelLeftClose aria-hidden className="size-5" />}
      </button>
      <div className="flex-1" />
      <button
        type="button"
        className={iconButton}
        aria-label={layout.layoutMode === "Default" ? t`Switch to the classic layout` : t`Switch to the default layout`}
        onClick={() => setLayout("layoutMode", layout.layoutMode === "Default" ? "Classic" : "Default")}
      >
        <LayoutTemplate aria-hidden className="size-5" />
      </button>
      <button type="button" className={iconButton} aria-label={layout.isDark ? t`Light mode` : t`Dark mode`} aria-pressed={layout.isDark} onClick={() => setLayout("isDark", !layout.isDark)}>
        {layout.isDark ? <Sun aria-hidden className="size-5" /> : <Moon aria-hidden className="size-5" />}
      </button>
      <LanguageSwitch />
      <DropdownMenu.Root>
        <DropdownMenu.Trigger className="ml-1 inline-flex min-h-11 items-center gap-1.5 rounded-md px-3 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
          <UserRound aria-hidden className="size-4" />
          <span className="max-w-32 truncate">{name}</span>
          <ChevronDown aria-hidden className="size-4" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={4} className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
            <DropdownMenu.Item onSelect={() => void logoutAdmin()} className="flex min-h-11 cursor-pointer items-center rounded px-3 text-sm text-red-700 outline-none data-[highlighted]:bg-red-50 dark:text-red-400 dark:data-[highlighted]:bg-slate-800">
              {t`Log out`}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </header>
  );
}

function Brand({ collapsed }: { collapsed: boolean }) {
  const siteName = useSiteConfig((s) => s.siteName) || "ExamHub";
  return (
    <Link to="/admin" className="flex h-14 shrink-0 items-center gap-2 px-4 font-semibold">
      <GraduationCap aria-hidden className="size-6 shrink-0 text-primary" />
      {!collapsed && <span className="truncate">{siteName}</span>}
    </Link>
  );
}

/**
 * The back office (SPEC §2, §3): side menu from the admin's rules (260 px, 64 px collapsed),
 * Default or Classic layout, dark mode, tab bar. Until the admin's data is loaded only the
 * loading screen shows.
 */
export default function AdminLayout() {
  const loaded = useNavTabs((s) => s.loaded);
  const menus = useNavTabs((s) => s.menus);
  const mode = useConfig((s) => s.layout.layoutMode);
  const collapsed = useConfig((s) => s.layout.menuCollapse);
  const width = useConfig((s) => s.menuWidth());

  if (!loaded) {
    return (
      <div className="min-h-screen bg-slate-50 dark:bg-slate-950 dark:text-slate-100">
        <Outlet />
      </div>
    );
  }

  const aside = (
    <aside
      style={{ width }}
      className={`flex shrink-0 flex-col bg-white transition-[width] dark:bg-slate-900 ${
        mode === "Default" ? "m-3 mr-0 rounded-xl shadow-sm" : "border-r border-slate-200 dark:border-slate-700"
      }`}
    >
      <Brand collapsed={collapsed} />
      <SideMenu menus={menus} collapsed={collapsed} />
    </aside>
  );

  return (
    <div data-layout={mode} className="flex h-screen bg-slate-100 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      {aside}
      <div className={`flex min-w-0 flex-1 flex-col ${mode === "Default" ? "m-3 overflow-hidden rounded-xl shadow-sm" : ""}`}>
        <Header />
        <OfflineBanner />
        <TabBar />
        <main className="flex-1 overflow-auto bg-slate-50 p-4 dark:bg-slate-950">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
