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

  it("keeps uploads in an S3 bucket with STORAGE=s3, refusing an incomplete setting without echoing the secret", () => {
    expect(loadConfig({}).s3).toBeUndefined();
    const env = { STORAGE: "s3", S3_ENDPOINT: "http://127.0.0.1:9000/", S3_BUCKET: "examhub-files", S3_ACCESS_KEY_ID: "AKIDEXAMPLE", S3_SECRET_ACCESS_KEY: "very-secret-value", S3_FORCE_PATH_STYLE: "1" };
    expect(loadConfig(env).s3).toEqual({
      endpoint: "http://127.0.0.1:9000",
      bucket: "examhub-files",
      region: "us-east-1",
      credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "very-secret-value" },
      forcePathStyle: true,
      prefix: "",
    });
    // No key pair: the AWS SDK's default credentials (AWS_* variables, an instance role).
    expect(loadConfig({ STORAGE: "s3", S3_BUCKET: "examhub-files", S3_REGION: "eu-west-1", S3_PREFIX: "site-a/" }).s3).toEqual({ bucket: "examhub-files", region: "eu-west-1", forcePathStyle: false, prefix: "site-a/" });
    const refusals: [Record<string, string>, RegExp][] = [
      [{ STORAGE: "s3" }, /^Invalid S3_BUCKET: STORAGE=s3 needs/],
      [{ STORAGE: "s3", S3_BUCKET: "Bad_Bucket" }, /^Invalid S3_BUCKET/],
      [{ STORAGE: "s3", S3_BUCKET: "ok-bucket", S3_ENDPOINT: "http://user:very-secret-value@host" }, /^Invalid S3_ENDPOINT/],
      [{ STORAGE: "s3", S3_BUCKET: "ok-bucket", S3_SECRET_ACCESS_KEY: "very-secret-value" }, /^Invalid S3_ACCESS_KEY_ID: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together/],
      [{ STORAGE: "s3", S3_BUCKET: "ok-bucket", S3_PREFIX: "../x" }, /^Invalid S3_PREFIX/],
      [{ STORAGE: "gcs" }, /^Invalid STORAGE/],
    ];
    for (const [bad, message] of refusals) {
      let error: unknown;
      try {
        loadConfig(bad);
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(bad)).toBeInstanceOf(StartupError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain("very-secret-value");
    }
  });

  it("masks the password of a database URL", () => {
    expect(redactUrl("postgres://app:s3cret@db:5432/x")).toBe("postgres://app:***@db:5432/x");
    expect(redactUrl("postgres://db/x")).toBe("postgres://db/x");
  });
});
