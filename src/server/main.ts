import { fileURLToPath } from "node:url";
import { loadConfig } from "./config.ts";
import { openDatabase, type Database } from "./db/index.ts";
import { StartupError } from "./errors.ts";
import { phase } from "./startup.ts";

/**
 * The process: config from the environment, then the server (serve.ts). Start-up problems print
 * one line and exit 1.
 *
 * This file imports only what opening the database needs. The embedded database opens on a
 * thread of its own (PostgreSQL's WebAssembly compiled and started, its files read), and the
 * server's modules (Fastify, the routes, their libraries) are read and evaluated here meanwhile:
 * the two largest parts of a start run side by side, each on a core.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env, {
    clientDir: fileURLToPath(new URL("../client/", import.meta.url)),
    // dist/server/main.js and src/server/main.ts alike: two folders up is the project.
    projectDir: fileURLToPath(new URL("../../", import.meta.url)),
    // The terminal's `migrate.run` starts this file again with --migrate.
    serverEntry: { program: process.execPath, args: [...process.execArgv.filter((a) => !a.startsWith("--inspect")), fileURLToPath(import.meta.url)] },
  });
  phase("config");
  const opening = openDatabase(config).then((db) => {
    phase("database opened");
    return db;
  });
  // A failure to open is reported where the server awaits it (one line, below), not as an unhandled rejection meanwhile.
  opening.catch(() => undefined);
  const server = await import("./serve.ts").catch(async (error: unknown) => {
    await opening.then((db) => db.close(), () => undefined);
    throw error;
  });
  phase("modules loaded");
  await server.serve(config, opening);
}

/** `--migrate`: applies the migrations to the configured database and exits (the terminal's `migrate.run`). */
async function migrateOnly(): Promise<void> {
  const db: Database = await openDatabase(loadConfig(process.env));
  try {
    const { migrate } = await import("./db/migrate.ts");
    const applied = await migrate(db);
    process.stdout.write(applied.length > 0 ? `Applied migrations: ${applied.join(", ")}\n` : "The database is up to date: no migration to apply\n");
  } finally {
    await db.close();
  }
}

(process.argv.includes("--migrate") ? migrateOnly() : main()).catch((error: unknown) => {
  const message = error instanceof StartupError ? error.message : `Start-up failed: ${(error as Error)?.message ?? String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
