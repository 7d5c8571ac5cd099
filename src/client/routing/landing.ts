import type { Area } from "./menus.ts";

/** An area's landing: the first page after login, which the router (app/router.tsx) describes. */
export interface Landing {
  /** Downloads the chunks the first page after login needs. */
  prefetch(): Promise<unknown>;
  /** Starts what the first page needs from the server, now that the login is answered. */
  loggedIn(): Promise<unknown>;
}

const landings = new Map<Area, Landing>();

/** The router says what an area's landing is (the login pages cannot import the router). */
export function setLanding(area: Area, landing: Landing): void {
  landings.set(area, landing);
}

/**
 * Starts downloading an area's landing now (a login page, once it is idle: the chunks come while
 * the admin types, not one level after another after the click). A failure is left for the
 * navigation to meet.
 */
export function prefetchLanding(area: Area): void {
  void landings.get(area)?.prefetch().catch(() => undefined);
}

/**
 * The login is answered: the landing asks the server for its data beside its chunks. Resolves
 * once those requests are sent (a login page awaits it before navigating, so that rendering the
 * next page, a long task on a slow phone, does not hold them back). A failure is left for the
 * landing to meet.
 */
export function landingLoggedIn(area: Area): Promise<void> {
  return Promise.resolve(landings.get(area)?.loggedIn()).then(
    () => undefined,
    () => undefined,
  );
}
