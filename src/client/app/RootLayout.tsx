import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { useLingui } from "@lingui/react";
import { useLingui as useLinguiMacro } from "@lingui/react/macro";
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigation } from "react-router-dom";
import { LOADER_HIDE_MS } from "../../shared/constants.ts";
import { onceUntilFailed } from "../../shared/once.ts";
import { useSiteConfig } from "../stores/siteConfig.ts";
import { useConfig } from "../stores/config.ts";
import { LeaveGuard } from "../ui/leaveGuard.tsx";
import { LoadingOverlay } from "../ui/LoadingOverlay.tsx";
import { Spinner } from "../ui/Spinner.tsx";
import { afterFirstPaint } from "../ui/afterPaint.ts";
import { loadSiteConfig } from "./siteConfig.ts";
import { loadToaster, toasterMounted, toasterWanted } from "../ui/toast.ts";
import { useDynamicTitle, useScreenTitle } from "../routing/routeState.ts";
import { documentTitle, type RouteTitle } from "../routing/titles.ts";
import { withCommonCatalog } from "../i18n/index.ts";
import type { NProgress as NProgressBar } from "./progress.ts";

let progress: typeof NProgressBar | undefined;

/**
 * The navigation progress bar (nprogress and its stylesheet) is not in the first load: no first
 * screen needs it. Fetched once the first screen is there (BlockingLoader), or by the first
 * navigation if that comes sooner; a failed fetch is tried again by the next navigation.
 */
const loadProgress = onceUntilFailed(async () => (progress = (await import("./progress.ts")).NProgress));

/** Progress bar on every navigation (SPEC §2). */
function NavigationProgress() {
  const navigation = useNavigation();
  const location = useLocation();
  useEffect(() => {
    if (navigation.state === "idle") {
      progress?.done();
      return;
    }
    let current = true;
    loadProgress().then(
      (bar) => current && bar.start(),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [navigation.state]);
  useEffect(() => {
    progress?.done();
  }, [location.key]);
  return null;
}

/** Runs once the page has loaded (at once if it has). */
function whenLoaded(run: () => void): void {
  if (document.readyState === "complete") run();
  else window.addEventListener("load", run, { once: true });
}

/**
 * The blocking loader: the boot shell of index.html (painted before any script ran) stays over
 * the app while it opens its first screen and goes 1 s after that screen is there (SPEC §9),
 * like the framework's "existLoading" loader. React does not draw a second loader over it, so
 * the first paint needs no JavaScript and nothing flashes.
 */
function BlockingLoader() {
  const [settled, setSettled] = useState(false);
  const navigation = useNavigation();
  if (!settled && navigation.state === "idle") setSettled(true);
  useEffect(() => {
    if (!settled) return;
    // The first screen is there: now fetch what only later moments need (toasts, the
    // navigation progress bar), so a message shows at once even if the network goes away
    // before it; refresh the site config (the
    // stored copy served until now), which brings the request layer's axios with it; and
    // register the service worker (workbox-window), once the page has loaded as workbox recommends.
    // All of it once the first screen has been painted (a frame, then a task), not in its way;
    // a hidden tab paints no frame, so half a second at most.
    return afterFirstPaint(() => {
      void loadToaster().catch(() => undefined);
      void loadProgress().catch(() => undefined);
      void loadSiteConfig();
      whenLoaded(() => void withCommonCatalog(() => import("../pwa/register.ts"))().then(({ registerServiceWorker }) => registerServiceWorker()));
    });
  }, [settled]);
  useEffect(() => {
    if (!settled) return;
    const boot = document.getElementById("boot");
    if (!boot) return;
    const timer = setTimeout(() => {
      boot.classList.add("boot-done");
      setTimeout(() => boot.remove(), 250);
    }, LOADER_HIDE_MS);
    return () => clearTimeout(timer);
  }, [settled]);
  return null;
}

function DocumentTitle() {
  const matches = useMatches();
  const dynamic = useDynamicTitle((s) => s.title);
  const screenTitle = useScreenTitle((s) => s.title);
  const siteName = useSiteConfig((s) => s.siteName);
  const { i18n } = useLingui();
  const handleTitle = [...matches].reverse().map((m) => (m.handle as { title?: RouteTitle } | undefined)?.title).find(Boolean);
  const title = screenTitle ?? (handleTitle === "dynamic" ? dynamic : handleTitle);
  const locale = i18n.locale;
  useEffect(() => {
    document.title = documentTitle(title, i18n, siteName) || "ExamHub";
  }, [title, i18n, locale, siteName]);
  return null;
}

/** Dark mode class on <html> from the layout config. */
function ThemeSync() {
  const isDark = useConfig((s) => s.layout.isDark);
  useEffect(() => {
    document.documentElement.classList.toggle("dark", isDark);
  }, [isDark]);
  return null;
}

/**
 * What the router shows while the first screen's code loads (its lazy routes resolve before the
 * first render): nothing while the boot shell is up (it covers the page), else a spinner.
 */
export function InitialLoading() {
  if (typeof document !== "undefined" && document.getElementById("boot")) return null;
  return (
    <div aria-hidden className="fixed inset-0 z-[70] flex items-center justify-center bg-slate-50 dark:bg-slate-950">
      <Spinner className="size-12" />
    </div>
  );
}

/** Tells ui/toast.ts that the Toaster (rendered just before) has subscribed to new toasts. */
function ToasterMounted() {
  useEffect(() => toasterMounted(), []);
  return null;
}

/**
 * Toasts (sonner): at the bottom, where they cover neither the header's links nor the sticky
 * bars at the top of the exam screens (a phone gets them full width at the bottom); the
 * library's own labels ("Close toast", "Notifications") go through Lingui. Not in the
 * first-load bundle: fetched as soon as the first screen is there (BlockingLoader), or by the
 * first message if that comes sooner.
 */
const Toaster = lazy(async () => {
  const { Toaster: SonnerToaster } = await loadToaster();
  return { default: SonnerToaster };
});

function Toasts() {
  const { t } = useLinguiMacro();
  const isDark = useConfig((s) => s.layout.isDark);
  const wanted = useSyncExternalStore(toasterWanted.subscribe, toasterWanted.get, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        position="bottom-right"
        richColors
        closeButton
        theme={isDark ? "dark" : "light"}
        customAriaLabel={t`Notifications (Alt+T)`}
        toastOptions={{ closeButtonAriaLabel: t`Close the message` }}
      />
      <ToasterMounted />
    </Suspense>
  );
}

export function RootLayout() {
  return (
    <>
      <NavigationProgress />
      <BlockingLoader />
      <DocumentTitle />
      <ThemeSync />
      <Outlet />
      <LeaveGuard />
      <LoadingOverlay />
      <Toasts />
      <ScrollRestoration />
    </>
  );
}
