import type { ServerResponse } from "node:http";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import fastifyStatic, { type SetHeadersResponse } from "@fastify/static";
import { courseMediaGuard } from "../course/mediaAccess.ts";
import { extensionOf } from "./sniff.ts";

/**
 * `GET /storage/*`: stored files with range requests, never run as script (nosniff, a sandbox
 * CSP; only images, audio, video and HLS inline, everything else a download), course media only
 * to whoever may watch their lesson (course/mediaAccess.ts).
 */

/** Served inline from /storage (everything else is a download). SVG is deliberately absent. */
export const INLINE_TYPES: ReadonlySet<string> = new Set([
  "jpg", "jpeg", "png", "apng", "gif", "webp", "bmp", "avif", "ico",
  "mp4", "m4v", "mov", "webm", "ogv", "mp3", "m4a", "wav", "ogg", "oga", "opus", "flac", "aac",
  // HLS playlists and segments: fetched by hls.js (same-origin XHR) or played natively.
  "m3u8", "ts", "m4s",
]);

/** The CSP of everything served from /storage: nothing runs script, even when opened directly. */
export const STORAGE_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * Headers for a stored file: never sniffed, sandboxed, downloads unless safe inline (PDFs are
 * downloads: browsers' PDF viewers do not run under a sandbox CSP).
 */
function storageHeaders(res: SetHeadersResponse, filePath: string, cacheControl: string): void {
  const ext = extensionOf(filePath);
  res.setHeader("cache-control", cacheControl);
  res.setHeader("x-content-type-options", "nosniff");
  if (!INLINE_TYPES.has(ext)) res.setHeader("content-disposition", `attachment; filename="${path.basename(filePath)}"`);
  res.setHeader("content-security-policy", STORAGE_CSP);
}

/** Serves the storage folder `root` under /storage/. */
export async function storageServing(app: FastifyInstance, root: string): Promise<void> {
  // Course media only for whoever may watch their lesson (course/mediaAccess.ts).
  const guard = courseMediaGuard(app.db);
  app.addHook("onRequest", async (req, reply) => {
    if (req.routeOptions.url === "/storage/*") return guard.onRequest(req, reply);
  });
  await app.register(fastifyStatic, {
    root,
    prefix: "/storage/",
    decorateReply: false,
    index: false,
    dotfiles: "ignore",
    cacheControl: false,
    allowedPath: guard.allowedPath,
    // @fastify/static hands over the raw response; the guard knows the request behind it.
    setHeaders: (res, filePath) => storageHeaders(res, filePath, guard.cacheControl((res as unknown as ServerResponse).req)),
  });
}
