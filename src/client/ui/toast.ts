import type * as SonnerModule from "sonner";
import type { ExternalToast } from "sonner";
import { onceUntilFailed } from "../../shared/once.ts";

/**
 * Toasts without sonner in the first-load bundle: the library (about 9 KB gzipped) loads once
 * the first screen is there (RootLayout), or for the first message if that comes sooner. sonner's <Toaster> only sees
 * toasts created after it subscribed, so a message waits until the Toaster is mounted
 * (RootLayout's LazyToaster calls `toasterMounted`).
 */
type Sonner = typeof SonnerModule;

const loadSonner = onceUntilFailed((): Promise<Sonner> => import("sonner"));
let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});
const wantListeners = new Set<() => void>();
let wanted = false;

/** Loads sonner (once) and asks RootLayout to mount its Toaster. */
export function loadToaster(): Promise<Sonner> {
  if (!wanted) {
    wanted = true;
    for (const listener of wantListeners) listener();
  }
  return loadSonner();
}

/** For RootLayout: whether the Toaster should be mounted, and a subscription to that. */
export const toasterWanted = {
  get: (): boolean => wanted,
  subscribe: (listener: () => void): (() => void) => {
    wantListeners.add(listener);
    return () => wantListeners.delete(listener);
  },
};

/** Called by RootLayout once the Toaster's own effect has subscribed. */
export function toasterMounted(): void {
  markMounted();
}

async function show(run: (sonner: Sonner) => unknown): Promise<void> {
  const sonner = await loadToaster();
  await mounted;
  run(sonner);
}

export const toast = {
  message: (text: string, options?: ExternalToast): void => void show((s) => s.toast(text, options)).catch(() => undefined),
  error: (text: string, options?: ExternalToast): void => void show((s) => s.toast.error(text, options)).catch(() => undefined),
  success: (text: string, options?: ExternalToast): void => void show((s) => s.toast.success(text, options)).catch(() => undefined),
};
