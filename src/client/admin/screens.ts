import { lazy } from "react";
import type { ScreenRegistry } from "../routing/DynamicRoute.tsx";
import { definitionScreen } from "./crud/definitionScreen.tsx";

/**
 * Back-office screens by the `component` key of their menu rule; others show "coming soon".
 * A screen made from a CRUD definition (crud/types.ts) registers with
 * `definitionScreen(() => import("./<area>/<resource>.ts"))` from crud/definitionScreen.tsx.
 */
export const adminScreens: ScreenRegistry = {
  dashboard: lazy(() => import("./Dashboard.tsx")),
  "user/user": definitionScreen(() => import("./user/members.ts")),
  "user/group": definitionScreen(() => import("./user/groups.ts")),
  "user/rule": definitionScreen(() => import("./user/rules.ts")),
  "user/moneyLog": definitionScreen(() => import("./user/moneyLog.ts")),
  "user/scoreLog": definitionScreen(() => import("./user/scoreLog.ts")),
};
