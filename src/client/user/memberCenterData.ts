import { request } from "../api/index.ts";
import { authNodes, firstRoute, menuRoutes, type MenuRule } from "../routing/menus.ts";
import { useMemberCenter } from "../stores/memberCenter.ts";
import { useSiteConfig, type SiteConfig } from "../stores/siteConfig.ts";
import { useUserInfo, type UserInfo } from "../stores/userInfo.ts";

interface MemberIndex {
  siteConfig: Partial<SiteConfig>;
  userInfo: Partial<UserInfo>;
  menus: MenuRule[];
}

/** Loads the member center (site config, member info, menus and permission nodes); answers the first menu's path. */
export async function loadMemberCenter(): Promise<string | undefined> {
  const res = await request<MemberIndex>({ url: "/api/index/index", method: "get", params: { requiredLogin: 1 } });
  const { siteConfig, userInfo, menus } = res.data;
  useSiteConfig.getState().dataFill({ ...siteConfig, userInitialize: true });
  // Keep the stored tokens: the index never sends the refresh token.
  const { token: _t, refresh_token: _r, ...info } = userInfo;
  useUserInfo.getState().dataFill(info);
  useMemberCenter.getState().setMenus(menus, menuRoutes(menus, "user"), authNodes(menus, "user"));
  return firstRoute(menus, "user");
}

let pending: Promise<string | undefined> | undefined;
/** The load the router started with the page, and when: /user/loading takes it instead of asking again. */
let early: { load: Promise<string | undefined>; at: number } | undefined;
/** How long the page's early load stands in for /user/loading's own. */
const EARLY_MS = 10_000;

/** Loads the member center, or joins the load under way. */
function load(): Promise<string | undefined> {
  pending ??= loadMemberCenter().finally(() => {
    pending = undefined;
  });
  return pending;
}

/**
 * Starts loading the member center with a /user page's chunks, when this page has not loaded it
 * (the router's loader: app/prefetch.ts): the page's screen waits for it (routing/DynamicRoute.tsx).
 */
export function startMemberCenter(): void {
  if (useMemberCenter.getState().loaded || pending) return;
  early = { load: load(), at: Date.now() };
  early.load.catch(() => undefined);
}

/**
 * What /user/loading waits for: the load the page started with (once, within a few seconds: a
 * second identical request would cancel the first, api/http.ts, and the first may have been
 * answered just before /user/loading opened), else a load of its own. A failure is the
 * caller's to meet; the next call asks again.
 */
export function memberCenterReady(): Promise<string | undefined> {
  const started = early;
  early = undefined;
  if (started && Date.now() - started.at < EARLY_MS) return started.load;
  return load();
}
