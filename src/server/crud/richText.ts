import type { z } from "zod";
import { sanitizeRichText } from "../modules/course/html.ts";

/**
 * Rich text written through the back office (the client's `richText` field, TipTap) is
 * sanitised on the server before it is stored, with the one policy of `sanitizeRichText`
 * (modules/course/html.ts, sanitize-html): formatting, headings, lists, quotes, code, tables,
 * links and images stay; scripts, styles, event handlers, iframes, forms and `javascript:` URLs
 * go. A resource whose body has HTML fields wraps its shared schema:
 * `add: withSanitizedHtml(courseAdd, ["introduction"])`.
 */

export { sanitizeRichText };

/** The body with each named string field sanitised (other fields as they are). */
export function sanitizeHtmlFields<T extends Record<string, unknown>>(body: T, fields: readonly (keyof T & string)[]): T {
  const out: Record<string, unknown> = { ...body };
  for (const field of fields) if (typeof out[field] === "string") out[field] = sanitizeRichText(out[field]);
  return out as T;
}

/** The schema, then its HTML fields sanitised: what a route validates is what gets stored. */
export function withSanitizedHtml<S extends z.ZodType<Record<string, unknown>>>(schema: S, fields: readonly string[]) {
  return schema.transform((body) => sanitizeHtmlFields(body, fields as never));
}
