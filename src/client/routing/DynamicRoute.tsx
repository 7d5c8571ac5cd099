import { Suspense, useEffect, useMemo, type ComponentType, type LazyExoticComponent } from "react";
import { Navigate, useLocation } from "react-router-dom";
import type { Area, MenuRoute } from "./menus.ts";
import { loadingPath, targetFromLocation } from "./routeState.ts";
import { useDynamicTitle } from "./routeState.ts";
import { Spinner } from "../ui/Spinner.tsx";
import ComingSoon from "./ComingSoon.tsx";
import { preloadScreen } from "./lazyScreen.ts";

/** Screens by the `component` key of their menu rule, each a lazy chunk. */
export type ScreenRegistry = Record<string, LazyExoticComponent<ComponentType>>;

/**
 * A route that comes from the server's menu rules (SPEC §2). Before the area's data is loaded,
 * it goes to `{base}/loading/{json of path and query}`; then it renders the menu's screen, or
 * /admin/401 (/401) when no menu of the admin's (member's) rules has this path but the app has its screen,
 * /404 when no screen has it either.
 */
export function DynamicRoute({
  area,
  loaded,
  routes,
  registry,
  onOpen,
}: {
  area: Area;
  loaded: boolean;
  routes: MenuRoute[];
  registry: ScreenRegistry;
  onOpen?: (route: MenuRoute, search: string) => void;
}) {
  const location = useLocation();
  const route = useMemo(() => routes.find((r) => r.path === location.pathname), [routes, location.pathname]);
  // The screen this app has under the path (its key is the path under the area).
  const key = location.pathname.slice(area === "admin" ? "/admin/".length : "/user/".length).replace(/\/+$/, "");
  useEffect(() => {
    // While the menu rules load, the screen they most likely open downloads beside them.
    if (!loaded && Object.hasOwn(registry, key)) preloadScreen(registry[key]);
  }, [loaded, registry, key]);
  const setTitle = useDynamicTitle((s) => s.set);
  useEffect(() => {
    if (route) {
      setTitle(route.title);
      onOpen?.(route, location.search);
    }
  }, [route, location.search, setTitle, onOpen]);

  if (!loaded) {
    const base = area === "admin" ? "/admin" : "/user";
    return <Navigate to={loadingPath(base, targetFromLocation(location.pathname, location.search))} replace />;
  }
  // Keyed by the location: should the same path be committed again, the redirect runs again.
  if (!route) {
    // A screen this app has that the rules do not open: 401.
    const refused = area === "admin" ? "/admin/401" : "/401";
    return <Navigate key={location.key} to={Object.hasOwn(registry, key) ? refused : "/404"} replace />;
  }
  const Screen = registry[route.component];
  if (!Screen) return <ComingSoon title={route.title} />;
  return (
    <Suspense fallback={<Spinner className="mx-auto my-16 size-8" />}>
      <Screen />
    </Suspense>
  );
}
