import type { Extension, ParserOptions } from "@electric-sql/pglite";

/** The options every embedded database is opened with (pglite-options.mjs). */
export declare const pgliteOptions: { parsers: ParserOptions; extensions: { pg_trgm: Extension } };
