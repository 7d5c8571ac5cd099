import { Workbox } from "workbox-window";
import { t } from "@lingui/core/macro";
import { toast } from "sonner";

/**
 * Registers the service worker (production builds only). A new version waits until the member
 * chooses to reload, so it never replaces the app in the middle of an exam.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const wb = new Workbox("/sw.js", { scope: "/" });
  wb.addEventListener("waiting", () => {
    toast(t`A new version of the app is ready.`, {
      duration: Number.POSITIVE_INFINITY,
      action: {
        label: t`Reload`,
        onClick: () => {
          wb.addEventListener("controlling", () => window.location.reload());
          wb.messageSkipWaiting();
        },
      },
    });
  });
  wb.register().catch((error: unknown) => {
    console.warn("Service worker registration failed", error);
  });
}
