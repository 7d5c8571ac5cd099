import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import type { MenuRoute, MenuRule } from "../../shared/menus.ts";
import { STORE_TAB_VIEW } from "./keys.ts";

/**
 * One open admin tab. Its label is not stored: the tab bar takes it from the menu route of the
 * same path, so it follows the language the menus were loaded in (SPEC §1: a language change
 * reloads the page and the menus).
 */
export interface Tab {
  path: string;
  /** The query string of the tab's last visit, e.g. "?id=3". */
  search: string;
}

/**
 * Opens a tab for a route (SPEC §2): only routes flagged addtab become tabs; opening a path
 * that is already open updates that tab's query instead of adding a second one.
 */
export function addTab(tabs: Tab[], route: { path: string; search: string; addtab: boolean }): Tab[] {
  if (!route.addtab) return tabs;
  const i = tabs.findIndex((t) => t.path === route.path);
  if (i >= 0) {
    const existing = tabs[i]!;
    if (existing.search === route.search) return tabs;
    return tabs.map((t, j) => (j === i ? { ...t, search: route.search } : t));
  }
  return [...tabs, { path: route.path, search: route.search }];
}

/** Closes a tab; returns the tabs left and the tab to show next when the closed one was active. */
export function closeTab(tabs: Tab[], path: string): { tabs: Tab[]; next: Tab | undefined } {
  const i = tabs.findIndex((t) => t.path === path);
  if (i < 0) return { tabs, next: undefined };
  const rest = tabs.filter((_, j) => j !== i);
  return { tabs: rest, next: rest[i] ?? rest[i - 1] };
}

interface NavTabsStore {
  tabs: Tab[];
  /** The admin's menu tree and the routes and permission nodes derived from it. */
  menus: MenuRule[];
  routes: MenuRoute[];
  authNode: Map<string, string[]>;
  loaded: boolean;
  setMenus(menus: MenuRule[], routes: MenuRoute[], authNode: Map<string, string[]>): void;
  open(route: { path: string; search: string; addtab: boolean }): void;
  close(path: string): Tab | undefined;
  closeOthers(path: string): void;
  closeAll(): void;
  reset(): void;
}

export const useNavTabs = create<NavTabsStore>()(
  persist(
    (set, get) => ({
      tabs: [],
      menus: [],
      routes: [],
      authNode: new Map(),
      loaded: false,
      setMenus: (menus, routes, authNode) => {
        const known = new Set(routes.map((r) => r.path));
        // Tabs of routes the admin no longer has are dropped; a title stored by an older version
        // (in the language of that day) is dropped too.
        const tabs = get()
          .tabs.filter((t) => known.has(t.path))
          .map((t) => ({ path: t.path, search: t.search }));
        set({ menus, routes, authNode, loaded: true, tabs });
      },
      open: (route) => set({ tabs: addTab(get().tabs, route) }),
      close: (path) => {
        const { tabs, next } = closeTab(get().tabs, path);
        set({ tabs });
        return next;
      },
      closeOthers: (path) => set({ tabs: get().tabs.filter((t) => t.path === path) }),
      closeAll: () => set({ tabs: [] }),
      reset: () => set({ tabs: [], menus: [], routes: [], authNode: new Map(), loaded: false }),
    }),
    {
      name: STORE_TAB_VIEW,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ tabs: s.tabs }),
    },
  ),
);
