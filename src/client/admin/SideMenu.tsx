import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { ChevronRight, Circle, ExternalLink, Folder, LayoutDashboard } from "lucide-react";
import { NavLink } from "react-router-dom";
import { menuTarget, type MenuRule } from "../app/menus.ts";

const itemClass = (active: boolean, collapsed: boolean) =>
  `flex min-h-11 w-full items-center gap-3 rounded-md ${collapsed ? "justify-center px-0" : "px-3"} text-sm ${
    active ? "bg-primary/10 font-medium text-primary" : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
  }`;

function RuleIcon({ rule }: { rule: MenuRule }) {
  if (rule.type === "menu_dir") return <Folder aria-hidden className="size-4 shrink-0" />;
  if (rule.name === "dashboard") return <LayoutDashboard aria-hidden className="size-4 shrink-0" />;
  return <Circle aria-hidden className="size-3 shrink-0" />;
}

function Entry({ rule, collapsed, depth }: { rule: MenuRule; collapsed: boolean; depth: number }) {
  const [open, setOpen] = useState(true);
  const children = (rule.children ?? []).filter((c) => c.type !== "button");
  if (rule.type === "menu_dir") {
    return (
      <li>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className={itemClass(false, collapsed)} title={collapsed ? rule.title : undefined}>
          <RuleIcon rule={rule} />
          {!collapsed && <span className="flex-1 truncate text-left">{rule.title}</span>}
          {!collapsed && <ChevronRight aria-hidden className={`size-4 transition-transform ${open ? "rotate-90" : ""}`} />}
        </button>
        {open && children.length > 0 && (
          <ul className={collapsed ? "" : "ml-3 border-l border-slate-200 pl-2 dark:border-slate-700"}>
            {children.map((c) => (
              <Entry key={c.id} rule={c} collapsed={collapsed} depth={depth + 1} />
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
        <a href={target.to} target="_blank" rel="noopener noreferrer" className={itemClass(false, collapsed)} title={collapsed ? rule.title : undefined}>
          <ExternalLink aria-hidden className="size-4 shrink-0" />
          {!collapsed && <span className="truncate">{rule.title}</span>}
        </a>
      </li>
    );
  }
  return (
    <li>
      <NavLink to={target.to} className={({ isActive }) => itemClass(isActive, collapsed)} title={collapsed ? rule.title : undefined}>
        <RuleIcon rule={rule} />
        {!collapsed && <span className="truncate">{rule.title}</span>}
      </NavLink>
    </li>
  );
}

/** The side menu built from the admin's menu rules (buttons are permission nodes, not entries). */
export function SideMenu({ menus, collapsed }: { menus: MenuRule[]; collapsed: boolean }) {
  const { t } = useLingui();
  return (
    <nav aria-label={t`Back office menu`} className="flex-1 overflow-y-auto p-2">
      <ul className="space-y-0.5">
        {menus.map((rule) => (
          <Entry key={rule.id} rule={rule} collapsed={collapsed} depth={0} />
        ))}
      </ul>
    </nav>
  );
}
