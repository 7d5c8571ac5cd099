import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, redactUrl } from "../../src/server/config.ts";
import { StartupError } from "../../src/server/errors.ts";

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8000, host: "127.0.0.1", databaseUrl: undefined, seedDemo: true, logLevel: "info" });
    expect(c.dataDir).toBe(path.resolve("./data"));
  });

  it("seeds demo data on PostgreSQL only when SEED_DEMO=1", () => {
    const url = "postgres://u:p@127.0.0.1:5432/app";
    expect(loadConfig({ DATABASE_URL: url }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, SEED_DEMO: "1" }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: "0" }).seedDemo).toBe(false);
  });

  it("sizes the PostgreSQL pool from DATABASE_POOL_SIZE (default 10), refusing a size that is not 1 to 1000", () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: "40" }).databasePoolSize).toBe(40);
    for (const bad of ["0", "-3", "2.5", "many", "1001"]) expect(() => loadConfig({ DATABASE_POOL_SIZE: bad }), bad).toThrow(/^Invalid DATABASE_POOL_SIZE/);
  });

  it("stops with one clear line on a bad value", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(StartupError);
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/^Invalid PORT/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/Invalid DATABASE_URL: must start with postgres:\/\//);
    try {
      loadConfig({ LOG_LEVEL: "loud" });
    } catch (error) {
      expect((error as Error).message).not.toContain("\n");
    }
  });

  it("turns SITE_CONTACT into the 401 page's contact link, refusing anything but an email or http(s) URL", () => {
    expect(loadConfig({}).siteContactUrl).toBe("");
    expect(loadConfig({ SITE_CONTACT: "" }).siteContactUrl).toBe("");
    expect(loadConfig({ SITE_CONTACT: " admin@example.com " }).siteContactUrl).toBe("mailto:admin@example.com");
    expect(loadConfig({ SITE_CONTACT: "https://example.com/help?a=1" }).siteContactUrl).toBe("https://example.com/help?a=1");
    for (const bad of ["javascript:alert(1)", "mailto:", "ftp://example.com", "example.com", "data:text/html,x", "https://"]) {
      expect(() => loadConfig({ SITE_CONTACT: bad }), bad).toThrow(/^Invalid SITE_CONTACT: must be an email address or an http\(s\) URL$/);
    }
  });

  it("masks the password of a database URL", () => {
    expect(redactUrl("postgres://app:s3cret@db:5432/x")).toBe("postgres://app:***@db:5432/x");
    expect(redactUrl("postgres://db/x")).toBe("postgres://db/x");
  });
});
