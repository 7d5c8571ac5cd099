import { request } from "../api/index.ts";
import { authNodes, firstRoute, menuRoutes, type MenuRule } from "../routing/menus.ts";
import { onLanguageChange } from "../i18n/index.ts";
import { useAdminInfo, type AdminInfo } from "../stores/adminInfo.ts";
import { useNavTabs } from "../stores/navTabs.ts";
import { useSiteConfig, type SiteConfig } from "../stores/siteConfig.ts";
import type { TerminalIndex } from "../../shared/terminal.ts";
import { useTerminal } from "./terminal/store.ts";

interface AdminIndex {
  adminInfo: Partial<AdminInfo>;
  menus: MenuRule[];
  siteConfig: Partial<SiteConfig>;
  terminal?: Partial<TerminalIndex>;
}

/** Loads the admin's data (info, menus, permission nodes, site config); returns the first menu route. */
export async function loadAdmin(): Promise<string | undefined> {
  const res = await request<AdminIndex>({ url: "/admin/index/index", method: "get" });
  const { adminInfo, menus, siteConfig, terminal } = res.data;
  // The index repeats the access token but never the refresh token: keep the stored ones.
  const { token: _t, refresh_token: _r, ...info } = adminInfo;
  useAdminInfo.getState().dataFill(info);
  useSiteConfig.getState().dataFill({ ...siteConfig, initialize: true });
  useTerminal.getState().setServerConfig({ packageManager: terminal?.npmPackageManager, port: terminal?.installServicePort });
  useNavTabs.getState().setMenus(menus, menuRoutes(menus, "admin"), authNodes(menus, "admin"));
  return firstRoute(menus, "admin");
}

/** A load of the admin's data begun at login (loadAdminEarly), for the loading screen to take. */
let early: Promise<string | undefined> | null = null;

/**
 * Starts loading the admin's data now, as the login is answered: it then travels beside the
 * back office's chunks instead of after them. The loading screen takes this load (takeAdminLoad).
 */
export function loadAdminEarly(): void {
  early = loadAdmin();
  early.catch(() => undefined);
}

/** The load begun at login if there is one (once), else a new one: what the loading screen waits for. */
export function takeAdminLoad(): Promise<string | undefined> {
  const load = early ?? loadAdmin();
  early = null;
  return load;
}

/**
 * Reads the admin's menus and rules again (after a menu rule or group changed): the side menu,
 * routes and buttons follow at once, without a reload.
 */
export async function reloadAdminMenus(): Promise<void> {
  const res = await request<AdminIndex>({ url: "/admin/index/index", method: "get" }, { cancelDuplicateRequest: false });
  const { menus } = res.data;
  useNavTabs.getState().setMenus(menus, menuRoutes(menus, "admin"), authNodes(menus, "admin"));
}

// The menus (and the open tabs' labels) come translated by the server: asked for again in the new language.
onLanguageChange(() => {
  if (useNavTabs.getState().loaded) reloadAdminMenus().catch(() => undefined);
});

export async function logoutAdmin(): Promise<void> {
  const res = await request({ url: "/admin/index/logout", method: "post", data: { refreshToken: useAdminInfo.getState().getToken("refresh") } });
  if (res.code === 1) {
    useAdminInfo.getState().clear();
    useNavTabs.getState().reset();
    window.location.assign("/admin/login");
  }
}
