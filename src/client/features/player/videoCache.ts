import { LESSON_VIDEOS_CACHE } from "../../pwa/caches.ts";

/**
 * "Save for offline" of lesson videos: the page downloads the whole file into the Cache API
 * (LESSON_VIDEOS_CACHE); the service worker answers the video element's Range requests from it
 * (sw.ts) and goes to the network for videos that are not saved.
 */

export type SaveAvailability = "ok" | "no-video" | "external" | "unsupported";

/** Whether the lesson's video can be saved here: a same-origin MP4/WebM file or HLS playlist, and the Cache API. */
export function saveAvailability(url: string, videoType: string, origin: string = location.origin): SaveAvailability {
  if (!url || !videoType) return "no-video";
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

/** Where the list of a saved HLS video's files is kept (a playlist needs its segments too). */
function filesKeyOf(key: string): string {
  const url = new URL(key);
  url.searchParams.append("examhub-offline-files", "1");
  return url.href;
}

interface SavedFiles {
  files: string[];
  size: number;
}

async function readSavedFiles(cache: Cache, key: string): Promise<SavedFiles | null> {
  const entry = await cache.match(filesKeyOf(key), { ignoreVary: true });
  if (!entry) return null;
  try {
    const parsed = (await entry.json()) as SavedFiles;
    return Array.isArray(parsed.files) && typeof parsed.size === "number" ? parsed : null;
  } catch {
    return null;
  }
}

async function sizeOf(response: Response): Promise<number> {
  const header = Number(response.headers.get("content-length"));
  if (Number.isFinite(header) && header > 0) return header;
  return (await response.blob()).size;
}

/** The saved copy's size in bytes (all files of an HLS video), or null when this video is not saved. */
export async function savedVideoSize(url: string): Promise<number | null> {
  if (typeof caches === "undefined") return null;
  const cache = await caches.open(LESSON_VIDEOS_CACHE);
  const key = keyOf(url);
  const files = await readSavedFiles(cache, key);
  if (files) return files.size;
  const response = await cache.match(key, { ignoreVary: true });
  return response ? sizeOf(response) : null;
}

export interface SaveOptions {
  signal?: AbortSignal;
  /** Bytes received so far and the expected total (0 when unknown). */
  onProgress?: (loaded: number, total: number) => void;
  /** The size the server announced for the lesson (used when the response has no length). */
  expectedSize?: number;
  /** An HLS playlist: its variant playlists, init sections and segments are saved with it. */
  hls?: boolean;
}

/** An HTTP failure while saving (the status is kept for the message; 0: not a file we may save). */
export class VideoSaveError extends Error {
  constructor(readonly status: number) {
    super(`The video answered HTTP ${status}`);
    this.name = "VideoSaveError";
  }
}

const URI_ATTRIBUTE = /URI="([^"]+)"/;

/**
 * What an HLS playlist refers to, as absolute URLs: other playlists (variants, renditions) and
 * the files to play (segments, init sections of EXT-X-MAP, keys).
 */
