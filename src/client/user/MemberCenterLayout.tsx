import { useEffect, useId, useRef, type MouseEvent } from "react";
import { useLingui } from "@lingui/react/macro";
import { ExternalLink } from "lucide-react";
import { NavLink, Outlet, useLocation } from "react-router-dom";
import { menuTarget, type MenuRule } from "../routing/menus.ts";
import { menuProblem } from "../routing/navigation.ts";
import { toast } from "../ui/toast.ts";
import { useMemberCenter } from "../stores/memberCenter.ts";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-11 shrink-0 items-center gap-2 rounded-md px-3 text-sm whitespace-nowrap outline-none focus-visible:ring-2 focus-visible:ring-primary md:whitespace-normal ${
    isActive
      ? "bg-blue-50 font-medium text-primary-strong dark:bg-slate-800 dark:text-blue-300"
      : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
  }`;

function MenuLink({ rule }: { rule: MenuRule }) {
  const { i18n } = useLingui();
  const here = useLocation();
  const target = menuTarget(rule, "user");
  // An entry that goes nowhere says why (SPEC §8's navigation messages).
  const check = (event: MouseEvent) => {
    const problem = menuProblem(rule, "user", here);
    if (!problem) return;
    event.preventDefault();
    toast.message(i18n._(problem));
  };
  if (target.kind === "external") {
    return (
      <a href={target.to} target="_blank" rel="noopener noreferrer" onClick={check} className={linkClass({ isActive: false })}>
        {rule.title}
        <ExternalLink aria-hidden className="size-3.5" />
      </a>
    );
  }
  return (
    <NavLink to={target.to} onClick={check} className={linkClass}>
      {rule.title}
    </NavLink>
  );
}

/** Menus that are entries (buttons are permission nodes, not entries). */
const entries = (rules: MenuRule[] | undefined) => (rules ?? []).filter((r) => r.type !== "button");

/** A menu level's items: a directory as a group of its own entries, any other rule as a link. */
function MenuItems({ rules }: { rules: MenuRule[] }) {
  return rules.map((rule) =>
    rule.type === "menu_dir" ? (
      <Group key={rule.id} rule={rule} />
    ) : (
      <li key={rule.id} className="shrink-0">
        <MenuLink rule={rule} />
      </li>
    ),
  );
}

function Group({ rule }: { rule: MenuRule }) {
  const headingId = useId();
  const children = entries(rule.children);
  if (children.length === 0) return null;
  return (
    <li className="flex shrink-0 items-center gap-1 md:block md:space-y-0.5">
      <h2
        id={headingId}
        className="sr-only px-3 pt-3 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase md:not-sr-only md:block dark:text-slate-300"
      >
        {rule.title}
      </h2>
      <ul aria-labelledby={headingId} className="flex gap-1 md:block md:space-y-0.5">
        <MenuItems rules={children} />
      </ul>
    </li>
  );
}

/**
 * The member center: its menu (directories of `menu` entries from the server's member rules)
 * beside the screen. On phones the menu is a horizontal scroller above the screen.
 */
export function MemberCenterLayout() {
  const { t } = useLingui();
  const menus = useMemberCenter((s) => s.menus);
  const navRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  // Keep the current entry in view in the phone scroller.
  useEffect(() => {
    const active = navRef.current?.querySelector<HTMLElement>('[aria-current="page"]');
    if (active && typeof active.scrollIntoView === "function") active.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname, menus]);

  const items = entries(menus);
  return (
    <div className="flex flex-col gap-4 md:flex-row md:items-start md:gap-6">
      {items.length > 0 && (
        <nav
          ref={navRef}
          aria-label={t`Member center menu`}
          className="-mx-4 overflow-x-auto border-b border-slate-200 bg-white px-4 py-1 md:sticky md:top-20 md:mx-0 md:w-56 md:shrink-0 md:overflow-visible md:rounded-xl md:border md:p-2 dark:border-slate-800 dark:bg-slate-900"
        >
          <ul className="flex gap-1 md:block md:space-y-1">
            <MenuItems rules={items} />
          </ul>
        </nav>
      )}
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
