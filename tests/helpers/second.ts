import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app.ts";
import type { AppConfig } from "../../src/server/config.ts";
import { LogCapture, testConfig, type TestApp } from "./app.ts";

/**
 * A second server process on the same database, for races: on PostgreSQL another app on its
 * own connection pool (what two processes behind one PostgreSQL are); on PGlite, which has one
 * connection, the same app. `close` shuts only what was opened here.
 */
export async function secondServer(t: TestApp, config: Partial<AppConfig> = {}): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const other = await t.database.openAnother();
  if (!other) return { app: t.app, close: async () => {} };
  const app = await buildApp(testConfig({ ...config, seedDemo: false }), { db: other, logStream: new LogCapture() });
  await app.ready();
  return { app, close: () => app.close() };
}
