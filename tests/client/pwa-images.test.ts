import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { CacheFirst } from "workbox-strategies";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  API_DATA_CACHE,
  CACHE_OWNER_KEY,
  IMAGES_CACHE,
  LESSON_VIDEOS_CACHE,
  MEMBER_IMAGES_CACHE,
  RETIRED_CACHES,
  claimMemberCaches,
  imageAudiencePlugin,
  imageCacheFor,
  releaseMemberCaches,
} from "../../src/client/pwa/caches.ts";

/**
 * The service worker's image cache was once shared by every member of a device, so a
 * paid lesson's image one member opened was answered from the cache to whoever signed in next.
 */

const ORIGIN = "http://localhost:3000";
const PAID = `${ORIGIN}/storage/course/paid/diagram.png`;
const PUBLIC = `${ORIGIN}/storage/2024/cover.png`;

/** An in-memory CacheStorage (what the service worker's `caches` offers Workbox). */
class FakeCaches {
  readonly stores = new Map<string, Map<string, Response>>();
  private store(name: string): Map<string, Response> {
    let store = this.stores.get(name);
    if (!store) this.stores.set(name, (store = new Map()));
    return store;
  }
  async open(name: string) {
    const store = this.store(name);
    const key = (r: RequestInfo | URL) => (typeof r === "string" ? r : r instanceof URL ? r.href : r.url);
    return {
      put: async (request: RequestInfo | URL, response: Response) => void store.set(key(request), response.clone()),
      match: async (request: RequestInfo | URL) => store.get(key(request))?.clone(),
      delete: async (request: RequestInfo | URL) => store.delete(key(request)),
      keys: async () => [...store.keys()].map((url) => new Request(url)),
    };
  }
  async match(request: RequestInfo | URL, options?: { cacheName?: string }) {
    const names = options?.cacheName ? [options.cacheName] : [...this.stores.keys()];
    for (const name of names) {
      const hit = await (await this.open(name)).match(request);
      if (hit) return hit;
    }
    return undefined;
  }
  async has(name: string) {
    return this.stores.has(name);
  }
  async delete(name: string) {
    return this.stores.delete(name);
  }
  async keys() {
    return [...this.stores.keys()];
  }
  urls(name: string): string[] {
    return [...(this.stores.get(name)?.keys() ?? [])];
  }
}

/** The service worker's event classes, which Workbox checks its arguments against (happy-dom has none). */
class ExtendableEvent extends Event {
  readonly lifetime: Promise<unknown>[] = [];
  waitUntil(promise: Promise<unknown>): void {
    this.lifetime.push(promise);
  }
}
class FetchEvent extends ExtendableEvent {
  readonly request: Request;
  readonly preloadResponse = Promise.resolve(undefined);
  constructor(type: string, init: { request: Request }) {
    super(type);
    this.request = init.request;
  }
}

const png = (cacheControl: string | null, status = 200) =>
  new Response(status === 200 ? new Uint8Array([0x89, 0x50, 0x4e, 0x47]) : JSON.stringify({ code: 0, msg: "no" }), {
    status,
    headers: cacheControl === null ? { "content-type": "image/png" } : { "content-type": "image/png", "cache-control": cacheControl },
  });

describe("which image cache an answer may go to", () => {
  it.each([
    ["public, max-age=31536000, immutable", 200, "shared"],
    ["public, max-age=3600", 200, "shared"],
    ["Public,Max-Age=60", 200, "shared"],
    ["private, no-cache", 200, "member"],
    ["private", 200, "member"],
    ["public, private", 200, "member"],
    [null, 200, "member"],
    ["max-age=60", 200, "member"],
    ["no-store", 200, null],
    ["public, no-store", 200, null],
    ["no-store", 401, null],
    ["no-store", 403, null],
    ["public, max-age=3600", 404, null],
  ] as const)("Cache-Control %s, status %s -> %s", (cacheControl, status, expected) => {
    expect(imageCacheFor(png(cacheControl, status))).toBe(expected);
  });
});

