import { appendFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { openDatabase } from "./db/index.ts";
import { migrate } from "./db/migrate.ts";
import { StartupError } from "./errors.ts";
import { setCaptchaObserver } from "./auth/captcha.ts";
import { setOutboxObserver } from "./auth/senders.ts";
import { S3Store } from "./modules/upload/s3.ts";
import { fileStore } from "./modules/upload/store.ts";
import { useOffsetFile } from "./clock.ts";
import { startReminders } from "./modules/push/reminders.ts";
import { startNotices } from "./modules/notice/service.ts";

/**
 * The process: config from the environment, build, listen, and a clean shutdown on
 * SIGTERM/SIGINT (stop accepting, let in-flight requests finish, close the database).
 * Start-up problems print one line and exit 1.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env, {
    clientDir: fileURLToPath(new URL("../client/", import.meta.url)),
    // dist/server/main.js and src/server/main.ts alike: two folders up is the project.
    projectDir: fileURLToPath(new URL("../../", import.meta.url)),
    // The terminal's `migrate.run` starts this file again with --migrate.
    serverEntry: { program: process.execPath, args: [...process.execArgv.filter((a) => !a.startsWith("--inspect")), fileURLToPath(import.meta.url)] },
  });
  // Browser tests only: captcha answers appended to a file the test reads (never set in production).
  const answersFile = process.env.E2E_CAPTCHA_ANSWERS_FILE;
  if (answersFile) {
    setCaptchaObserver((id, centers, width, height) => appendFileSync(answersFile, `${JSON.stringify({ id, centers, width, height })}\n`));
  }
  // Browser tests only: the messages kept in the outbox table appended to a file (never in production).
  const outboxFile = process.env.E2E_OUTBOX_FILE;
  if (outboxFile) setOutboxObserver(({ channel, target, subject, body }) => appendFileSync(outboxFile, `${JSON.stringify({ channel, target, subject, body })}\n`));
  // Browser tests only: the clock of spaced review and reminders moved by a file (never in production).
  const clockFile = process.env.E2E_CLOCK_FILE;
  if (clockFile) useOffsetFile(clockFile);
  const app = await buildApp(config);
  installShutdown(app);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    const err = error as NodeJS.ErrnoException;
    if (err.code === "EADDRINUSE") {
      throw new StartupError(`Port ${config.port} on ${config.host} is already in use (set PORT to another port)`);
    }
    throw error;
  }
  // The push reminders' job: once a minute, in this process (the database claims each reminder once).
  startReminders(app);
  // The notices to members (rooms open, closing soon, results): once a minute, each made once in the database.
  startNotices(app);
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const where = config.databaseUrl ? "PostgreSQL" : `embedded PGlite in ${config.dataDir}`;
  const store = fileStore(config);
  const files = store instanceof S3Store ? `; uploads: ${store.describe()}` : "";
  // One plain line for people and for scripts that wait for the server.
  process.stdout.write(`Listening on http://${config.host}:${port} (database: ${where}${files})\n`);
}

function installShutdown(app: FastifyInstance): void {
  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      app.log.error("shutdown took longer than 10 s: exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "error during shutdown");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/** `--migrate`: applies the migrations to the configured database and exits (the terminal's `migrate.run`). */
async function migrateOnly(): Promise<void> {
  const db = await openDatabase(loadConfig(process.env));
  try {
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