export function hlsReferences(playlist: string, base: string): { playlists: string[]; files: string[] } {
  const playlists: string[] = [];
  const files: string[] = [];
  let variantNext = false;
  for (const raw of playlist.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith("#")) {
      const uri = URI_ATTRIBUTE.exec(line)?.[1];
      if (uri && /^#EXT-X-(?:MAP|KEY|SESSION-KEY):/.test(line)) files.push(new URL(uri, base).href);
      else if (uri && /^#EXT-X-(?:MEDIA|I-FRAME-STREAM-INF):/.test(line)) playlists.push(new URL(uri, base).href);
      if (line.startsWith("#EXT-X-STREAM-INF:")) variantNext = true;
      continue;
    }
    const url = new URL(line, base).href;
    if (variantNext || /\.m3u8(?:$|\?)/i.test(new URL(url).pathname + new URL(url).search)) playlists.push(url);
    else files.push(url);
    variantNext = false;
  }
  return { playlists: [...new Set(playlists)], files: [...new Set(files)] };
}

/** Downloads one file into the cache, streamed (never held in memory); resolves with its size. */
async function putFile(cache: Cache, key: string, options: SaveOptions, onBytes: (n: number) => void, onLength?: (n: number) => void): Promise<number> {
  const response = await fetch(key, { signal: options.signal, credentials: "same-origin", cache: "no-store" });
  if (response.status !== 200 || !response.body) throw new VideoSaveError(response.status);
  const announced = Number(response.headers.get("content-length"));
  if (Number.isFinite(announced) && announced > 0) onLength?.(announced);
  let loaded = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        onBytes(chunk.byteLength);
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
  await cache.put(key, new Response(counted, { status: 200, headers }));
  return loaded;
}

/**
 * Downloads the whole video and stores it (an HLS video with every playlist and segment it
 * needs). Resolves with the stored size in bytes. An abort or a failure leaves nothing behind.
 */
export async function saveVideo(url: string, options: SaveOptions = {}): Promise<number> {
  const key = keyOf(url);
  const cache = await caches.open(LESSON_VIDEOS_CACHE);
  const stored: string[] = [];
  let loaded = 0;
  let total = options.expectedSize ?? 0;
  const onBytes = (n: number) => {
    loaded += n;
    options.onProgress?.(loaded, total);
  };
  try {
    if (options.hls) {
      const origin = new URL(key).origin;
      const playlists = [key];
      const files: string[] = [];
      for (let i = 0; i < playlists.length; i++) {
        const playlistUrl = playlists[i]!;
        const response = await fetch(playlistUrl, { signal: options.signal, credentials: "same-origin", cache: "no-store" });
        if (response.status !== 200) throw new VideoSaveError(response.status);
        const text = await response.text();
        const refs = hlsReferences(text, playlistUrl);
        // Only this site's files are saved (the service worker answers same-origin requests only).
        if ([...refs.playlists, ...refs.files].some((u) => new URL(u).origin !== origin)) throw new VideoSaveError(0);
        for (const p of refs.playlists) if (!playlists.includes(p)) playlists.push(p);
        for (const f of refs.files) if (!files.includes(f)) files.push(f);
        await cache.put(playlistUrl, new Response(text, { status: 200, headers: { "content-type": response.headers.get("content-type") ?? "application/vnd.apple.mpegurl" } }));
        stored.push(playlistUrl);
        onBytes(new TextEncoder().encode(text).byteLength);
      }
      for (const file of files) {
        stored.push(file);
        await putFile(cache, file, options, onBytes);
      }
      await cache.put(filesKeyOf(key), new Response(JSON.stringify({ files: stored, size: loaded } satisfies SavedFiles), { headers: { "content-type": "application/json" } }));
    } else {
      stored.push(key);
      await putFile(cache, key, options, onBytes, (length) => {
        total = length;
      });
    }
  } catch (error) {
    await Promise.all([...stored, filesKeyOf(key)].map((k) => cache.delete(k).catch(() => false)));
    throw error;
  }
  if (options.signal?.aborted) {
    await Promise.all([...stored, filesKeyOf(key)].map((k) => cache.delete(k).catch(() => false)));
    throw new DOMException("The download was cancelled", "AbortError");
  }
  return loaded;
}

/** Deletes the saved copy of a video, every file of it (true when there was one). */
export async function removeSavedVideo(url: string): Promise<boolean> {
  if (typeof caches === "undefined") return false;
  const cache = await caches.open(LESSON_VIDEOS_CACHE);
  const key = keyOf(url);
  const files = await readSavedFiles(cache, key);
  if (files) {
    await Promise.all(files.files.map((k) => cache.delete(k, { ignoreVary: true })));
    await cache.delete(filesKeyOf(key));
    return true;
  }
  return cache.delete(key, { ignoreVary: true });
}
