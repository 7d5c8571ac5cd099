import { create } from "zustand";
import type { MenuRoute, MenuRule } from "../../shared/menus.ts";

/** The member center's menus and permission nodes (loaded by /user/loading each page load). */
interface MemberCenterStore {
  menus: MenuRule[];
  routes: MenuRoute[];
  authNode: Map<string, string[]>;
  loaded: boolean;
  setMenus(menus: MenuRule[], routes: MenuRoute[], authNode: Map<string, string[]>): void;
  reset(): void;
}

export const useMemberCenter = create<MemberCenterStore>()((set) => ({
  menus: [],
  routes: [],
  authNode: new Map(),
  loaded: false,
  setMenus: (menus, routes, authNode) => set({ menus, routes, authNode, loaded: true }),
  reset: () => set({ menus: [], routes: [], authNode: new Map(), loaded: false }),
}));
