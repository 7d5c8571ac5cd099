/// <reference lib="webworker" />
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim } from "workbox-core";
import type { WorkboxPlugin } from "workbox-core/types.js";
import { CacheExpiration, ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { RangeRequestsPlugin } from "workbox-range-requests";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst, CacheOnly, NetworkFirst } from "workbox-strategies";
import {
  API_DATA_CACHE,
  FACE_MODELS_CACHE,
  IMAGES_CACHE,
  LAZY_ASSETS_CACHE,
  LESSON_VIDEOS_CACHE,
  MEMBER_IMAGES_CACHE,
  RETIRED_CACHES,
  imageAudiencePlugin,
  isApiDataPath,
  isFaceModelPath,
  isLazyAssetPath,
  isStorageImagePath,
  isSuccessEnvelope,
  languageCacheKey,
  mayBeSavedVideo,
} from "./pwa/caches.ts";

declare const self: ServiceWorkerGlobalScope;

const DAY = 24 * 60 * 60;

// The app shell: every built file, revisioned by the build.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Page navigations get the cached shell (the client router takes over), dots in the path
// included (/admin/iframe/https%3A%2F%2Fexample.com); API, uploads, the build's file folders and
// top-level files (/sw.js, /robots.txt) are never answered with it. Precached files are
// answered by the precache route above.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL("/index.html"), {
    denylist: [/^\/api\//, /^\/storage\//, /^\/assets\//, /^\/icons\//, /^\/screenshots\//, /^\/[^/?]+\.[^/?]+(\?|$)/],
  }),
);

const sameOrigin = (url: URL) => url.origin === self.location.origin;

/** Keeps only successful envelopes (business failures are HTTP 200 too). */
const successEnvelopeOnly: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => ((await isSuccessEnvelope(response)) ? response : null),
};

/** Keeps an answer per language (content names follow the reader's language). */
const perLanguage: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => languageCacheKey(request),
};

// Course lists, course and lesson detail, my courses and the exam catalogue: the network when it
// answers within 4 s, else the copy from the last visit, so what was opened once reads offline
// (also after an offline reload). Keyed by URL; per member, so the page deletes this cache when
// the member signs out or another one signs in (pwa/caches.ts).
registerRoute(
  ({ url, request }) => request.method === "GET" && sameOrigin(url) && isApiDataPath(url.pathname),
  new NetworkFirst({
    cacheName: API_DATA_CACHE,
    networkTimeoutSeconds: 4,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      successEnvelopeOnly,
      perLanguage,
      new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 30 * DAY, purgeOnQuotaError: true }),
    ],
  }),
);

// Uploaded images (question and course pictures): stored content never changes under its name.
// Only images the server answers `public` are shared by whoever uses the device; a paid lesson's
// images (`private`: for the member's media cookie) go to the member's own cache, asked of the
// network first and deleted at logout or when another member signs in (pwa/caches.ts).
const memberImages = new CacheExpiration(MEMBER_IMAGES_CACHE, { maxEntries: 300, maxAgeSeconds: 30 * DAY });
registerRoute(
  ({ url, request }) => request.method === "GET" && sameOrigin(url) && isStorageImagePath(url.pathname),
  new CacheFirst({
    cacheName: IMAGES_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      imageAudiencePlugin({
        open: (name) => caches.open(name),
        stored: async (url) => {
          await memberImages.updateTimestamp(url);
          await memberImages.expireEntries();
        },
      }),
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 60 * DAY, purgeOnQuotaError: true }),
    ],
  }),
);

// Caches of earlier versions that mixed members' data (pwa/caches.ts RETIRED_CACHES) go at once.
self.addEventListener("activate", (event: ExtendableEvent) => {
  event.waitUntil(Promise.all(RETIRED_CACHES.map((name) => caches.delete(name))));
});

// hls.js is not precached (only HLS lessons need it); once loaded it stays, named by its hash.
registerRoute(
  ({ url, request }) => request.method === "GET" && sameOrigin(url) && isLazyAssetPath(url.pathname),
  new CacheFirst({
    cacheName: LAZY_ASSETS_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 10, purgeOnQuotaError: true })],
  }),
);

// The face detector's models and WASM: loaded only on screens with a camera, then kept
// so a face check works offline. They change only with the library's version: upgrading it means
// renaming FACE_MODELS_CACHE (pwa/caches.ts), or devices keep the old files.
registerRoute(
  ({ url, request }) => request.method === "GET" && sameOrigin(url) && isFaceModelPath(url.pathname),
  new CacheFirst({
    cacheName: FACE_MODELS_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 20, purgeOnQuotaError: true })],
  }),
);

// Lesson videos the member saved for offline: served from the cache, sliced into 206 answers for
// the video element's Range requests; everything else goes to the network untouched (nothing is
// cached here without the member asking: the page fills this cache on "Save for offline").
const savedVideo = new CacheOnly({ cacheName: LESSON_VIDEOS_CACHE, plugins: [new RangeRequestsPlugin()] });
registerRoute(
  ({ url, request }) => request.method === "GET" && sameOrigin(url) && mayBeSavedVideo(url.pathname, request.destination),
  async (options) => {
    try {
      return await savedVideo.handle(options);
    } catch {
      return fetch(options.request);
    }
  },
);

// The first install controls the open page at once; a later version waits for the member's
// click (a SKIP_WAITING message from the page), never mid-exam.
clientsClaim();
self.addEventListener("message", (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

// Web Push reminders (src/shared/push.ts): show the notification, set the app icon's
// badge to the reviews due where the Badging API exists, and on a click focus an open window of
// the app (navigated to the reminder's page) or open one.
interface PushPayload {
  title?: string;
  body?: string;
  url?: string;
  tag?: string;
  badge?: number;
}

/** Only a same-origin path: a push never sends the app elsewhere. */
function appUrl(path: unknown): string {
  const url = new URL(typeof path === "string" && path.startsWith("/") && !path.startsWith("//") ? path : "/", self.location.origin);
  return url.origin === self.location.origin ? url.href : self.location.origin + "/";
}

self.addEventListener("push", (event: PushEvent) => {
  let data: PushPayload;
  try {
    data = (event.data?.json() as PushPayload | undefined) ?? {};
  } catch {
    data = { body: event.data?.text() ?? "" };
  }
  const nav = self.navigator as WorkerNavigator & { setAppBadge?: (n?: number) => Promise<void> };
  const badge = typeof data.badge === "number" && data.badge > 0 ? nav.setAppBadge?.(data.badge).catch(() => undefined) : undefined;
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(data.title || "ExamHub", {
        body: data.body ?? "",
        tag: data.tag,
        icon: "/icons/icon-192.png",
        badge: "/icons/icon-192.png",
        data: { url: appUrl(data.url) },
      }),
      badge,
    ]),
  );
});

self.addEventListener("notificationclick", (event: NotificationEvent) => {
  event.notification.close();
  const target = appUrl(((event.notification.data as { url?: string } | null)?.url ?? "/").replace(self.location.origin, ""));
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        const focused = await open.focus();
        if (focused.url !== target) await focused.navigate(target).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
