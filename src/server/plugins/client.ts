import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyStatic from "@fastify/static";

/** Files that must be revalidated on every load so a new release is picked up. */
const NO_CACHE = new Set(["index.html", "sw.js", "manifest.webmanifest", "registerSW.js"]);

export function cacheControlFor(filePath: string): string {
  const base = path.basename(filePath);
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
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders: (res, filePath) => {
      res.setHeader("cache-control", cacheControlFor(filePath));
    },
  });
}

const API_PREFIXES = ["/api/", "/storage/", "/assets/"];

/**
 * Whether a request that matched no route and no file should get the app shell: a GET for a
 * page path (no file extension, not an API path). Paths under /admin/ are both back-office
 * pages and admin API calls: only browser navigations (Accept: text/html) are pages there.
 */
export function wantsAppShell(req: FastifyRequest): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const pathname = (req.url.split("?")[0] ?? "/").toLowerCase();
  if (pathname === "/api" || API_PREFIXES.some((p) => pathname.startsWith(p))) return false;
  if (path.posix.extname(pathname) !== "") return false;
  if (pathname === "/admin" || pathname.startsWith("/admin/")) {
    return (req.headers.accept ?? "").includes("text/html");
  }
  return true;
}

export function sendAppShell(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-cache").sendFile("index.html");
}
