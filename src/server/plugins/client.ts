import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyStatic from "@fastify/static";

/** Files that must be revalidated on every load so a new release is picked up. */
const NO_CACHE = new Set(["index.html", "sw.js", "manifest.webmanifest", "registerSW.js"]);

export function cacheControlFor(filePath: string): string {
  // A build's gzipped copy (`sw.js.gz`) is cached as the file it stands for.
  const base = path.basename(filePath).replace(/\.gz$/, "");
  if (NO_CACHE.has(base) || base.startsWith("workbox-")) return "no-cache";
  // Vite puts content-hashed files under assets/: they never change under the same name.
  if (filePath.split(path.sep).includes("assets")) return "public, max-age=31536000, immutable";
  return "public, max-age=86400";
}

export function hasBuiltClient(clientDir: string | undefined): clientDir is string {
  return !!clientDir && fs.existsSync(path.join(clientDir, "index.html"));
}

/** Serves the built client: files with their cache headers; index.html at `/`. */
export async function registerClient(app: FastifyInstance, clientDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: true,
    index: ["index.html"],
    // The build's gzipped copies (vite.config.ts, precompress) go as they are to a browser that
    // takes gzip; without one, or to a client that does not, the file itself.
    preCompressed: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders: (res, filePath) => {
      res.setHeader("cache-control", cacheControlFor(filePath));
      // The same URL answers gzip or not by the request's Accept-Encoding: caches must keep both.
      res.setHeader("vary", "accept-encoding");
    },
  });
}

/**
 * Paths that are never pages: the API, uploads, and the folders of the built client that hold
 * only files (Vite's hashed assets, icons, screenshots). A missing file there is a 404.
 */
const NEVER_SHELL = ["/api/", "/storage/", "/assets/", "/icons/", "/screenshots/", "/face-models/", "/face-wasm/"];

/**
 * Whether a GET that matched no route and no file should get the app shell. A browser navigation
 * (`Accept: text/html`) always does, whatever the path holds — dots included, as in
 * `/admin/iframe/https%3A%2F%2Fexample.com` or `/exam/notes.txt` (the client router shows its
 * 404 page for a path it does not know). Other requests get it only for page-like paths: no file
 * extension, and not under /admin, where everything else is an admin API call.
 */
export function wantsAppShell(req: FastifyRequest): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const pathname = (req.url.split("?")[0] ?? "/").toLowerCase();
  if (pathname === "/api" || NEVER_SHELL.some((p) => pathname.startsWith(p))) return false;
  if ((req.headers.accept ?? "").includes("text/html")) return true;
  if (pathname === "/admin" || pathname.startsWith("/admin/")) return false;
  return path.posix.extname(pathname) === "";
}

export function sendAppShell(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-cache").sendFile("index.html");
}
