import type { ScreenRegistry } from "../app/DynamicRoute.tsx";

/** Member-center screens by the `component` key of their menu rule. Later releases add theirs. */
export const userScreens: ScreenRegistry = {};
