import { HEADER_LANGUAGE } from "../../shared/constants.ts";

/**
 * The service worker's runtime caches, shared by sw.ts (which fills and answers from them) and the
 * page (which saves lesson videos and clears the member's caches on logout and when another
 * member signs in). No DOM-only and no
 * worker-only APIs at module level: both sides import it.
 */

/** GET answers of course and exam data (NetworkFirst): lists and lesson text readable offline. */
export const API_DATA_CACHE = "api-data";
/**
 * Uploaded images under /storage/ that anyone may have (CacheFirst): question and course images
 * offline, shared by whoever uses the device. Only answers the server marks `public` go here.
 */
export const IMAGES_CACHE = "public-images";
/**
 * Uploaded images only the signed-in member may have (paid lesson media: the server answers them
 * `private, no-cache` through the member's media cookie): kept for offline reading only, asked of
 * the network first while online, and deleted with the member's other caches.
 */
export const MEMBER_IMAGES_CACHE = "member-images";
/**
 * Caches of earlier versions that may hold one member's data under a shared name ("images" held
 * paid lesson images for whoever signed in next): deleted by the service worker when it activates,
 * and with the member caches.
 */
export const RETIRED_CACHES = ["images"] as const;
/** Lesson videos the member chose to save for offline (filled by the page, served by the SW). */
export const LESSON_VIDEOS_CACHE = "lesson-videos";

/** Hashed chunks left out of the precache (hls.js, the face detector), kept once loaded. */
export const LAZY_ASSETS_CACHE = "lazy-assets";
/** The face detector's models and WASM binaries (/face-models/, /face-wasm/), kept once loaded. */
export const FACE_MODELS_CACHE = "face-models";
/** Caches whose content belongs to the signed-in member: cleared when another one signs in or out. */
export const MEMBER_CACHES = [API_DATA_CACHE, LESSON_VIDEOS_CACHE, MEMBER_IMAGES_CACHE] as const;

/** localStorage key: the member whose data the member caches hold. */
export const CACHE_OWNER_KEY = "examhub.cacheOwner";

/**
 * The key an API answer is kept under: its URL and the language it was asked in. The server
 * names content (banks, categories) in the language of the request's header, so one URL has an
 * answer per language; keyed by URL alone, a member who switched language read the names of the
 * other one offline.
 */
export function languageCacheKey(request: Request): string {
  const lang = request.headers.get(HEADER_LANGUAGE);
  if (!lang) return request.url;
  const url = new URL(request.url);
  url.searchParams.set("sw-lang", lang);
  return url.href;
}

/** The GET API paths whose answers are kept for offline reading. */
const API_DATA_PATH = /^\/api\/(?:course\/(?:list|detail|my|lesson)|exam\/catalog)$/;
const STORAGE_IMAGE_PATH = /^\/storage\/.+\.(?:png|jpe?g|gif|webp|avif)$/i;
const VIDEO_FILE_PATH = /\.(?:mp4|webm)$/i;
/** HLS playlists and segments (only stored files: a dev server's .ts modules are not videos). */
const HLS_FILE_PATH = /^\/storage\/.+\.(?:m3u8|m4s|ts)$/i;

const LAZY_ASSET_PATH = /^\/assets\/(?:hls|human)[\w.-]*\.js$/;
const FACE_MODEL_PATH = /^\/face-(?:models\/[\w-]+\.(?:json|bin)|wasm\/[\w-]+\.wasm)$/;

/** Whether a same-origin path is one of the face detector's model or WASM files. */
export function isFaceModelPath(pathname: string): boolean {
  return FACE_MODEL_PATH.test(pathname);
}

/** Whether a same-origin path is a built chunk kept after its first load (not precached). */
export function isLazyAssetPath(pathname: string): boolean {
  return LAZY_ASSET_PATH.test(pathname);
}

/** Whether a same-origin path is one of the cached API reads. */
export function isApiDataPath(pathname: string): boolean {
  return API_DATA_PATH.test(pathname);
}

export function isStorageImagePath(pathname: string): boolean {
  return STORAGE_IMAGE_PATH.test(pathname);
}

/** Whether a request may be for a saved lesson video (the SW then looks in LESSON_VIDEOS_CACHE). */
export function mayBeSavedVideo(pathname: string, destination: string): boolean {
  return destination === "video" || VIDEO_FILE_PATH.test(pathname) || HLS_FILE_PATH.test(pathname);
}

