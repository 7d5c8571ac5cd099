import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react";
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigation } from "react-router-dom";
import NProgress from "nprogress";
import { Toaster } from "sonner";
import { LOADER_HIDE_MS } from "../../shared/constants.ts";
import { useSiteConfig } from "../stores/siteConfig.ts";
import { useConfig } from "../stores/config.ts";
import { LoadingOverlay } from "../ui/LoadingOverlay.tsx";
import { Spinner } from "../ui/Spinner.tsx";
import { useDynamicTitle, useScreenTitle } from "./routeState.ts";
import { documentTitle, type RouteTitle } from "./titles.ts";
import "nprogress/nprogress.css";

NProgress.configure({ showSpinner: false });

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

export function RootLayout() {
  const isDark = useConfig((s) => s.layout.isDark);
  return (
    <>
      <NavigationProgress />
      <BlockingLoader />
      <DocumentTitle />
      <ThemeSync />
      <Outlet />
      <LoadingOverlay />
      <Toaster position="top-center" richColors closeButton theme={isDark ? "dark" : "light"} />
      <ScrollRestoration />
    </>
  );
}
