import type { ComponentType } from "react";
import { msg } from "@lingui/core/macro";
import { Navigate, createBrowserRouter, matchRoutes, type LoaderFunctionArgs, type RouteObject } from "react-router-dom";
import { setNavigator } from "../api/index.ts";
import { loadAdminCatalog, loadMemberCatalog, withCommonCatalog } from "../i18n/index.ts";
import { InitialLoading, RootLayout } from "./RootLayout.tsx";
import { ROUTE_NAMES } from "../routing/routeNames.ts";
import type { QueryClient } from "./prefetch.ts";
import { setLanding } from "../routing/landing.ts";
import { preloadScreen } from "../routing/lazyScreen.ts";
import { useUserInfo } from "../stores/userInfo.ts";

/** Lazy screen: one chunk per screen. */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * A member screen's route: its chunk and the member catalog (src/client/i18n) load together, so
 * the screen never renders before its messages are there. The login page, 401 and 404 are in the
 * client catalog and do not wait for it.
 */
const withMemberCatalog =
  <T,>(lazy: () => Promise<T>) =>
  async (): Promise<T> =>
    (await Promise.all([lazy(), loadMemberCatalog()]))[0];
const memberScreen = (load: () => Promise<{ default: ComponentType }>) => withMemberCatalog(screen(load));

/**
 * The query cache's provider (app/queries.tsx) as a pathless layout route around every screen
 * that may read through TanStack Query; the first screens are outside it and do not load it.
 */
const queryLayout = withCommonCatalog(async () => ({ Component: (await import("./queries.tsx")).QueryLayout }));
const withQueries = (children: RouteObject[]): RouteObject => ({ lazy: queryLayout, children });

/**
 * A route's loader that starts its screen's first requests (app/prefetch.ts) as the navigation
 * starts, beside the screen's chunks and the query cache's, and waits for none of it: a
 * signed-in member's screen then finds its data asked for, or there. Routes inside withQueries only.
 */
const prefetch =
  <M,>(load: () => Promise<M>, start: (screen: M, client: QueryClient, url: URL) => void) =>
  ({ request }: LoaderFunctionArgs): null => {
    const { id, token } = useUserInfo.getState();
    if (id && token) {
      void Promise.all([withCommonCatalog(() => import("./queries.tsx"))(), load()])
        .then(([{ queryClient }, screen]) => start(screen, queryClient, new URL(request.url)))
        .catch(() => undefined);
    }
    return null;
  };

const examTabs: RouteObject[] = [
  { path: "/exam/examTab/sortPractice", handle: { title: msg`Sequential practice` }, lazy: memberScreen(() => import("../features/exam/BankOverview.tsx")) },
  { path: "/exam/examTab/mockTest", handle: { title: msg`Mock exam` }, lazy: memberScreen(() => import("../features/exam/MockTestTab.tsx")) },
  {
    path: "/exam/examTab/officialTest",
    handle: { title: msg`Official exam` },
    loader: prefetch(() => import("./prefetch.ts"), (screen, client) => screen.examCatalog(client)),
    lazy: memberScreen(() => import("../features/exam/OfficialTab.tsx")),
  },
  {
    path: "/exam/examTab/testRecord",
    handle: { title: msg`Exam records` },
    loader: prefetch(() => import("./prefetch.ts"), (screen, client) => screen.examCatalog(client)),
    lazy: memberScreen(() => import("../features/exam/RecordsTab.tsx")),
  },
  {
    path: "/exam/examTab/topicCollect",
    handle: { title: msg`Favourite questions` },
    lazy: withMemberCatalog(async () => ({ Component: (await import("../features/exam/QuestionListTab.tsx")).FavouritesTab })),
  },
  { path: "/exam/examTab/review", handle: { title: msg`Spaced review` }, lazy: memberScreen(() => import("../features/exam/ReviewTab.tsx")) },
  {
    path: "/exam/examTab/errorTopic",
    handle: { title: msg`My wrong questions` },
    lazy: withMemberCatalog(async () => ({ Component: (await import("../features/exam/QuestionListTab.tsx")).WrongBookTab })),
  },
];

