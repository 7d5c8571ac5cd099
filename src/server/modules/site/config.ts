import type { AppConfig } from "../../config.ts";
import type { Queryable } from "../../db/index.ts";
import { parseSize } from "../../../shared/upload.ts";
import { getSettings } from "../../settings.ts";
import { APP_VERSION } from "../../version.ts";

/** The keys of the site settings the site config is made of (changed in the back office's config screen). */
export const SITE_CONFIG_KEYS = ["site_name", "record_number", "upload_mode", "upload_maxsize", "upload_mimetype"] as const;

const DEFAULT_MAXSIZE = 10 * 1024 * 1024;

/** The stored "10mb" in bytes (a value that does not parse: the default). */
function bytesOf(size: unknown): number {
  try {
    return typeof size === "string" || typeof size === "number" ? parseSize(size) : DEFAULT_MAXSIZE;
  } catch {
    return DEFAULT_MAXSIZE;
  }
}

/**
 * Site config sent to both sides (SPEC §3), from the site settings as they are now (read per
 * request: a change in the back office applies at once, without a restart).
 */
export async function siteConfig(config: AppConfig, db: Queryable) {
  const settings = await getSettings(db, SITE_CONFIG_KEYS);
  return {
    siteName: settings.site_name || config.siteName,
    /** The 401 page's "contact the administrator" (SITE_CONTACT); hidden when "". */
    contactUrl: config.siteContactUrl ?? "",
    recordNumber: settings.record_number,
    version: APP_VERSION,
    cdnUrl: "",
    apiUrl: "",
    upload: {
      mode: settings.upload_mode,
      maxsize: bytesOf(settings.upload_maxsize),
      mimetype: settings.upload_mimetype,
      savename: "/storage/{topic}/{year}{mon}{day}/{filesha1}{.suffix}",
    },
    headNav: [],
  };
}
