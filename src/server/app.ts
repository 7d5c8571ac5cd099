import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import compress from "@fastify/compress";
import rateLimit from "@fastify/rate-limit";
import type { DestinationStream } from "pino";
import type { AppConfig } from "./config.ts";
import { openDatabase, type Database } from "./db/index.ts";
import { deferredDatabase } from "./db/deferred.ts";
import { migrate } from "./db/migrate.ts";
import { phase } from "./startup.ts";
import { seedDemo } from "./demo/index.ts";
import { envelopePlugin, frameworkError, sendNotFound } from "./plugins/envelope.ts";
import { hasBuiltClient, registerClient, sendAppShell, wantsAppShell } from "./plugins/client.ts";
import { loggerOptions } from "./plugins/logging.ts";
import { healthRoutes } from "./modules/health/routes.ts";
import { adminAccessPlugin } from "./modules/admin/access.ts";
import { memberAccessPlugin } from "./plugins/auth.ts";
import { adminIndexRoutes } from "./modules/admin/index.ts";
import { adminProfileRoutes } from "./modules/admin/profile.ts";
import { dashboardRoutes } from "./modules/admin/dashboard.ts";
import { refreshRoutes } from "./modules/common/refresh.ts";
import { userIndexRoutes } from "./modules/user/index.ts";
import { checkInRoutes } from "./modules/user/checkIn.ts";
import { invitationRoutes } from "./modules/user/invitation.ts";
import { codeRoutes } from "./modules/common/codes.ts";
import { accountRoutes } from "./modules/account/routes.ts";
import { fileRoutes } from "./modules/upload/index.ts";
import { captchaRoutes } from "./modules/common/captcha.ts";
import { examRoutes } from "./modules/exam/index.ts";
import { courseRoutes } from "./modules/course/index.ts";
import { syncRoutes } from "./sync/routes.ts";
import { crudRoutes } from "./crud/index.ts";
import { codegenRoutes } from "./modules/codegen/routes.ts";
import { marketRoutes } from "./modules/market/routes.ts";
import { faceRoutes } from "./modules/face/routes.ts";
import { certificateRoutes } from "./modules/certificate/routes.ts";
import { smtpSender, tableSender, type MessageSender } from "./auth/senders.ts";
import { settingsMailSender } from "./modules/routine/mail.ts";
import { settingsSmsSender } from "./modules/routine/sms.ts";
import { routineRoutes } from "./modules/routine/index.ts";
import { terminalRoutes } from "./modules/terminal/routes.ts";
import { pushRoutes } from "./modules/push/index.ts";
import { noticeRoutes } from "./modules/notice/index.ts";
import { reportRoutes } from "./modules/report/routes.ts";
import { fetchTransport, type PushTransport } from "./modules/push/transport.ts";
import type { CommandTable } from "./modules/terminal/commands.ts";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
    config: AppConfig;
    /** How emails and text messages leave the system. */
    sender: MessageSender;
    /**
     * A start-up read of the database (the generated resources, the modules, the demo media):
     * run once the database has opened and the migrations ran, before any request is served.
     */
    whenOpen(read: () => Promise<void>): void;
    /** Resolves when the database is usable and every `whenOpen` read has run (buildApp). */
    opened: Promise<void>;
  }
}

export interface AppDeps {
  /** A database opened by the caller (tests); the caller closes it. */
  db?: Database;
  /**
   * A database the caller began opening (main.ts, while the app's modules load); the app closes
   * it. buildApp then answers before it has opened: the caller awaits `app.opened`.
   */
  opening?: Promise<Database>;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** Replaces the message sender (tests). */
  sender?: MessageSender;
  /** Tests only: the SMS provider may be a local test double (never set from configuration). */
  smsAllowLocal?: boolean;
  /** Called for every route as it is added (tests enumerate the route table with it). */
  onRoute?: (route: RouteOptions) => void;
  /** Replaces the HTTP POST to the push services (tests fake their answers). */
  pushTransport?: PushTransport;
  /** Extra allow-listed terminal commands (tests only; production has just its own list). */
  terminalCommands?: CommandTable;
}

/**
 * Builds the whole server: database (migrated, demo-seeded when asked), envelope and error
 * rules, API routes, and the built client with SPA fallback. Tests call it and use inject().
 *
 * With `deps.opening` (main.ts: a database still opening) it answers as soon as the routes are
 * registered, before the database has opened: the server can listen meanwhile, and
 * `app.opened` says when the database is usable (opened, migrated, demo-seeded, and the start-up
 * reads of `app.whenOpen` done). Until then every request waits, so nothing reads or writes
 * before the migrations ran and `/api/health` is not green before the database answers.
 * Otherwise it answers once all that is done.
 */
