/** Business constants of SPEC §9 and the wire conventions of API.md, shared by both sides. */

export const LANGUAGES = ["zh-cn", "en"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "zh-cn";
export const FALLBACK_LANGUAGE: Language = "zh-cn";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Picks a supported language from a `think-lang` header or a stored choice. */
export function resolveLanguage(value: unknown): Language {
  if (typeof value !== "string") return FALLBACK_LANGUAGE;
  const lower = value.trim().toLowerCase();
  if (isLanguage(lower)) return lower;
  if (lower.startsWith("en")) return "en";
  return FALLBACK_LANGUAGE;
}

/** Request headers (SPEC §3). */
export const HEADER_ADMIN_TOKEN = "batoken";
export const HEADER_USER_TOKEN = "ba-user-token";
export const HEADER_LANGUAGE = "think-lang";

/** Envelope codes (API.md). */
export const ApiCode = {
  FAIL: 0,
  SUCCESS: 1,
  REDIRECT: 302,
  LOGIN: 303,
  NO_PERMISSION: 401,
  TOKEN_EXPIRED: 409,
} as const;
export type ApiCode = (typeof ApiCode)[keyof typeof ApiCode];

export const REQUEST_TIMEOUT_MS = 10_000;
export const LOADER_HIDE_MS = 1_000;
export const MENU_WIDTH = 260;
export const MENU_WIDTH_COLLAPSED = 64;
export const UUID_LENGTH = 36;
export const DEFAULT_PORT = 8000;
