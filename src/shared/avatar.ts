import type { UploadConfig } from "./upload.ts";

/**
 * Avatars (an admin's own profile, a member's profile, the back office's member form): uploaded
 * through the ordinary upload route with this topic, which holds them to the rules below on top
 * of the site's upload settings. The stored value stays the file's URL.
 */
export const AVATAR_TOPIC = "avatar";

/** Largest avatar, in bytes (or the site's upload limit, if that is smaller). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Raster images every browser shows, by extension and MIME type. Not SVG: it can carry script,
 * and an avatar is shown on every page of its owner.
 */
export const AVATAR_MIMETYPE = "png,jpg,jpeg,gif,webp,image/png,image/jpeg,image/gif,image/webp";

/** The file chooser's `accept` for an avatar. */
export const AVATAR_ACCEPT = "image/png,image/jpeg,image/gif,image/webp";

/** The upload rules an avatar is held to, given the site's (the smaller size, the image types). */
export function avatarRules(site: UploadConfig): UploadConfig {
  return { maxsize: Math.min(site.maxsize, AVATAR_MAX_BYTES), mimetype: AVATAR_MIMETYPE };
}
