import { useEffect } from "react";
import { AreaLoading } from "../routing/AreaLoading.tsx";
import { preloadScreen } from "../routing/lazyScreen.ts";
import { adminScreens } from "./screens.ts";
import { takeAdminLoad } from "./session.ts";

export default function AdminLoading() {
  // Most admins' first menu downloads while their menus load.
  useEffect(() => preloadScreen(adminScreens.dashboard), []);
  return <AreaLoading load={takeAdminLoad} fallback="/admin/dashboard" />;
}
