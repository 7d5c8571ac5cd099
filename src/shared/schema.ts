import { z } from "zod";
import type { MessageDescriptor } from "@lingui/core";
import { isSafeText } from "./text.ts";

export { isSafeText, toSafeText } from "./text.ts";

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

/**
 * Per-field messages of request schemas: `withMessage(dbIdParam, msg\`Please choose a course\`)`
 * is the field's own copy of the schema carrying the message a person sees when the value is
 * refused (translated per request on the server). A message on an object covers the fields under
 * it that carry none; the deepest message on an issue's path wins (`fieldMessage`).
 */
export const fieldMessages = z.registry<{ message: MessageDescriptor }>();

export function withMessage<T extends z.ZodType>(schema: T, message: MessageDescriptor): T {
  const copy = schema.clone() as T;
  fieldMessages.add(copy, { message });
  return copy;
}

/** A JSON body: absent (no body at all) counts as `{}`, so optional fields stay optional. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => value ?? {}, schema);
}

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
}

const defOf = (schema: z.ZodType): SchemaDef => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** `schema` and the schemas it wraps (optional, default, pipes...), outermost first. */
function layers(schema: z.ZodType): z.ZodType[] {
  const found: z.ZodType[] = [];
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 16; depth++) {
    found.push(current);
    const def = defOf(current);
    if (def.innerType) current = def.innerType;
    else if (def.type === "pipe") current = def.out && defOf(def.out).type !== "transform" ? def.out : def.in;
    else current = undefined;
  }
  return found;
}

/**
 * The message for a refused value at `path` (object keys, array indexes) of `schema`: the
 * deepest `withMessage` on the way, or null when none covers it.
 */
export function fieldMessage(schema: z.ZodType, path: readonly (string | number)[]): MessageDescriptor | null {
  let found: MessageDescriptor | null = null;
  let level: z.ZodType | undefined = schema;
  for (let i = 0; level; i++) {
    let next: z.ZodType | undefined;
    for (const layer of layers(level)) {
      found = fieldMessages.get(layer)?.message ?? found;
      if (i >= path.length || next) continue;
      const def = defOf(layer);
      const key = path[i]!;
      if (def.shape) next = Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
      else if (def.element) next = def.element;
      else if (def.valueType) next = def.valueType;
      else if (def.items) next = def.items[Number(key)];
    }
    level = i < path.length ? next : undefined;
  }
  return found;
}
