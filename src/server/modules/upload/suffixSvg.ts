import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * File-type icons (SPEC §7 buildSuffixSvg row): an SVG document showing the suffix, used as an
 * image URL (so no token is needed). Only validated values reach the SVG, and they are
 * XML-escaped anyway.
 */

const SUFFIX = /^[a-zA-Z0-9]{1,8}$/;
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/;

const xmlEscape = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch] ?? "");

const single = (value: unknown): string | undefined => (typeof value === "string" ? value.trim() : undefined);

/** A pastel colour picked from the suffix, so each type keeps its own. */
function defaultColour(suffix: string): string {
  let hash = 0;
  for (const ch of suffix) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return `hsl(${hash % 360}, 55%, 55%)`;
}

/** `#rgb`, `#rrggbb` or `rgb(r,g,b)` with 0-255 channels (normalised), else undefined. */
export function safeColour(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (HEX.test(value)) return value.toLowerCase();
  const rgb = RGB.exec(value);
  if (!rgb) return undefined;
  const channels = rgb.slice(1, 4).map(Number);
  return channels.every((c) => c <= 255) ? `rgb(${channels.join(",")})` : undefined;
}

export function suffixSvg(rawSuffix: string | undefined, rawBackground: string | undefined): string {
  const suffix = (rawSuffix && SUFFIX.test(rawSuffix) ? rawSuffix : "file").toUpperCase();
  const background = safeColour(rawBackground) ?? defaultColour(suffix);
  // The label box is 384 units wide; Verdana capitals are about 0.72 em.
  const fontSize = Math.min(124, Math.floor(340 / (suffix.length * 0.72)));
  return `<?xml version="1.0" encoding="utf-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
<path fill="#E2E5E7" d="M128 0c-17.6 0-32 14.4-32 32v448c0 17.6 14.4 32 32 32h320c17.6 0 32-14.4 32-32V128L352 0H128z"/>
<path fill="#B0B7BD" d="M384 128h96L352 0v96c0 17.6 14.4 32 32 32z"/>
<polygon fill="#CAD1D8" points="480,224 384,128 480,128"/>
<path fill="${xmlEscape(background)}" d="M416 416c0 8.8-7.2 16-16 16H48c-8.8 0-16-7.2-16-16V256c0-8.8 7.2-16 16-16h352c8.8 0 16 7.2 16 16v160z"/>
<path fill="#CAD1D8" d="M400 432H96v16h304c8.8 0 16-7.2 16-16v-16C416 424.8 408.8 432 400 432z"/>
<text x="224" y="336" dominant-baseline="central" text-anchor="middle" font-family="Verdana, Helvetica, Arial, sans-serif" font-size="${fontSize}" fill="#FFFFFF">${xmlEscape(suffix)}</text>
</svg>
`;
}

async function sendSuffixSvg(req: FastifyRequest, reply: FastifyReply) {
  const query = (req.query ?? {}) as Record<string, unknown>;
  return reply
    .type("image/svg+xml; charset=utf-8")
    .header("cache-control", "public, max-age=2592000")
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
    .send(suffixSvg(single(query.suffix), single(query.background)));
}

export async function suffixSvgRoutes(app: FastifyInstance): Promise<void> {
  app.get("/api/ajax/buildSuffixSvg", { config: { auth: "public" } }, sendSuffixSvg);
  app.get("/admin/ajax/buildSuffixSvg", { config: { adminRule: "*" } }, sendSuffixSvg);
}
