import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import { useLingui as useLinguiMacro } from "@lingui/react/macro";
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigation } from "react-router-dom";
import NProgress from "nprogress";
import { Toaster } from "sonner";
import { LOADER_HIDE_MS } from "../../shared/constants.ts";
import { useSiteConfig } from "../stores/siteConfig.ts";
import { useConfig } from "../stores/config.ts";
import { LoadingOverlay } from "../ui/LoadingOverlay.tsx";
import { Spinner } from "../ui/Spinner.tsx";
import { useDynamicTitle, useScreenTitle } from "../routing/routeState.ts";
import { documentTitle, type RouteTitle } from "../routing/titles.ts";
import "nprogress/nprogress.css";

// nprogress's own template gives its bar `role="bar"`, which is no ARIA role (axe: critical);
// the bar is decoration, hidden from assistive technology.
NProgress.configure({
  showSpinner: false,
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  barSelector: ".bar",
});

/** Progress bar on every navigation (SPEC §2). */
function NavigationProgress() {
  const navigation = useNavigation();
  const location = useLocation();
  useEffect(() => {
    if (navigation.state !== "idle") NProgress.start();
    else NProgress.done();
  }, [navigation.state]);
  useEffect(() => {
    NProgress.done();
  }, [location.key]);
  return null;
}

/**
 * The blocking loader: shown while the app opens its first screen, hidden 1 s after that
 * screen is there (SPEC §9), like the framework's "existLoading" loader.
 */
function BlockingLoader() {
  const [visible, setVisible] = useState(true);
  const [settled, setSettled] = useState(false);
  const navigation = useNavigation();
  if (!settled && navigation.state === "idle") setSettled(true);
  useEffect(() => {
    if (!settled) return;
    const timer = setTimeout(() => setVisible(false), LOADER_HIDE_MS);
    return () => clearTimeout(timer);
  }, [settled]);
  if (!visible) return null;
  return (
    <div data-testid="block-loading" aria-hidden className="fixed inset-0 z-[70] flex items-center justify-center bg-slate-50 dark:bg-slate-950">
      <Spinner className="size-12" />
    </div>
  );
}

function DocumentTitle() {
  const matches = useMatches();
  const dynamic = useDynamicTitle((s) => s.title);
  const screenTitle = useScreenTitle((s) => s.title);
  const siteName = useSiteConfig((s) => s.siteName);
  const { i18n } = useLingui();
  const handleTitle = [...matches].reverse().map((m) => (m.handle as { title?: RouteTitle } | undefined)?.title).find(Boolean);
  const title = screenTitle ?? (handleTitle === "dynamic" ? dynamic : handleTitle);
  useEffect(() => {
    document.title = documentTitle(title, i18n, siteName) || "ExamHub";
  }, [title, i18n, siteName]);
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
 * first render): the same spinner as the blocking loader, so nothing flashes and the router has
 * its HydrateFallback.
 */
export function InitialLoading() {
  return (
    <div aria-hidden className="fixed inset-0 z-[70] flex items-center justify-center bg-slate-50 dark:bg-slate-950">
      <Spinner className="size-12" />
    </div>
  );
}

/**
 * Toasts (sonner): at the bottom, where they cover neither the header's links nor the sticky
 * bars at the top of the exam screens (a phone gets them full width at the bottom); the
 * library's own labels ("Close toast", "Notifications") go through Lingui.
 */
function Toasts() {
  const { t } = useLinguiMacro();
  const isDark = useConfig((s) => s.layout.isDark);
  return (
    <Toaster
      position="bottom-right"
      richColors
      closeButton
      theme={isDark ? "dark" : "light"}
      customAriaLabel={t`Notifications (Alt+T)`}
      toastOptions={{ closeButtonAriaLabel: t`Close the message` }}
    />
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
      <LoadingOverlay />
      <Toasts />
      <ScrollRestoration />
    </>
  );
}
