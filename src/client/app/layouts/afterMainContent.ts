/**
 * Resolves once the screen's own content is on the page, for the header's parts that can wait
 * for it (MemberSync: the offline module, the sync popover, zod; about 100 KiB on a phone's
 * first visit, and their set-up on the main thread). On a page a service worker controls (every
 * visit after the first) at once: the worker serves every file from its cache. Else at the
 * browser's first largest-contentful-paint entry of an element inside `<main>` (the screen drew
 * its data: a course's cover, a room's line), or `latestMs` after the call, whichever comes
 * first: a screen whose largest element is still the boot shell's reports none. Where the
 * browser does not report largest paints (Safari, Firefox), at once.
 */
export function afterMainContent(latestMs = 3_000): Promise<void> {
  return new Promise((resolve) => {
    if (navigator.serviceWorker?.controller || typeof PerformanceObserver !== "function" || !PerformanceObserver.supportedEntryTypes?.includes("largest-contentful-paint")) {
      resolve();
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => (entry as PerformanceEntry & { element?: Element | null }).element?.closest("main"))) done();
    });
    const timer = setTimeout(done, latestMs);
    function done(): void {
      clearTimeout(timer);
      observer.disconnect();
      resolve();
    }
    observer.observe({ type: "largest-contentful-paint", buffered: true });
  });
}
