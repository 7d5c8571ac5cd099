import { useEffect } from "react";
import { useLingui } from "@lingui/react/macro";
import { Navigate, useLocation, useParams } from "react-router-dom";
import { useMemberCenter } from "../../stores/memberCenter.ts";
import { useNavTabs } from "../../stores/navTabs.ts";
import { loadingPath, targetFromLocation, useDynamicTitle } from "../../routing/routeState.ts";

/**
 * Menu entries of type iframe: /admin/iframe/{encoded url} and /user/iframe/{encoded url}
 * (SPEC §2). Only the addresses of the area's own iframe menus are shown, so a crafted link
 * cannot frame another site inside the app; before the menus are loaded the route goes through
 * the area's loading route like any menu route, an address no menu has goes to /404.
 */
export default function IframePage() {
  const { url = "" } = useParams();
  const { t } = useLingui();
  const { pathname, search } = useLocation();
  const area = pathname.startsWith("/admin/") ? "admin" : "user";
  const admin = { loaded: useNavTabs((s) => s.loaded), routes: useNavTabs((s) => s.routes), open: useNavTabs((s) => s.open) };
  const member = { loaded: useMemberCenter((s) => s.loaded), routes: useMemberCenter((s) => s.routes) };
  const { loaded, routes } = area === "admin" ? admin : member;
  const route = routes.find((r) => r.menuType === "iframe" && r.url === url);
  const src = route ? safeUrl(route.url) : null;
  const setTitle = useDynamicTitle((s) => s.set);
  const openTab = admin.open;
  useEffect(() => {
    if (!route) return;
    setTitle(route.title);
    if (area === "admin") openTab({ path: route.path, search, addtab: route.addtab });
  }, [route, area, search, setTitle, openTab]);

  if (!loaded) return <Navigate to={loadingPath(area === "admin" ? "/admin" : "/user", targetFromLocation(pathname, search))} replace />;
  if (!route) return <Navigate key={pathname} to="/404" replace />;
  if (!src) return <p className="p-6 text-red-700">{t`This address cannot be shown.`}</p>;
  return <iframe title={route.title} src={src} className="h-[calc(100vh-8rem)] w-full rounded-md border-0 bg-white" />;
}

/** Only http(s) and same-origin paths: never javascript: or data: URLs. */
function safeUrl(raw: string): string | null {
  try {
    const u = new URL(raw, window.location.origin);
    return u.protocol === "http:" || u.protocol === "https:" ? u.toString() : null;
  } catch {
    return null;
  }
}
