/** URL rules of SPEC §5: which links are absolute, and how relative ones get their base. */

const ABSOLUTE_URL = /^(?:https?|ftp|mailto|tel):/i;
const PROTOCOL_RELATIVE_URL = /^\/\//;
const DATA_IMAGE_URL = /^data:image\//i;

/** Links starting with `http:`, `https:`, `ftp:`, `mailto:` or `tel:` (any case) are absolute. */
export function isAbsoluteUrl(url: string): boolean {
  return ABSOLUTE_URL.test(url);
}

/**
 * The address to use for a stored link. Absolute, protocol-relative (`//host/...`) and
 * `data:image/...` URLs are returned unchanged; anything else is joined to `cdnUrl` when it is
 * given and non-empty, else to `defaultBase`, with exactly one `/` between them. An empty url
 * gives ''; with no base at all the url is returned unchanged.
 */
export function fullUrl(url: string, cdnUrl?: string | null, defaultBase?: string | null): string {
  if (!url) return "";
  if (isAbsoluteUrl(url) || PROTOCOL_RELATIVE_URL.test(url) || DATA_IMAGE_URL.test(url)) return url;
  const base = cdnUrl ? cdnUrl : (defaultBase ?? "");
  if (!base) return url;
  return `${base.replace(/\/+$/, "")}/${url.replace(/^\/+/, "")}`;
}
