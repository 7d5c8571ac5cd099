// The options every embedded database is opened with: the server's own thread
// (pglite-worker.mjs), an in-memory database (pglite.ts: the tests, `npm run db:types`) and the
// benches that seed a DATA_DIR (tests/bench). Plain JavaScript, so the worker (copied as it is into
// dist/server: vite.config.ts, serverWorkers) and the benches import it without a build.
// - parsers: int8 and numeric as JS numbers, a date as its "YYYY-MM-DD" text (database.ts says
//   why; the PostgreSQL driver is given the same).
// - extensions: pg_trgm, whose trigram indexes serve the lists' quick search (migration 0058). A
//   database with those indexes cannot be written to (nor searched) by a PGlite opened without it.
//   Importing this file loads only the extension's descriptor (where its 15 KB bundle is), not
//   PGlite: the bundle is read when a database opens.
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

export const pgliteOptions = {
  parsers: { 20: (value) => Number(value), 1700: (value) => Number(value), 1082: (value) => value },
  extensions: { pg_trgm },
};
