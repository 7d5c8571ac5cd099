import { AREA_BASE, type Area, type MenuRoute, type MenuRule } from "../../shared/menus.ts";

export { AREA_BASE, type Area, type MenuRoute, type MenuRule };

/** Where a menu entry opens: a tab route, an iframe route, or an outside link. */
export function menuTarget(rule: MenuRule, area: Area): { kind: "route" | "external"; to: string } {
  const base = AREA_BASE[area];
  if (rule.menu_type === "link") return { kind: "external", to: rule.url };
  if (rule.menu_type === "iframe") return { kind: "route", to: `${base}/iframe/${encodeURIComponent(rule.url)}` };
  const path = rule.path.replace(/^\/+/, "");
  return { kind: "route", to: path.startsWith(base.slice(1) + "/") ? `/${path}` : `${base}/${path}` };
}


export function menuRoutes(rules: MenuRule[], area: Area): MenuRoute[] {
  const out: MenuRoute[] = [];
  const walk = (list: MenuRule[]) => {
    for (const rule of list) {
      if (rule.type === "menu" && rule.menu_type !== "link") {
        const target = menuTarget(rule, area);
        out.push({
          path: target.to,
          name: rule.name,
          title: rule.title,
          component: rule.component,
          keepalive: Boolean(rule.keepalive),
          menuType: rule.menu_type === "iframe" ? "iframe" : "tab",
          url: rule.url,
          addtab: true,
        });
      }
      if (rule.children?.length) walk(rule.children);
    }
  };
  walk(rules);
  return out;
}

/**
 * Permission nodes (SPEC §6): for each menu route, the node paths of its buttons
 * (`{base}/{button.name}`), e.g. '/admin/auth/admin' -> ['/admin/auth/admin/add', ...].
 */
export function authNodes(rules: MenuRule[], area: Area): Map<string, string[]> {
  const nodes = new Map<string, string[]>();
  const base = AREA_BASE[area];
  const walk = (list: MenuRule[]) => {
    for (const rule of list) {
      if (rule.type === "menu") {
        const path = menuTarget(rule, area).to;
        const buttons = (rule.children ?? []).filter((c) => c.type === "button").map((c) => `${base}/${c.name.replace(/^\/+/, "")}`);
        nodes.set(path, buttons);
      }
      if (rule.children?.length) walk(rule.children.filter((c) => c.type !== "button"));
    }
  };
  walk(rules);
  return nodes;
}

/** The first openable route of a menu tree (where /admin lands after loading). */
export function firstRoute(rules: MenuRule[], area: Area): string | undefined {
  return menuRoutes(rules, area)[0]?.path;
}