/**
 * Which image cache an answer from `/storage/` may go to: `shared` only when the server says anyone
 * may keep it (`public`, and neither `private` nor `no-store`); `member` for any other successful
 * answer (paid lesson media are `private, no-cache`; an answer without Cache-Control is taken as
 * private too); null for `no-store` and anything but a 200.
 */
export function imageCacheFor(response: Pick<Response, "status" | "headers">): "shared" | "member" | null {
  if (response.status !== 200) return null;
  const directives = (response.headers.get("cache-control") ?? "")
    .toLowerCase()
    .split(",")
    .map((d) => d.trim().split("=")[0]);
  if (directives.includes("no-store")) return null;
  return directives.includes("public") && !directives.includes("private") ? "shared" : "member";
}

interface ImageAudienceDeps {
  /** Opens a cache by name (the service worker's `caches.open`). */
  open: (name: string) => Promise<Pick<Cache, "put" | "match">>;
  /** Called after an image was kept in MEMBER_IMAGES_CACHE (its expiration bookkeeping). */
  stored?: (url: string) => Promise<void>;
}

interface ImagePluginParam {
  request: Request;
  response?: Response;
}

/**
 * The Workbox plugin of the shared image route (a CacheFirst on IMAGES_CACHE): an answer only
 * the member may have never enters the shared cache: it is kept in MEMBER_IMAGES_CACHE instead
 * (deleted when the member signs out or another one signs in) and given back from there only when
 * the network fails, so online every such image is asked of the server, which checks the member.
 */
export function imageAudiencePlugin(deps: ImageAudienceDeps) {
  return {
    cacheWillUpdate: async ({ request, response }: ImagePluginParam): Promise<Response | null> => {
      if (!response) return null;
      const where = imageCacheFor(response);
      if (where === "shared") return response;
      if (where === "member") {
        try {
          await (await deps.open(MEMBER_IMAGES_CACHE)).put(request, response);
          await deps.stored?.(request.url);
        } catch {
          // A full disk or a closed database: the image is shown all the same, only not kept.
        }
      }
      return null;
    },
    handlerDidError: async ({ request }: ImagePluginParam): Promise<Response | undefined> => (await deps.open(MEMBER_IMAGES_CACHE)).match(request),
  };
}

/**
 * Only successful envelopes are worth keeping: business failures travel as HTTP 200 too
 * (`{code: 0}`, 303 "need login", 409 "token expired"), and must never replace a good copy.
 */
export async function isSuccessEnvelope(response: Response): Promise<boolean> {
  if (response.status !== 200) return false;
  try {
    const body = (await response.clone().json()) as { code?: unknown } | null;
    return body !== null && typeof body === "object" && body.code === 1;
  } catch {
    return false;
  }
}

interface CacheDeps {
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  caches?: Pick<CacheStorage, "delete">;
}

function cacheStorageOf(deps?: CacheDeps): Pick<CacheStorage, "delete"> | undefined {
  if (deps?.caches) return deps.caches;
  return typeof caches === "undefined" ? undefined : caches;
}

function storageOf(deps?: CacheDeps): CacheDeps["storage"] {
  if (deps?.storage) return deps.storage;
  return typeof localStorage === "undefined" ? undefined : localStorage;
}

async function deleteMemberCaches(deps?: CacheDeps): Promise<void> {
  const cacheStorage = cacheStorageOf(deps);
  if (!cacheStorage) return;
  await Promise.all([...MEMBER_CACHES, ...RETIRED_CACHES].map((name) => cacheStorage.delete(name).catch(() => false)));
}

/**
 * The member `memberId` signed in: when the member caches hold someone else's data (or nobody's
 * known data), they are deleted. Resolves true when something was cleared.
 */
export async function claimMemberCaches(memberId: number, deps?: CacheDeps): Promise<boolean> {
  const storage = storageOf(deps);
  const owner = storage?.getItem(CACHE_OWNER_KEY) ?? null;
  if (owner === String(memberId)) return false;
  // Set first: responses cached from now on belong to this member.
  storage?.setItem(CACHE_OWNER_KEY, String(memberId));
  await deleteMemberCaches(deps);
  return true;
}

/**
 * Nobody is signed in any more (logout): the member caches are deleted. The owner mark is removed
 * only once they are gone, so an interrupted deletion (the page reloads at logout) is finished by
 * the next sign-in or the next anonymous visit.
 */
export async function releaseMemberCaches(deps?: CacheDeps): Promise<boolean> {
  const storage = storageOf(deps);
  if (storage?.getItem(CACHE_OWNER_KEY) === null) return false;
  await deleteMemberCaches(deps);
  storage?.removeItem(CACHE_OWNER_KEY);
  return true;
}
