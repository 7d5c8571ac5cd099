import { useCallback } from "react";
import { request } from "../api/index.ts";
import { onLanguageChange } from "../i18n/index.ts";
import { AreaLoading } from "../routing/AreaLoading.tsx";
import { authNodes, firstRoute, menuRoutes, type MenuRule } from "../routing/menus.ts";
import { useMemberCenter } from "../stores/memberCenter.ts";
import { useSiteConfig, type SiteConfig } from "../stores/siteConfig.ts";
import { useUserInfo, type UserInfo } from "../stores/userInfo.ts";

interface MemberIndex {
  siteConfig: Partial<SiteConfig>;
  userInfo: Partial<UserInfo>;
  menus: MenuRule[];
}

/** Loads the member center (site config, member info, menus and permission nodes). */
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

// The member center's menus come translated by the server: asked for again in the new language.
onLanguageChange(() => {
  if (useMemberCenter.getState().loaded) loadMemberCenter().catch(() => undefined);
});

export default function UserLoading() {
  const load = useCallback(() => loadMemberCenter(), []);
  return <AreaLoading load={load} fallback="/user/course/my_course" />;
}
