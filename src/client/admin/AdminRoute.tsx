import { useCallback } from "react";
import { DynamicRoute } from "../routing/DynamicRoute.tsx";
import type { MenuRoute } from "../routing/menus.ts";
import { useNavTabs } from "../stores/navTabs.ts";
import { adminScreens } from "./screens.ts";

/** Any other /admin path: a menu route of the admin's rules; tab routes open as tabs. */
export default function AdminRoute() {
  const loaded = useNavTabs((s) => s.loaded);
  const routes = useNavTabs((s) => s.routes);
  const open = useNavTabs((s) => s.open);
  const onOpen = useCallback(
    (route: MenuRoute, search: string) => open({ path: route.path, search, addtab: route.addtab }),
    [open],
  );
  return <DynamicRoute area="admin" loaded={loaded} routes={routes} registry={adminScreens} onOpen={onOpen} />;
}
