import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on its first use instead of at start-up. For the packages only some
 * requests need (drawing a captcha or a face, sanitising rich text, sending mail or a push, the
 * PostgreSQL driver when the embedded database is used): reading and evaluating them is a good
 * part of the server's start, and most starts never need them. `typeof import("pkg")` keeps the
 * types; the first call costs what the import would have.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
