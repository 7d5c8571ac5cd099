import { lazy } from "react";
import type { ScreenRegistry } from "../routing/DynamicRoute.tsx";

/** Back-office screens by the `component` key of their menu rule; others show "coming soon". */
export const adminScreens: ScreenRegistry = {
  dashboard: lazy(() => import("./Dashboard.tsx")),
};
