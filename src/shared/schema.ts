import { z } from "zod";

/**
 * Bounded building blocks for every request schema (route parameters, bodies and sync ops), so
 * that a value the database cannot store is refused by validation with a clear message instead
 * of reaching PostgreSQL (which would fail the statement):
 * - ids, positions and counts live in `integer` (int4) columns: at most 2^31 - 1;
 * - text and JSON refuse the NUL character and unpaired UTF-16 surrogates (`"\ud800"` is valid
 *   JSON and a valid JS string, but not UTF-8: PostgreSQL refuses it in jsonb, and a text
 *   column would silently get U+FFFD instead).
 * Times in ms and money in cents live in `bigint` columns and have their own bounds.
 */

/** Largest value of a PostgreSQL `integer` (int4) column. */
export const DB_INT_MAX = 2_147_483_647;
/** Smallest value of a PostgreSQL `integer` (int4) column. */
export const DB_INT_MIN = -2_147_483_648;

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

/** Most strings, array items and object keys `hasUnsafeText` looks at before giving up (and answering true). */
export const MAX_INSPECTED_VALUES = 200_000;

/**
 * True when any string or object key anywhere in `value` (objects and arrays, however deep) is
 * not safe text. Iterative, so a deeply nested body cannot exhaust the stack; a value too big to
 * inspect counts as unsafe.
 */
export function hasUnsafeText(value: unknown): boolean {
  const stack: unknown[] = [value];
  let budget = MAX_INSPECTED_VALUES;
  while (stack.length > 0) {
    if (--budget < 0) return true;
    const item = stack.pop();
    if (typeof item === "string") {
      if (!isSafeText(item)) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (!isSafeText(key)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

const UNSAFE_MESSAGE = "must not contain NUL or unpaired surrogate characters";

/** A string of at most `max` UTF-16 units that PostgreSQL can store. */
export function safeText(max: number) {
  return z.string().max(max).refine(isSafeText, UNSAFE_MESSAGE);
}

/** An integer that fits an `integer` column, within [min, max]. */
export function dbInt(min = 0, max = DB_INT_MAX) {
  return z
    .number()
    .int()
    .min(Math.max(min, DB_INT_MIN))
    .max(Math.min(max, DB_INT_MAX));
}

/** A row id (serial / integer column): 1 .. 2^31 - 1. */
export const dbId = dbInt(1);

/** A row id from a query string ("12"): 1 .. 2^31 - 1. */
export const dbIdParam = z.coerce.number().int().min(1).max(DB_INT_MAX);

/** An integer from a query string, within [min, max] (bounded by the int4 range). */
export function dbIntParam(min = 0, max = DB_INT_MAX) {
  return z.coerce
    .number()
    .int()
    .min(Math.max(min, DB_INT_MIN))
    .max(Math.min(max, DB_INT_MAX));
}

/** Decimal text of a row id, e.g. a question id used as an object key: "1" .. "2147483647". */
export const dbIdKey = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, "must be a decimal id")
  .refine((key) => Number(key) <= DB_INT_MAX, "must be at most 2147483647");
