import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/** A stand-in for dist/client: the server's serving rules do not depend on what was built. */
function fakeClient(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-client-"));
  fs.mkdirSync(path.join(dir, "assets"));
  fs.mkdirSync(path.join(dir, "icons"));
  fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html><div id=root></div>");
  fs.writeFileSync(path.join(dir, "assets", "index-Ab12Cd34.js"), "console.log(1)");
  fs.writeFileSync(path.join(dir, "sw.js"), "self.x=1");
  fs.writeFileSync(path.join(dir, "manifest.webmanifest"), "{}");
  fs.writeFileSync(path.join(dir, "icons", "icon-192.png"), "png");
  return dir;
}

describe("serving the built client", () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fakeClient();
    t = await createTestApp({ config: { clientDir: dir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, accept = "*/*") => t.app.inject({ method: "GET", url, headers: { accept } });

  it("serves index.html at / without caching", async () => {
    const res = await get("/", "text/html");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id=root>');
    expect(res.headers["cache-control"]).toBe("no-cache");
  });

  it("falls back to index.html for client routes", async () => {
    for (const url of ["/exam/detail", "/user/course/my_course?x=1", "/course/lesson"]) {
      const res = await get(url, "text/html,application/xhtml+xml");
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("treats /admin navigations as pages and other /admin calls as API", async () => {
    const page = await get("/admin/login", "text/html");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("id=root");
    const api = await get("/admin/unknown/index", "application/json, text/plain, */*");
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe(0);
  });

  it("never answers API paths or missing files with the shell", async () => {
    expect((await get("/api/unknown", "text/html")).statusCode).toBe(404);
    expect((await get("/api/unknown", "text/html")).json().code).toBe(0);
    expect((await get("/assets/gone-123.js")).statusCode).toBe(404);
    expect((await get("/missing.png", "text/html")).statusCode).toBe(404);
  });

  it("caches hashed assets for a year and revalidates the service worker and manifest", async () => {
    const asset = await get("/assets/index-Ab12Cd34.js");
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await get("/sw.js")).headers["cache-control"]).toBe("no-cache");
    expect((await get("/manifest.webmanifest")).headers["cache-control"]).toBe("no-cache");
    expect((await get("/icons/icon-192.png")).headers["cache-control"]).toBe("public, max-age=86400");
  });

  it("still answers the API", async () => {
    const res = await get("/api/health");
    expect(res.json().data.db).toBe("ok");
  });
});
