import { AVATAR_ACCEPT, AVATAR_MIMETYPE } from "./avatar.ts";
import type { UploadConfig } from "./upload.ts";

/**
 * Images put into rich text (course introductions, lesson content) from the back office's editor:
 * uploaded through the ordinary upload route with this topic, which holds them to the image types
 * below on top of the site's upload settings (its size limit stays). The editor inserts the
 * stored file's /storage/ URL, never the file's bytes as a data: URI.
 */
export const RICH_TEXT_IMAGE_TOPIC = "editor";

/**
 * The raster images every browser shows (the avatar's list). Not SVG: a stored SVG opened from
 * /storage/ on its own runs its script on this site.
 */
export const RICH_TEXT_IMAGE_MIMETYPE = AVATAR_MIMETYPE;

/** The file chooser's `accept` for an image of rich text. */
export const RICH_TEXT_IMAGE_ACCEPT = AVATAR_ACCEPT;

/** The upload rules an image of rich text is held to, given the site's (its size, the image types). */
export function richTextImageRules(site: UploadConfig): UploadConfig {
  return { maxsize: site.maxsize, mimetype: RICH_TEXT_IMAGE_MIMETYPE };
}
