import Fastify, { type FastifyInstance } from "fastify";
import type { DestinationStream } from "pino";
import type { AppConfig } from "./config.ts";
import { openDatabase, type Database } from "./db/index.ts";
import { migrate } from "./db/migrate.ts";
import { seedDemo } from "./db/seed/index.ts";
import { envelopePlugin, sendNotFound } from "./plugins/envelope.ts";
import { hasBuiltClient, registerClient, sendAppShell, wantsAppShell } from "./plugins/client.ts";
import { loggerOptions } from "./plugins/logging.ts";
import { healthRoutes } from "./modules/health/routes.ts";
import { adminIndexRoutes } from "./modules/admin/index.ts";
import { refreshRoutes } from "./modules/common/refresh.ts";
import { userIndexRoutes } from "./modules/user/index.ts";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
    config: AppConfig;
  }
}

export interface AppDeps {
  /** A database opened by the caller (tests); the caller closes it. */
  db?: Database;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
}

/**
 * Builds the whole server: database (migrated, demo-seeded when asked), envelope and error
 * rules, API routes, and the built client with SPA fallback. Tests call it and use inject().
 */
export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  const db = deps.db ?? (await openDatabase(config));
  let app: FastifyInstance;
  try {
    await migrate(db);
    if (config.seedDemo) await seedDemo(db);
    app = Fastify({
      logger: { ...loggerOptions(config.logLevel), ...(deps.logStream ? { stream: deps.logStream } : {}) },
      bodyLimit: config.bodyLimit,
      trustProxy: config.trustProxy,
      return503OnClosing: true,
      forceCloseConnections: "idle",
    });
  } catch (error) {
    if (!deps.db) await db.close();
    throw error;
  }

  app.decorate("db", db);
  app.decorate("config", config);
  if (!deps.db) app.addHook("onClose", async () => db.close());

  await app.register(envelopePlugin, { bodyLimit: config.bodyLimit });
  await app.register(healthRoutes);
  await app.register(refreshRoutes);
  await app.register(adminIndexRoutes);
  await app.register(userIndexRoutes);

  const withClient = hasBuiltClient(config.clientDir);
  if (withClient) await registerClient(app, config.clientDir!);
  app.setNotFoundHandler((req, reply) =>
    withClient && wantsAppShell(req) ? sendAppShell(reply) : sendNotFound(req, reply),
  );
  return app;
}
