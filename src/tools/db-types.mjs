#!/usr/bin/env node
// `npm run db:types`: the database types (src/server/db/schema.generated.ts) generated from the
// migrations. A fresh in-memory PGlite is migrated with the server's own migrate() and
// kysely-codegen reads its catalog through a Kysely over the same seam, so the types are those of
// the schema the app really runs on. tests/server/db-types.test.ts regenerates them in memory and
// fails when the committed file has drifted. `--check` does the same here, writing nothing.
import fs from "node:fs";
import { fileURLToPath } from "node:url";

export const outFile = fileURLToPath(new URL("../server/db/schema.generated.ts", import.meta.url));

/**
 * The generated file's text. The server modules come in as arguments: vitest loads them itself,
 * and the command line loads them through Vite (src/server/db/migrate.ts lists its migrations with
 * import.meta.glob, which plain node cannot run).
 */
export async function generateSchemaTypes({ openMemoryPGlite, migrate, kyselyOf }) {
  const { generate, PostgresDialect } = await import("kysely-codegen");
  const { db } = await openMemoryPGlite();
  try {
    await migrate(db);
    return await generate({
      db: kyselyOf(db),
      // The parsers of src/server/db/database.ts: int8 and numeric arrive as numbers, a date as its text.
      dialect: new PostgresDialect({ numericParser: "number", dateParser: "string" }),
      typeMapping: { int8: "number" },
      // The migrator's own bookkeeping is no table the app queries.
      excludePattern: "public.schema_migrations",
      outFile: null,
      typeOnlyImports: true,
    });
  } finally {
    await db.close();
  }
}

/**
 * Why the committed file is not the generated one (its first differing line), or null when they
 * are the same text.
 */
export function schemaTypesDrift(committed, generated) {
  if (committed === generated) return null;
  const a = committed.split("\n");
  const b = generated.split("\n");
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  return `schema.generated.ts differs from the migrations at line ${line + 1}: ` +
    `committed ${JSON.stringify(a[line] ?? "(end of file)")}, migrations give ${JSON.stringify(b[line] ?? "(end of file)")}; run npm run db:types`;
}

/**
 * The server modules, loaded through Vite (kept open until `use` ends: openMemoryPGlite imports
 * PGlite when called, which a module runner closed after loading could no longer do).
 */
async function withServerModules(use) {
  const { createServer } = await import("vite");
  const server = await createServer({ configFile: false, logLevel: "error", appType: "custom", server: { middlewareMode: true, hmr: false, ws: false } });
  try {
    const load = (rel) => server.ssrLoadModule(fileURLToPath(new URL(rel, import.meta.url)));
    const [pglite, migrateModule, kysely] = await Promise.all([
      load("../server/db/pglite.ts"),
      load("../server/db/migrate.ts"),
      load("../server/db/kysely.ts"),
    ]);
    return await use({ openMemoryPGlite: pglite.openMemoryPGlite, migrate: migrateModule.migrate, kyselyOf: kysely.kyselyOf });
  } finally {
    await server.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const text = await withServerModules(generateSchemaTypes);
  if (process.argv.includes("--check")) {
    const drift = schemaTypesDrift(fs.existsSync(outFile) ? fs.readFileSync(outFile, "utf8") : "", text);
    if (drift) {
      process.stderr.write(`${drift}\n`);
      process.exit(1);
    }
    process.stdout.write("The database types match the migrations.\n");
  } else {
    fs.writeFileSync(outFile, text);
    process.stdout.write(`Wrote ${outFile}\n`);
  }
}
