import { useEffect, useMemo, useRef, type ComponentType, type ReactNode } from "react";
import { useLingui } from "@lingui/react/macro";
import { ContextMenu, DropdownMenu } from "radix-ui";
import { ChevronDown, X } from "lucide-react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { useNavTabs } from "../stores/navTabs.ts";
import { usePick } from "../stores/pick.ts";
import { Button, buttonClass, selectedClass } from "../ui/Button.tsx";
import { confirmLeave } from "../ui/leaveGuard.tsx";

const MENU_CLASS = "z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
const ITEM_CLASS =
  "flex min-h-9 cursor-pointer items-center rounded px-3 text-sm outline-none data-[disabled]:cursor-default data-[disabled]:opacity-50 data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800";

/**
 * The admin tab bar (SPEC §2): one tab per open addtab route, persisted. The tabs are links to
 * pages (not ARIA tabs: there is no tab panel), in a navigation landmark, each followed by its
 * close button; the open page's tab is marked `aria-current` and kept scrolled into view. A tab's
 * label is its menu route's title, so it follows the language the menus were loaded in. The
 * strip's menu and each tab's context menu close the other tabs or all of them.
 */
export function TabBar() {
  const { t } = useLingui();
  const { tabs, routes, close, closeOthers, closeAll } = usePick(useNavTabs, "tabs", "routes", "close", "closeOthers", "closeAll");
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const listRef = useRef<HTMLUListElement>(null);
  const titles = useMemo(() => new Map(routes.map((r) => [r.path, r.title])), [routes]);

  useEffect(() => {
    // The whole tab, its close button included.
    const active = listRef.current?.querySelector<HTMLElement>('[aria-current="page"]')?.closest("li");
    if (active && typeof active.scrollIntoView === "function") active.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname, tabs.length]);

  if (tabs.length === 0) return null;

  const onClose = (path: string) => {
    if (path !== pathname) {
      close(path);
      return;
    }
    // Closing the open page's tab leaves it: a form with unsaved changes asks first, before the tab goes.
    confirmLeave(() => {
      const next = close(path);
      void navigate(next ? next.path + next.search : "/admin");
    });
  };
  /** Keeps only `tab` open, showing it when the page open now was one of those closed (asking first if it holds unsaved work). */
  const onCloseOthers = (tab: { path: string; search: string }) => {
    if (tab.path === pathname) closeOthers(tab.path);
    else
      confirmLeave(() => {
        closeOthers(tab.path);
        void navigate(tab.path + tab.search);
      });
  };
  const onCloseAll = () =>
    confirmLeave(() => {
      closeAll();
      void navigate("/admin");
    });

  return (
    <nav aria-label={t`Open pages`} className="flex items-center gap-1 border-b border-slate-200 bg-white px-2 dark:border-slate-700 dark:bg-slate-900">
      {/* The strip scrolls sideways (a swipe, a trackpad, the open tab kept in view) without a
          scrollbar of its own: a native bar would take a row's height under a single line of tabs. */}
      <ul ref={listRef} className="flex min-w-0 flex-1 gap-1 overflow-x-auto py-1 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden">
        {tabs.map((tab) => {
          const active = tab.path === pathname;
          const title = titles.get(tab.path) ?? tab.path;
          return (
            <ContextMenu.Root key={tab.path}>
              <ContextMenu.Trigger asChild>
                <li
                  data-testid="admin-tab"
                  className={`flex shrink-0 items-center rounded-md text-sm ${active ? selectedClass : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"}`}
                >
                  <Link
                    aria-current={active ? "page" : undefined}
                    to={tab.path + tab.search}
                    className="flex min-h-9 items-center rounded-md px-3 outline-none focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-offset-1"
                  >
                    {title}
                  </Link>
                  <Button variant="bare" aria-label={t`Close ${title}`} onClick={() => onClose(tab.path)} className="mr-1 rounded p-1 hover:bg-black/10">
                    <X aria-hidden className="size-3.5" />
                  </Button>
                </li>
              </ContextMenu.Trigger>
              {/* A tab's own menu (right click, or the context-menu key): this tab, the others, all. */}
              <ContextMenu.Portal>
                <ContextMenu.Content className={MENU_CLASS}>
                  <ContextMenu.Item onSelect={() => onClose(tab.path)} className={ITEM_CLASS}>
                    {t`Close ${title}`}
                  </ContextMenu.Item>
                  <CloseTabsItems Item={ContextMenu.Item} othersDisabled={tabs.length < 2} onCloseOthers={() => onCloseOthers(tab)} onCloseAll={onCloseAll} />
                </ContextMenu.Content>
              </ContextMenu.Portal>
            </ContextMenu.Root>
          );
        })}
      </ul>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger aria-label={t`Tab actions`} className={buttonClass("ghost", "", "iconSm")}>
          <ChevronDown aria-hidden className="size-4" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" className={MENU_CLASS}>
            <CloseTabsItems Item={DropdownMenu.Item} onCloseOthers={() => closeOthers(pathname)} onCloseAll={onCloseAll} />
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </nav>
  );
}

/** "Close other tabs" and "Close all tabs", as items of the menu they are in (a tab's context menu, the strip's menu). */
function CloseTabsItems({
  Item,
  othersDisabled,
  onCloseOthers,
  onCloseAll,
}: {
  Item: ComponentType<{ disabled?: boolean; onSelect?: () => void; className?: string; children: ReactNode }>;
  othersDisabled?: boolean;
  onCloseOthers: () => void;
  onCloseAll: () => void;
}) {
  const { t } = useLingui();
  return (
    <>
      <Item disabled={othersDisabled} onSelect={onCloseOthers} className={ITEM_CLASS}>
        {t`Close other tabs`}
      </Item>
      <Item onSelect={onCloseAll} className={ITEM_CLASS}>
        {t`Close all tabs`}
      </Item>
    </>
  );
}
