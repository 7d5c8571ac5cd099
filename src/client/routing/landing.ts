import type { Area } from "./menus.ts";

/** How to download each area's landing (its layout, loading screen and first screens), registered by the router. */
const landings = new Map<Area, () => Promise<unknown>>();

/** The router (app/router.tsx) says what an area's landing is: the chunks its first page after login needs. */
export function setLanding(area: Area, load: () => Promise<unknown>): void {
  landings.set(area, load);
}

/**
 * Starts downloading an area's landing now (a login page, once it is idle: the chunks come while
 * the admin types, not one level after another after the click). A failure is left for the
 * navigation to meet.
 */
export function prefetchLanding(area: Area): void {
  const load = landings.get(area);
  if (load) void load().catch(() => undefined);
}
