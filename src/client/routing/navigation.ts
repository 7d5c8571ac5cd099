import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { menuTarget, type Area, type MenuRule } from "./menus.ts";

/** SPEC §8's navigation messages, for a menu entry that cannot take the member or admin anywhere. */
export const NAVIGATION_MESSAGES = {
  unknownType: msg`Navigation failed: the menu type is not recognised.`,
  alreadyThere: msg`Navigation failed: you are already on this page.`,
  invalidRoute: msg`Navigation failed: the menu's route is not valid.`,
  noChildMenu: msg`There is no menu under this one to go to.`,
} satisfies Record<string, MessageDescriptor>;

const KNOWN_TYPES = new Set<MenuRule["menu_type"]>(["tab", "link", "iframe", null]);

/**
 * Why following a menu entry goes nowhere (a message to show instead), or null when it can be
 * followed: a directory without entries, a menu type this app does not know (a newer module's),
 * a route without a path or an outside link without an address, or the page already shown.
 * `here` is the current path and query.
 */
export function menuProblem(rule: MenuRule, area: Area, here: { pathname: string; search: string }): MessageDescriptor | null {
  if (rule.type === "menu_dir") return (rule.children ?? []).some((c) => c.type !== "button") ? null : NAVIGATION_MESSAGES.noChildMenu;
  if (!KNOWN_TYPES.has(rule.menu_type)) return NAVIGATION_MESSAGES.unknownType;
  if (rule.menu_type === "link" || rule.menu_type === "iframe") {
    if (!rule.url.trim()) return NAVIGATION_MESSAGES.invalidRoute;
    if (rule.menu_type === "link") return null;
  } else if (!rule.path.replace(/^\/+|\/+$/g, "")) return NAVIGATION_MESSAGES.invalidRoute;
  const target = menuTarget(rule, area);
  return target.to === here.pathname && !here.search ? NAVIGATION_MESSAGES.alreadyThere : null;
}
