/**
 * Text PostgreSQL can store (no NUL, no unpaired UTF-16 surrogate), without zod: the device's
 * offline layer cleans what a member typed with these, and the request schemas (schema.ts) refuse
 * the rest with them.
 */

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when PostgreSQL can store `text` as it is (no NUL, no unpaired surrogate). */
export function isSafeText(text: string): boolean {
  if (text.includes("\u0000")) return false;
  // String.prototype.isWellFormed (ES2024: Node 20, current browsers) is native and fast.
  const wellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof wellFormed === "function" ? wellFormed.call(text) : !UNPAIRED_SURROGATE.test(text);
}

/**
 * `text` as PostgreSQL can store it: NULs removed, unpaired surrogates replaced by U+FFFD (what
 * UTF-8 would make of them anyway). For text a member typed, where keeping the rest beats refusing
 * it all.
 */
export function toSafeText(text: string): string {
  if (isSafeText(text)) return text;
  // Surrogates first: dropping a NUL between two halves must not join them into a character.
  const toWellFormed = (text as { toWellFormed?: () => string }).toWellFormed;
  const wellFormed = typeof toWellFormed === "function" ? toWellFormed.call(text) : text.replace(new RegExp(UNPAIRED_SURROGATE.source, "g"), "\ufffd");
  return wellFormed.replaceAll("\u0000", "");
}