describe("the service worker's image route (Workbox CacheFirst with the audience plugin)", () => {
  let fake: FakeCaches;
  let network: ReturnType<typeof vi.fn<(request: Request) => Promise<Response>>>;
  const stored: string[] = [];
  /** The route as sw.ts registers it (its expiration plugin left out). */
  const route = () =>
    new CacheFirst({
      cacheName: IMAGES_CACHE,
      plugins: [
        new CacheableResponsePlugin({ statuses: [200] }),
        imageAudiencePlugin({ open: (name) => fake.open(name), stored: async (url) => void stored.push(url) }),
      ],
    });
  /** One image request through the route (as the worker's fetch event hands it), waiting for its cache writes. */
  async function load(url: string): Promise<Response> {
    const request = new Request(url);
    const [response, done] = route().handleAll({ event: new FetchEvent("fetch", { request }), request });
    const answer = await response;
    await done;
    return answer;
  }
  const deps = () => ({ storage: localStorage, caches: fake });

  beforeEach(() => {
    fake = new FakeCaches();
    stored.length = 0;
    localStorage.clear();
    network = vi.fn<(request: Request) => Promise<Response>>();
    vi.stubGlobal("caches", fake);
    vi.stubGlobal("ExtendableEvent", ExtendableEvent);
    vi.stubGlobal("FetchEvent", FetchEvent);
    vi.stubGlobal("__WB_DISABLE_DEV_LOGS", true);
    vi.stubGlobal("fetch", network);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it("keeps a paid lesson image out of the shared cache and purges the member's copy when another member signs in", async () => {
    // Member 1 (enrolled) opens a paid lesson: the server answers its image privately.
    await claimMemberCaches(1, deps());
    network.mockResolvedValue(png("private, no-cache"));
    expect((await load(PAID)).status).toBe(200);
    expect(fake.urls(IMAGES_CACHE)).toEqual([]);
    expect(fake.urls(MEMBER_IMAGES_CACHE)).toEqual([PAID]);
    expect(stored).toEqual([PAID]);

    // Online, the image is asked of the server every time (it checks the member's media cookie).
    network.mockClear();
    network.mockResolvedValue(png("private, no-cache"));
    await load(PAID);
    expect(network).toHaveBeenCalledTimes(1);

    // Offline, member 1 still reads the lesson with its image.
    network.mockRejectedValue(new TypeError("Failed to fetch"));
    const offline = await load(PAID);
    expect(offline.status).toBe(200);
    expect(new Uint8Array(await offline.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));

    // Member 2 signs in on the same device: the copy is gone, offline there is nothing to show...
    expect(await claimMemberCaches(2, deps())).toBe(true);
    expect(fake.urls(MEMBER_IMAGES_CACHE)).toEqual([]);
    await expect(load(PAID)).rejects.toThrow();
    // ...and online the server decides (member 2 is not enrolled): the refusal is not kept anywhere.
    network.mockResolvedValue(png("no-store", 403));
    expect((await load(PAID)).status).toBe(403);
    expect(fake.urls(IMAGES_CACHE)).toEqual([]);
    expect(fake.urls(MEMBER_IMAGES_CACHE)).toEqual([]);
  });

  it("purges the member's images at logout, so an anonymous visitor gets none offline", async () => {
    await claimMemberCaches(1, deps());
    network.mockResolvedValue(png("private, no-cache"));
    await load(PAID);
    expect(fake.urls(MEMBER_IMAGES_CACHE)).toEqual([PAID]);
    expect(await releaseMemberCaches(deps())).toBe(true);
    expect(localStorage.getItem(CACHE_OWNER_KEY)).toBeNull();
    network.mockRejectedValue(new TypeError("Failed to fetch"));
    await expect(load(PAID)).rejects.toThrow();
  });

  it("shares public images between members: cached once, answered from the cache, kept across sign-ins", async () => {
    await claimMemberCaches(1, deps());
    network.mockResolvedValue(png("public, max-age=31536000, immutable"));
    await load(PUBLIC);
    expect(fake.urls(IMAGES_CACHE)).toEqual([PUBLIC]);
    expect(fake.urls(MEMBER_IMAGES_CACHE)).toEqual([]);
    await claimMemberCaches(2, deps());
    network.mockClear();
    network.mockRejectedValue(new TypeError("Failed to fetch"));
    expect((await load(PUBLIC)).status).toBe(200);
    expect(network).not.toHaveBeenCalled();
  });

  it("deletes the member caches and the retired shared image cache of earlier versions at a switch and at logout, never the public images", async () => {
    const fill = async () => {
      for (const name of [API_DATA_CACHE, LESSON_VIDEOS_CACHE, MEMBER_IMAGES_CACHE, IMAGES_CACHE, ...RETIRED_CACHES]) {
        await (await fake.open(name)).put(`${ORIGIN}/x`, new Response("x"));
      }
    };
    await fill();
    await claimMemberCaches(1, deps());
    expect(await fake.keys()).toEqual([IMAGES_CACHE]);
    expect(RETIRED_CACHES).toContain("images");
    expect(IMAGES_CACHE).not.toBe("images");
    await fill();
    await releaseMemberCaches(deps());
    expect(await fake.keys()).toEqual([IMAGES_CACHE]);
  });
});