export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  const opening = deps.db ? Promise.resolve(deps.db) : (deps.opening ?? openDatabase(config));
  // The database's own start-up work, on the database's side while the routes register here.
  const migrated = opening.then(async (opened) => {
    await migrate(opened);
    phase("migrations checked");
    if (config.seedDemo) await seedDemo(opened);
    phase("demo seed checked");
  });
  migrated.catch(() => undefined); // app.opened reports it
  // Whatever reads the database before `migrated` (a route's registration) waits for it. A
  // caller's open database (tests) is migrated before anything else, as it always was.
  if (deps.db) await migrated;
  const db = deps.db ?? deferredDatabase(opening, migrated, config.databaseUrl ? "postgres" : "pglite");
  const startupReads: (() => Promise<void>)[] = [];
  let app: FastifyInstance;
  try {
    app = Fastify({
      logger: { ...loggerOptions(config.logLevel), ...(deps.logStream ? { stream: deps.logStream } : {}) },
      bodyLimit: config.bodyLimit,
      trustProxy: config.trustProxy,
      return503OnClosing: true,
      forceCloseConnections: "idle",
      frameworkErrors: frameworkError,
      // No HEAD twin of every GET: Fastify's would run the GET's handler, and some GETs act (the
      // terminal runs a command, the captcha makes a challenge). Only the file-serving routes
      // (the built client, /storage) declare HEAD themselves.
      exposeHeadRoutes: false,
    });
  } catch (error) {
    if (!deps.db) await db.close();
    throw error;
  }
  app.decorate("whenOpen", (read: () => Promise<void>) => {
    startupReads.push(read);
  });
  let usable = false;
  let registered!: () => void;
  const routesRegistered = new Promise<void>((resolve) => (registered = resolve));
  app.decorate(
    "opened",
    Promise.all([migrated, routesRegistered]).then(async () => {
      // Side by side (each its own round trips), and all ended before a failure is reported.
      const failed = (await Promise.allSettled(startupReads.map((read) => read()))).find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
      usable = true;
    }),
  );
  app.opened.catch(() => undefined); // awaited below or by the caller, not an unhandled rejection meanwhile
  // First of every request's hooks (the routes' own come after the app's): wait for the database.
  app.addHook("onRequest", (_req, _reply, done) => {
    if (usable) done();
    else app.opened.then(() => done(), done);
  });

  if (deps.onRoute) app.addHook("onRoute", deps.onRoute);
  app.decorate("db", db);
  app.decorate("config", config);
  app.decorate("generatedResources", new Map());
  app.decorate("moduleResources", new Map());
  app.decorate("pushTransport", deps.pushTransport ?? fetchTransport);
  // Closed once its start-up work has ended: a SIGTERM during start-up never cuts a migration short.
  if (!deps.db) app.addHook("onClose", async () => app.opened.then(() => db.close(), () => db.close()));
  const table = tableSender(db, app.log);
  app.decorate("sender", deps.sender ?? settingsSmsSender(db, app.log, settingsMailSender(db, config.smtp ? smtpSender(config.smtp, table) : table), { allowLocal: deps.smsAllowLocal }));

  // gzip for text (a 1,000-question bank is ~630 KiB of JSON); media and images are left alone.
  await app.register(compress, { global: true, threshold: 1024, encodings: ["gzip", "deflate"] });
  await app.register(envelopePlugin, { bodyLimit: config.bodyLimit });
  // Limits are per route (login, code sending); answered in the envelope with HTTP 429.
  await app.register(rateLimit, { global: false });
  // Every /admin/ route declares the rule it needs (config.adminRule), checked before its handler.
  await app.register(adminAccessPlugin);
  // Every /api/ route declares who may call it (config.auth), checked before its handler.
  await app.register(memberAccessPlugin);
  await app.register(healthRoutes);
  await app.register(refreshRoutes);
  await app.register(adminIndexRoutes);
  await app.register(adminProfileRoutes);
  await app.register(dashboardRoutes);
  await app.register(userIndexRoutes);
  await app.register(captchaRoutes);
  await app.register(checkInRoutes);
  await app.register(invitationRoutes);
  await app.register(codeRoutes);
  await app.register(accountRoutes);
  await app.register(fileRoutes);
  await app.register(examRoutes);
  await app.register(courseRoutes);
  await app.register(syncRoutes);
  await app.register(faceRoutes);
  await app.register(certificateRoutes);
  await app.register(crudRoutes);
  await app.register(codegenRoutes);
  await app.register(marketRoutes);
  await app.register(routineRoutes);
  await app.register(pushRoutes);
  await app.register(noticeRoutes);
  await app.register(reportRoutes);
  await app.register(terminalRoutes, {
    projectDir: config.projectDir ?? process.cwd(),
    timeoutMs: (config.terminalTimeoutSeconds ?? 15 * 60) * 1000,
    ...(config.serverEntry ? { serverEntry: config.serverEntry } : {}),
    ...(deps.terminalCommands ? { extraCommands: deps.terminalCommands } : {}),
  });

  phase("routes registered");
  const withClient = hasBuiltClient(config.clientDir);
  if (withClient) await registerClient(app, config.clientDir!);
  app.setNotFoundHandler((req, reply) =>
    withClient && wantsAppShell(req) ? sendAppShell(reply) : sendNotFound(req, reply),
  );
  phase("client files");
  registered();
  if (!deps.opening) {
    try {
      await app.opened;
    } catch (error) {
      await app.close();
      throw error;
    }
  }
  return app;
}