/** Every route of SPEC §2. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Shown while the first screen's lazy routes load (the router warns without one).
    HydrateFallback: InitialLoading,
    children: [
      // Admin area.
      { path: "/admin/login", handle: { title: "pagesTitle.login" }, lazy: screen(() => import("../admin/AdminLoginPage.tsx")) },
      withQueries([
        {
          path: "/admin",
          // The back office's catalog comes with its layout (src/client/i18n): every admin screen renders inside it.
          lazy: async () => {
            const [layout] = await Promise.all([import("../admin/AdminLayout.tsx"), loadAdminCatalog()]);
            return { Component: layout.default };
          },
          handle: { title: "pagesTitle.admin" },
          children: [
            { index: true, element: <Navigate to="/admin/loading" replace /> },
            { path: "loading/:to?", handle: { title: "pagesTitle.loading" }, lazy: screen(() => import("../admin/AdminLoading.tsx")) },
            { path: "iframe/:url", handle: { title: "dynamic" }, lazy: withCommonCatalog(screen(() => import("./pages/IframePage.tsx"))) },
            // A screen the admin's rules do not open: said inside the back office, with its menu as the way on.
            { path: "401", handle: { title: "pagesTitle.noPower" }, lazy: screen(() => import("./pages/NoPermissionPage.tsx")) },
            // The admin's own account: every admin's, whatever their rules (no menu rule opens it).
            { path: "profile", handle: { title: msg`My account` }, lazy: screen(() => import("../admin/profile/AdminProfile.tsx")) },
            {
              path: "*",
              handle: {
                title: "dynamic",
                // What a preload of a path here brings besides this route's chunk: the dashboard
                // screen (most admins' first menu) with every chunk it imports, so that after the
                // login's click only the menus and the figures are left to fetch.
                preload: () => import("../admin/screens.ts").then(({ adminScreens }) => preloadScreen(adminScreens.dashboard)),
              },
              lazy: screen(() => import("../admin/AdminRoute.tsx")),
            },
          ],
        },
      ]),
      // Member side.
      {
        lazy: async () => ({ Component: (await import("./memberHome.ts")).MemberLayout }),
        children: [
          { path: "/", handle: { title: "pagesTitle.userLogin" }, lazy: async () => ({ Component: (await import("./memberHome.ts")).MemberLoginPage }) },
          // Practice reads only the device (and downloads a bank): no query cache to load.
          { path: "/exam/myPractice", handle: { title: msg`Sequential practice` }, lazy: memberScreen(() => import("../features/exam/PracticePage.tsx")) },
          withQueries([
            {
              path: "/course/lesson",
              handle: { title: msg`Course detail` },
              loader: prefetch(() => import("./prefetch.ts"), (screen, client, url) => screen.courseDetail(client, url)),
              lazy: memberScreen(() => import("../features/course/CourseDetailPage.tsx")),
            },
            { path: "/player/txPlayer", handle: { title: msg`Course video` }, lazy: memberScreen(() => import("../features/player/PlayerPage.tsx")) },
            { path: "/exam/examResult", handle: { title: msg`Exam result` }, lazy: memberScreen(() => import("../features/exam/ExamResultPage.tsx")) },
            { path: "/exam/myTest", handle: { title: msg`Exams` }, lazy: memberScreen(() => import("../features/exam/MyTestPage.tsx")) },
            { path: "/exam/my_test_detail", handle: { title: msg`Exam detail` }, lazy: memberScreen(() => import("../features/exam/TestDetailRoute.tsx")) },
            {
              lazy: memberScreen(() => import("./pages/ExamDetailLayout.tsx")),
              children: [{ path: "/exam/detail", handle: { title: msg`Exam detail` }, lazy: memberScreen(() => import("../features/exam/BankOverview.tsx")) }, ...examTabs],
            },
            {
              path: "/user",
              handle: { title: "pagesTitle.user" },
              children: [
                { index: true, element: <Navigate to="/user/loading" replace /> },
                { path: "loading/:to?", handle: { title: "pagesTitle.loading" }, lazy: memberScreen(() => import("../user/UserLoading.tsx")) },
                {
                  lazy: withMemberCatalog(async () => ({ Component: (await import("../user/MemberCenterLayout.tsx")).MemberCenterLayout })),
                  children: [
                    { path: "iframe/:url", handle: { title: "dynamic" }, lazy: withCommonCatalog(screen(() => import("./pages/IframePage.tsx"))) },
                    {
                      path: "*",
                      handle: { title: "dynamic" },
                      loader: prefetch(() => import("./prefetch.ts"), (screen, client, url) => screen.memberCenter(client, url)),
                      lazy: memberScreen(() => import("../user/UserRoute.tsx")),
                    },
                  ],
                },
              ],
            },
          ]),
          // A member staff created sets their first password from their invitation email's link.
          { path: "/invitation", handle: { title: msg`Set your password` }, lazy: memberScreen(() => import("../features/auth/InvitationPage.tsx")) },
          // A certificate's public check (its PDF's QR code): four facts, no login.
          { path: "/verify/:serial", handle: { title: msg`Certificate check` }, lazy: memberScreen(() => import("../features/certificate/VerifyPage.tsx")) },
          { path: "/401", handle: { title: "pagesTitle.noPower" }, lazy: screen(() => import("./pages/NoPermissionPage.tsx")) },
          { path: "/404", handle: { title: "pagesTitle.notFound" }, lazy: screen(() => import("./pages/NotFoundPage.tsx")) },
        ],
      },
      { path: "*", element: <Navigate to="/404" replace /> },
    ],
  },
];

/**
 * Downloads the chunks of every route on the way to `path` (their `lazy`), as a navigation there
 * would, and what a route's `handle.preload` adds.
 */
function preloadPath(path: string): Promise<unknown> {
  return Promise.all(
    (matchRoutes(routes, path) ?? []).flatMap(({ route }) => [
      typeof route.lazy === "function" ? route.lazy() : undefined,
      (route.handle as { preload?: () => Promise<unknown> } | undefined)?.preload?.(),
    ]),
  );
}

// The first back-office page after login: the login page asks for its chunks once it is idle
// (the query layer, the layout with its catalog, the loading screen, the menu route and the
// dashboard screen), and for the admin's menus as the login is answered.
setLanding("admin", {
  prefetch: () =>
    Promise.all([
      preloadPath("/admin/loading"),
      preloadPath("/admin/dashboard"),
    ]),
  loggedIn: () => import("../admin/session.ts").then(({ loadAdminEarly }) => loadAdminEarly()),
});

export const router = createBrowserRouter(routes);

setNavigator(({ path, name }) => {
  const target = path || (name ? ROUTE_NAMES[name] : undefined);
  if (target) void router.navigate(target);
});
