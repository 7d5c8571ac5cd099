import { useLingui } from "@lingui/react/macro";
import { DropdownMenu } from "radix-ui";
import { ChevronDown, X } from "lucide-react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { useNavTabs } from "../stores/navTabs.ts";

/** The admin tab bar (SPEC §2): one tab per open addtab route, persisted. */
export function TabBar() {
  const { t } = useLingui();
  const tabs = useNavTabs((s) => s.tabs);
  const close = useNavTabs((s) => s.close);
  const closeOthers = useNavTabs((s) => s.closeOthers);
  const closeAll = useNavTabs((s) => s.closeAll);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (tabs.length === 0) return null;

  const onClose = (path: string) => {
    const next = close(path);
    if (path === pathname) void navigate(next ? next.path + next.search : "/admin");
  };

  return (
    <div className="flex items-center gap-1 border-b border-slate-200 bg-white px-2 dark:border-slate-700 dark:bg-slate-900">
      <ul role="tablist" aria-label={t`Open pages`} className="flex min-w-0 flex-1 gap-1 overflow-x-auto py-1">
        {tabs.map((tab) => {
          const active = tab.path === pathname;
          const title = tab.title;
          return (
            <li key={tab.path} role="presentation" className={`flex shrink-0 items-center rounded-md text-sm ${active ? "bg-primary text-white" : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"}`}>
              <Link role="tab" aria-selected={active} to={tab.path + tab.search} className="flex min-h-9 items-center px-3">
                {tab.title}
              </Link>
              <button type="button" aria-label={t`Close ${title}`} onClick={() => onClose(tab.path)} className="mr-1 rounded p-1 hover:bg-black/10">
                <X aria-hidden className="size-3.5" />
              </button>
            </li>
          );
        })}
      </ul>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger aria-label={t`Tab actions`} className="rounded p-2 hover:bg-slate-100 dark:hover:bg-slate-800">
          <ChevronDown aria-hidden className="size-4" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
            <DropdownMenu.Item onSelect={() => closeOthers(pathname)} className="flex min-h-9 cursor-pointer items-center rounded px-3 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800">
              {t`Close other tabs`}
            </DropdownMenu.Item>
            <DropdownMenu.Item
              onSelect={() => {
                closeAll();
                void navigate("/admin");
              }}
              className="flex min-h-9 cursor-pointer items-center rounded px-3 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800"
            >
              {t`Close all tabs`}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
