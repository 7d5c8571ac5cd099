import { LESSON_VIDEOS_CACHE } from "../../pwa/caches.ts";

/**
 * "Save for offline" of lesson videos: the page downloads the whole file into the Cache API
 * (LESSON_VIDEOS_CACHE); the service worker answers the video element's Range requests from it
 * (sw.ts) and goes to the network for videos that are not saved.
 */

export type SaveAvailability = "ok" | "no-video" | "streamed" | "external" | "unsupported";

/** Whether the lesson's video can be saved here: a same-origin MP4/WebM file and the Cache API. */
export function saveAvailability(url: string, videoType: string, origin: string = location.origin): SaveAvailability {
  if (!url || !videoType) return "no-video";
  if (videoType === "hls") return "streamed";
  let target: URL;
  try {
    target = new URL(url, origin);
  } catch {
    return "external";
  }
  if (target.origin !== origin) return "external";
  if (typeof caches === "undefined" || typeof ReadableStream === "undefined") return "unsupported";
  return "ok";
}

function keyOf(url: string): string {
  return new URL(url, location.href).href;
}

async function sizeOf(response: Response): Promise<number> {
  const header = Number(response.headers.get("content-length"));
  if (Number.isFinite(header) && header > 0) return header;
  return (await response.blob()).size;
}

/** The saved copy's size in bytes, or null when this video is not saved. */
export async function savedVideoSize(url: string): Promise<number | null> {
  if (typeof caches === "undefined") return null;
  const cache = await caches.open(LESSON_VIDEOS_CACHE);
  const response = await cache.match(keyOf(url), { ignoreVary: true });
  return response ? sizeOf(response) : null;
}

export interface SaveOptions {
  signal?: AbortSignal;
  /** Bytes received so far and the expected total (0 when unknown). */
  onProgress?: (loaded: number, total: number) => void;
  /** The size the server announced for the lesson (used when the response has no length). */
  expectedSize?: number;
}

/** An HTTP failure while saving (the status is kept for the message). */
export class VideoSaveError extends Error {
  constructor(readonly status: number) {
    super(`The video answered HTTP ${status}`);
    this.name = "VideoSaveError";
  }
}

/**
 * Downloads the whole video and stores it (streamed into the cache, never held in memory).
 * Resolves with the stored size in bytes. An abort or a failure leaves nothing behind.
 */
export async function saveVideo(url: string, options: SaveOptions = {}): Promise<number> {
  const key = keyOf(url);
  const response = await fetch(key, { signal: options.signal, credentials: "same-origin", cache: "no-store" });
  if (response.status !== 200 || !response.body) throw new VideoSaveError(response.status);
  const announced = Number(response.headers.get("content-length"));
  const total = Number.isFinite(announced) && announced > 0 ? announced : (options.expectedSize ?? 0);
  let loaded = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        options.onProgress?.(loaded, total);
        controller.enqueue(chunk);
      },
    }),
  );
  // The stored answer: the body and its type and length; no Vary, so any request for the URL matches.
  const headers = new Headers();
  for (const name of ["content-type", "content-length", "last-modified", "etag"]) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  const cache = await caches.open(LESSON_VIDEOS_CACHE);
  try {
    await cache.put(key, new Response(counted, { status: 200, headers }));
  } catch (error) {
    await cache.delete(key).catch(() => false);
    throw error;
  }
  if (options.signal?.aborted) {
    await cache.delete(key).catch(() => false);
    throw new DOMException("The download was cancelled", "AbortError");
  }
  return loaded;
}

/** Deletes the saved copy of a video (true when there was one). */
export async function removeSavedVideo(url: string): Promise<boolean> {
  if (typeof caches === "undefined") return false;
  const cache = await caches.open(LESSON_VIDEOS_CACHE);
  return cache.delete(keyOf(url), { ignoreVary: true });
}
