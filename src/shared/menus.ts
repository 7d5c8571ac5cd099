/** The back office's and member center's menu rules on the wire (API.md), and the routes the client derives from them. */

/** A menu rule as the server sends it (API.md). */
export interface MenuRule {
  id: number;
  pid: number;
  type: "menu_dir" | "menu" | "button";
  title: string;
  name: string;
  path: string;
  icon: string;
  menu_type: "tab" | "link" | "iframe" | null;
  url: string;
  component: string;
  keepalive: number | boolean;
  extend: string;
  children?: MenuRule[];
}

export type Area = "admin" | "user";
export const AREA_BASE: Record<Area, string> = { admin: "/admin", user: "/user" };

/** The routes a menu tree provides (menus of type 'menu' with a tab or iframe target). */
export interface MenuRoute {
  path: string;
  name: string;
  title: string;
  component: string;
  keepalive: boolean;
  menuType: "tab" | "iframe";
  url: string;
  /** Only such routes become admin tabs (SPEC §2). */
  addtab: boolean;
}
