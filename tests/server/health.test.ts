import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.ts";
import type { Database } from "../../src/server/db/index.ts";
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
