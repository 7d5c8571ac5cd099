import type { QueryClient } from "@tanstack/react-query";
import { withCommonCatalog } from "../i18n/index.ts";
import { catalogueParams, courseQueries } from "../features/course/api.ts";
import { examQueries } from "../features/exam/api.ts";
import { preloadScreen } from "../routing/lazyScreen.ts";
import { startMemberCenter } from "../user/memberCenterData.ts";

export type { QueryClient } from "@tanstack/react-query";

/** The member center's screens, with the common catalog their messages need (as UserRoute's route loads them). */
const memberScreens = withCommonCatalog(() => import("../user/screens.ts"));

/**
 * What a member screen asks the server for first, started by its route's loader (app/router.tsx)
 * as the navigation starts, beside the screen's chunks, instead of once those have arrived and
 * the screen has rendered: on a phone's first visit each of those steps is a round trip and
 * more (Lighthouse's largest paint of the catalog waited for the menus, then the course list,
 * then a cover). Each fills the query cache the screen reads (or the member center's store);
 * nothing here shows anything or waits for anything.
 */

/** `/course/lesson?id=`: the course. */
export function courseDetail(client: QueryClient, url: URL): void {
  const id = Number(url.searchParams.get("id"));
  if (Number.isSafeInteger(id) && id > 0) void client.prefetchQuery(courseQueries.detail(id));
}

/** The exam tabs that list the rooms and banks (official exams, records). */
export function examCatalog(client: QueryClient): void {
  void client.prefetchQuery(examQueries.catalog());
}

/**
 * A member-center page (`/user/...`): its menus, which every such page waits for before it
 * opens its screen (routing/DynamicRoute.tsx; /user/loading then waits for the same request),
 * the chunk of the screen the path most likely opens, and the course catalogue's page when that
 * is the one asked for.
 */
export function memberCenter(client: QueryClient, url: URL): void {
  startMemberCenter();
  const key = url.pathname.slice("/user/".length).replace(/\/+$/, "");
  void memberScreens().then(({ userScreens }) => Object.hasOwn(userScreens, key) && preloadScreen(userScreens[key]), () => undefined);
  if (key === "course/index") void client.prefetchQuery(courseQueries.list(catalogueParams(url.searchParams)));
}
