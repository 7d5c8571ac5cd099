import { appendFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.ts";
import type { AppConfig } from "./config.ts";
import type { Database } from "./db/index.ts";
import { StartupError } from "./errors.ts";
import { setCaptchaObserver } from "./auth/captcha.ts";
import { setOutboxObserver } from "./auth/senders.ts";
import { S3Store } from "./modules/upload/s3.ts";
import { fileStore } from "./modules/upload/store.ts";
import { useOffsetFile } from "./clock.ts";
import { startReminders } from "./modules/push/reminders.ts";
import { startNotices } from "./modules/notice/service.ts";
import { phase, phasesLine } from "./startup.ts";

/**
 * The server of the process (main.ts): built on the database main.ts began opening while this
 * module and the app's were loading, listening, its clock jobs started once the database is
 * usable, and a clean shutdown on SIGTERM/SIGINT (stop accepting, let in-flight requests
 * finish, close the database once its start-up work has ended), during start-up too.
 */
export async function serve(config: AppConfig, opening: Promise<Database>): Promise<void> {
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
  // The routes register while the database opens; the server listens before it has opened
  // (a request meanwhile waits for it: app.ts), and says it is listening once the database is
  // usable, so the line still means "ready" to the people and scripts that wait for it.
  const app = await buildApp(config, { opening }).catch(async (error: unknown) => {
    // A database that cannot open says so (an unwritable DATA_DIR fails the storage routes too);
    // one that opened is closed again.
    const db = await opening;
    await db.close();
    throw error;
  });
  const closing = installShutdown(app);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    // A database that could not open (a second server on the same DATA_DIR) says so first, as
    // when the server listened only after opening it.
    await app.opened;
    const err = error as NodeJS.ErrnoException;
    if (err.code === "EADDRINUSE") {
      throw new StartupError(`Port ${config.port} on ${config.host} is already in use (set PORT to another port)`);
    }
    throw error;
  }
  phase("listening");
  try {
    await app.opened;
  } catch (error) {
    if (!closing()) await app.close();
    throw error;
  }
  phase("database usable");
  // A SIGTERM during start-up: the shutdown has closed (or is closing) the server and the database.
  if (closing()) return;
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
  process.stderr.write(phasesLine());
}

/** SIGTERM/SIGINT close the server cleanly; answers whether that has begun. */
function installShutdown(app: FastifyInstance): () => boolean {
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
  return () => closing;
}
