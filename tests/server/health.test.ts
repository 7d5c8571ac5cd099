import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.ts";
import type { Database } from "../../src/server/db/index.ts";
import { migrate } from "../../src/server/db/migrate.ts";
import { StartupError } from "../../src/server/errors.ts";
import { APP_VERSION } from "../../src/server/version.ts";
import { LogCapture, createTestApp, testConfig, type TestApp } from "../helpers/app.ts";
import { createTestDatabase } from "../helpers/db.ts";

describe("GET /api/health", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("reports the database after a real query, and the version", async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 1, data: { db: "ok", version: APP_VERSION } });
    expect(APP_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("answers 503 with db: 'error' when the database does not answer", async () => {
    const database = await createTestDatabase();
    let broken = false;
    const flaky: Database = {
      ...database.db,
      query: (sql, params) => (broken ? Promise.reject(new Error("connection lost")) : database.db.query(sql, params)),
    };
    const app = await buildApp(testConfig(), { db: flaky, logStream: new LogCapture() });
    try {
      broken = true;
      const res = await app.inject({ method: "GET", url: "/api/health", headers: { "think-lang": "en" } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 0, msg: "The database is unavailable", data: { db: "error" } });
    } finally {
      await app.close();
      await database.drop();
    }
  });
});

/**
 * `npm start` registers the routes and listens while the database is still opening (app.ts,
 * serve.ts): a request meanwhile waits for the database (opened and migrated), and health is
 * never green before it answers.
 */
describe("while the database is still opening", () => {
  /** A database opening that the test finishes (or fails) when it wants. */
  function opening() {
    let open!: (db: Database) => void;
    let fail!: (error: Error) => void;
    const promise = new Promise<Database>((resolve, reject) => {
      open = resolve;
      fail = reject;
    });
    return { promise, open, fail };
  }
  const tick = () => new Promise((resolve) => setTimeout(resolve, 50));
  /** Migrating a new database from nothing takes a while on a loaded machine. */
  const MIGRATING = 120_000;

  it("the routes are registered before it opens; a request waits, then is answered on the migrated database", async () => {
    const database = await createTestDatabase({ migrated: false });
    const db = opening();
    const app = await buildApp(testConfig(), { opening: db.promise, logStream: new LogCapture() });
    try {
      expect(app.hasRoute({ method: "GET", url: "/api/health" })).toBe(true);
      let answered = false;
      const health = app.inject({ method: "GET", url: "/api/health" }).then((res) => {
        answered = true;
        return res;
      });
      await tick();
      expect(answered).toBe(false);
      db.open(database.db);
      const res = await health;
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ code: 1, data: { db: "ok" } });
      // The migrations ran before the request was let through: nothing is left to apply.
      await expect(migrate(database.db)).resolves.toEqual([]);
    } finally {
      await app.close();
      await database.drop();
    }
  }, MIGRATING);

  it("a database that fails to open fails the start-up, and the waiting request is not answered as healthy", async () => {
    const db = opening();
    const app = await buildApp(testConfig(), { opening: db.promise, logStream: new LogCapture() });
    const health = app.inject({ method: "GET", url: "/api/health" });
    db.fail(new StartupError("Cannot open the embedded database in /nowhere: broken"));
    await expect(app.opened).rejects.toThrow("Cannot open the embedded database in /nowhere: broken");
    const res = await health;
    expect(res.statusCode).not.toBe(200);
    expect(res.json()).toMatchObject({ code: 0 });
    await app.close();
  });

  it("closing during start-up (SIGTERM) waits for the opening and the migrations, then closes the database", async () => {
    const database = await createTestDatabase({ migrated: false });
    const db = opening();
    const app = await buildApp(testConfig(), { opening: db.promise, logStream: new LogCapture() });
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await tick();
    expect(closed).toBe(false);
    db.open(database.db);
    await closing;
    await expect(app.opened).resolves.toBeUndefined();
    await expect(database.db.query("select 1")).rejects.toThrow();
    await database.drop().catch(() => undefined);
  }, MIGRATING);
});
