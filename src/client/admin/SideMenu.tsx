import { createElement, useState, type MouseEvent, type ReactElement } from "react";
import { useLingui } from "@lingui/react/macro";
import { Tooltip } from "radix-ui";
import { ChevronRight, ExternalLink } from "lucide-react";
import { Link, useLocation } from "react-router-dom";
import { menuTarget, type MenuRule } from "../routing/menus.ts";
import { menuProblem } from "../routing/navigation.ts";
import { Button } from "../ui/Button.tsx";
import { toast } from "../ui/toast.ts";
import { menuIcon } from "./menuIcons.tsx";

// The menu's colours are the layout settings' (CSS custom properties; each text/background pair
// at least 4.5:1): the open page's entry in its own pair, marked by a bar of the primary colour.
const itemClass = (active: boolean, collapsed: boolean) =>
  `flex min-h-11 w-full items-center gap-3 rounded-md ${collapsed ? "justify-center px-0" : "px-3"} text-sm outline-none focus-visible:ring-2 focus-visible:ring-primary ${
    active
      ? "bg-(--menu-active-bg) font-medium text-(--menu-active-color) shadow-[inset_3px_0_0_var(--color-primary)]"
      : "text-(--menu-color) hover:bg-current/10"
  }`;

function RuleIcon({ rule }: { rule: MenuRule }) {
  // One of the static lucide components of menuIcons.tsx, chosen by the rule.
  return createElement(menuIcon(rule), { "aria-hidden": true, className: "size-5 shrink-0" });
}

/** The collapsed menu shows icons only: each gets its title as a tooltip (and as its name). */
function WithTooltip({ title, collapsed, children }: { title: string; collapsed: boolean; children: ReactElement }) {
  if (!collapsed) return children;
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content
          side="right"
          sideOffset={8}
          className="z-50 rounded-md bg-slate-900 px-2.5 py-1.5 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900"
        >
          {title}
          <Tooltip.Arrow className="fill-slate-900 dark:fill-slate-100" />
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

/**
 * A click on an entry that goes nowhere (SPEC §8's navigation messages): says why instead.
 * Returns whether it was stopped.
 */
function useNavigationCheck(rule: MenuRule) {
  const { i18n } = useLingui();
  const { pathname, search } = useLocation();
  return (event?: MouseEvent): boolean => {
    const problem = menuProblem(rule, "admin", { pathname, search });
    if (!problem) return false;
    event?.preventDefault();
    toast.message(i18n._(problem));
    return true;
  };
}

function Entry({ rule, collapsed, depth, onNavigate }: { rule: MenuRule; collapsed: boolean; depth: number; onNavigate?: () => void }) {
  const [open, setOpen] = useState(true);
  const check = useNavigationCheck(rule);
  const children = (rule.children ?? []).filter((c) => c.type !== "button");
  const label = collapsed ? rule.title : undefined;
  if (rule.type === "menu_dir") {
    return (
      <li>
        <WithTooltip title={rule.title} collapsed={collapsed}>
          <Button variant="bare" aria-expanded={open} aria-label={label} onClick={() => check() || setOpen(!open)} className={itemClass(false, collapsed)}>
            <RuleIcon rule={rule} />
            {!collapsed && <span className="flex-1 truncate text-left">{rule.title}</span>}
            {!collapsed && <ChevronRight aria-hidden className={`size-4 transition-transform ${open ? "rotate-90" : ""}`} />}
          </Button>
        </WithTooltip>
        {open && children.length > 0 && (
          <ul className={collapsed ? "" : "ml-3 border-l border-current/20 pl-2"}>
            {children.map((c) => (
              <Entry key={c.id} rule={c} collapsed={collapsed} depth={depth + 1} onNavigate={onNavigate} />
            ))}
          </ul>
        )}
      </li>
    );
  }
  const target = menuTarget(rule, "admin");
  if (target.kind === "external") {
    return (
      <li>
        <WithTooltip title={rule.title} collapsed={collapsed}>
          <a href={target.to} target="_blank" rel="noopener noreferrer" aria-label={label} onClick={check} className={itemClass(false, collapsed)}>
            <ExternalLink aria-hidden className="size-5 shrink-0" />
            {!collapsed && <span className="truncate">{rule.title}</span>}
          </a>
        </WithTooltip>
      </li>
    );
  }
  return (
    <li>
      <MenuLink rule={rule} to={target.to} collapsed={collapsed} onNavigate={onNavigate} />
    </li>
  );
}

/**
 * A menu route's entry. Its state is worked out here rather than by NavLink, whose className
 * function the tooltip's trigger (a Radix Slot, merging class strings) would drop.
 */
function MenuLink({ rule, to, collapsed, onNavigate }: { rule: MenuRule; to: string; collapsed: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const check = useNavigationCheck(rule);
  const active = pathname === to || pathname.startsWith(`${to}/`);
  return (
    <WithTooltip title={rule.title} collapsed={collapsed}>
      <Link to={to} aria-current={active ? "page" : undefined} aria-label={collapsed ? rule.title : undefined} onClick={(e) => {
          check(e);
          onNavigate?.();
        }} className={itemClass(active, collapsed)}>
        <RuleIcon rule={rule} />
        {!collapsed && <span className="truncate">{rule.title}</span>}
      </Link>
    </WithTooltip>
  );
}

/**
 * The side menu built from the admin's menu rules (buttons are permission nodes, not entries).
 * Collapsed, it shows each rule's icon with its title as a tooltip.
 */
export function SideMenu({ menus, collapsed, onNavigate }: { menus: MenuRule[]; collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useLingui();
  return (
    <Tooltip.Provider delayDuration={150}>
      <nav aria-label={t`Back office menu`} className="flex-1 overflow-y-auto p-2">
        <ul className="space-y-0.5">
          {menus.map((rule) => (
            <Entry key={rule.id} rule={rule} collapsed={collapsed} depth={0} onNavigate={onNavigate} />
          ))}
        </ul>
      </nav>
    </Tooltip.Provider>
  );
}
