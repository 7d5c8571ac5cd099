import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { buildApp, type AppDeps } from "../../src/server/app.ts";
import type { AppConfig } from "../../src/server/config.ts";
import { createTestDatabase, type TestDatabase } from "./db.ts";

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    host: "127.0.0.1",
    databaseUrl: undefined,
    dataDir: "/nonexistent-test-data-dir",
    seedDemo: false,
    logLevel: "info",
    bodyLimit: 1024 * 1024,
    clientDir: undefined,
    trustProxy: false,
    inMemory: true,
    tokenTtl: { access: 3 * 86_400, refresh: 30 * 86_400 },
    siteName: "ExamHub",
    loginRateLimit: 20,
    loginAddressRateLimit: 600,
    loginLockSeconds: 86_400,
    ...overrides,
  };
}

/** Captures the server's log lines (JSON) so tests can read what was logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join("\n");
  }
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  logs: LogCapture;
  close(): Promise<void>;
}

/**
 * The real server on a fresh test database. `prepare` may add routes before the app is ready
 * (tests of the envelope use it to add routes that throw).
 */
export async function createTestApp(
  options: {
    config?: Partial<AppConfig>;
    deps?: Omit<AppDeps, "db" | "logStream">;
    prepare?: (app: FastifyInstance) => unknown;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const logs = new LogCapture();
  const app = await buildApp(testConfig(options.config), { ...options.deps, db: database.db, logStream: logs });
  await options.prepare?.(app);
  await app.ready();
  return {
    app,
    database,
    logs,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
