import { Workbox } from "workbox-window";
import { t } from "@lingui/core/macro";
import { toast } from "../ui/toast.ts";

/** Paths where a reload would interrupt the member mid-test. */
export function isTakingTest(pathname: string): boolean {
  return pathname.startsWith("/exam/my_test_detail");
}

/**
 * Registers the service worker (production builds only). A new version waits until the member
 * chooses to reload, and the offer itself waits while a test is in progress: never mid-exam.
 */
let registered = false;

export function registerServiceWorker(): void {
  if (registered || !import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  registered = true;
  const wb = new Workbox("/sw.js", { scope: "/" });
  const offer = () => {
    if (isTakingTest(window.location.pathname)) {
      setTimeout(offer, 5_000);
      return;
    }
    toast.message(t`A new version of the app is ready.`, {
      duration: Number.POSITIVE_INFINITY,
      action: {
        label: t`Reload`,
        onClick: () => {
          wb.addEventListener("controlling", () => window.location.reload());
          wb.messageSkipWaiting();
        },
      },
    });
  };
  wb.addEventListener("waiting", offer);
  wb.register().catch((error: unknown) => {
    console.warn("Service worker registration failed", error);
  });
}
