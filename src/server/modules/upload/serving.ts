import type { ServerResponse } from "node:http";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import fastifyStatic, { type SetHeadersResponse } from "@fastify/static";
import { courseMediaGuard, storagePathOf } from "../course/mediaAccess.ts";
import { S3Store } from "./s3.ts";
import { extensionOf } from "./sniff.ts";
import type { FileStore, LocalStore } from "./store.ts";

/**
 * `GET /storage/*`: stored files with range requests, never run as script (nosniff, a sandbox
 * CSP; only images, audio, video and HLS inline, everything else a download), course media only
 * to whoever may watch their lesson (course/mediaAccess.ts). The local folder is served by
 * @fastify/static; an S3 store by reading the object, Range and validators passed through.
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
function storageHeaders(res: Pick<SetHeadersResponse, "setHeader">, filePath: string, cacheControl: string): void {
  const ext = extensionOf(filePath);
  res.setHeader("cache-control", cacheControl);
  res.setHeader("x-content-type-options", "nosniff");
  if (!INLINE_TYPES.has(ext)) res.setHeader("content-disposition", `attachment; filename="${path.basename(filePath)}"`);
  res.setHeader("content-security-policy", STORAGE_CSP);
}

/** Serves the file store under /storage/. */
export async function storageServing(app: FastifyInstance, store: FileStore): Promise<void> {
  // Course media only for whoever may watch their lesson (course/mediaAccess.ts).
  const guard = courseMediaGuard(app.db);
  app.addHook("onRequest", async (req, reply) => {
    if (req.routeOptions.url === "/storage/*") return guard.onRequest(req, reply);
  });
  if (store instanceof S3Store) {
    objectServing(app, store, guard);
    return;
  }
  await app.register(fastifyStatic, {
    root: (store as LocalStore).root,
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

const header = (value: string | string[] | undefined): string | undefined => (typeof value === "string" && value.length <= 1024 ? value : undefined);

/**
 * `GET`/`HEAD /storage/*` from an S3 store: what @fastify/static does for the folder — the very
 * path the guard decided (else 404), no dot segments, Range (206 + Content-Range, 416),
 * If-Range, ETag/Last-Modified validators (304) — with the same headers.
 */
function objectServing(app: FastifyInstance, store: S3Store, guard: ReturnType<typeof courseMediaGuard>): void {
  app.route({
    method: ["GET", "HEAD"],
    url: "/storage/*",
    // Ranges of the stored bytes: never re-encoded.
    compress: false,
    handler: async (req, reply) => {
      const storagePath = storagePathOf(req.raw.url ?? "");
      if (!storagePath || !guard.allowedPath(storagePath, undefined, req) || storagePath.endsWith("/") || storagePath.split("/").some((p) => p.startsWith("."))) {
        return reply.callNotFound();
      }
      const answer = await store.read(storagePath.slice(1), {
        head: req.method === "HEAD",
        range: header(req.headers.range),
        ifRange: header(req.headers["if-range"]),
        ifNoneMatch: header(req.headers["if-none-match"]),
        ifModifiedSince: header(req.headers["if-modified-since"]),
      });
      if (answer.status === 404) return reply.callNotFound();
      reply.code(answer.status).headers(answer.headers);
      storageHeaders({ setHeader: (name, value) => reply.header(name, value) }, storagePath, guard.cacheControl(req.raw));
      if (answer.status === 304 || answer.status === 416 || !answer.body) return reply.send();
      return reply.send(answer.body);
    },
  });
}
