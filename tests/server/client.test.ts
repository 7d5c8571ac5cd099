import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
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

  it("sends the build's gzipped copy to a browser that takes gzip, the file itself otherwise, with the same caching", async () => {
    const js = "console.log('precompressed');".repeat(80);
    fs.writeFileSync(path.join(dir, "assets", "big-Zz99Yy88.js"), js);
    const gz = zlib.gzipSync(js, { level: 9 });
    fs.writeFileSync(path.join(dir, "assets", "big-Zz99Yy88.js.gz"), gz);
    fs.writeFileSync(path.join(dir, "sw.js.gz"), zlib.gzipSync("self.x=1"));
    fs.writeFileSync(path.join(dir, "index.html.gz"), zlib.gzipSync("<!doctype html><div id=root></div>"));
    const gzipped = await t.app.inject({ method: "GET", url: "/assets/big-Zz99Yy88.js", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    // The file as built (a length known in advance), not a stream compressed for this request.
    expect(gzipped.headers["content-length"]).toBe(String(gz.length));
    expect(gzipped.headers["content-type"]).toMatch(/javascript/);
    expect(gzipped.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(gzipped.rawPayload).toString()).toBe(js);
    const plain = await t.app.inject({ method: "GET", url: "/assets/big-Zz99Yy88.js", headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(js);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    // Files that must be revalidated stay so when their gzipped copy is sent.
    for (const url of ["/sw.js", "/"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip", accept: "text/html" } });
      expect(res.headers["content-encoding"], url).toBe("gzip");
      expect(res.headers["cache-control"], url).toBe("no-cache");
    }
    const shell = await t.app.inject({ method: "GET", url: "/exam/detail", headers: { "accept-encoding": "gzip", accept: "text/html" } });
    expect(shell.headers["cache-control"]).toBe("no-cache");
    expect(zlib.gunzipSync(shell.rawPayload).toString()).toContain("id=root");
    for (const file of ["assets/big-Zz99Yy88.js", "assets/big-Zz99Yy88.js.gz", "sw.js.gz", "index.html.gz"]) fs.rmSync(path.join(dir, file));
  });

  it("answers hostile paths from a browser that takes gzip with a refusal or the shell: no file outside the client, no gzipped copy for another name, no 500", async () => {
    fs.writeFileSync(path.join(dir, "assets", "index-Ab12Cd34.js.gz"), zlib.gzipSync("console.log(1)"));
    try {
      for (const url of ["/assets/..%2f..%2fpackage.json", "/assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/assets/a%00.js", "/assets/index-Ab12Cd34.js%00.gz", `/assets/${"a".repeat(5000)}.js`]) {
        const res = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
        expect(res.statusCode, url).toBeLessThan(500);
        const body = res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(res.rawPayload).toString() : res.body;
        expect(body, url).not.toContain("console.log");
        expect(body, url).not.toContain("root:x:");
        // A refusal in the envelope, or (a path that resolves to a page-like one) the app shell.
        if (String(res.headers["content-type"]).includes("json")) expect(JSON.parse(body).code, url).toBe(0);
        else expect(body, url).toContain("id=root");
      }
    } finally {
      fs.rmSync(path.join(dir, "assets", "index-Ab12Cd34.js.gz"));
    }
  });

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
    expect((await get("/missing.png", "image/avif,image/webp,*/*")).statusCode).toBe(404);
  });

  it("gives browser navigations the shell whatever dots their path holds (SPEC §2 iframe routes)", async () => {
    const navigation = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    for (const url of [
      "/admin/iframe/https%3A%2F%2Fexample.com",
      "/user/iframe/https%3A%2F%2Fexample.com%2Fdocs%2Findex.html",
      "/exam/notes.txt",
      "/admin/loading/%7B%22path%22%3A%22%2Fadmin%2Fa.b%22%2C%22query%22%3A%7B%7D%7D",
      "/user/course/my_course.v2?x=1.5",
    ]) {
      const res = await get(url, navigation);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/text\/html/);
      expect(res.body, url).toContain("id=root");
      expect(res.headers["cache-control"], url).toBe("no-cache");
      const head = await t.app.inject({ method: "HEAD", url, headers: { accept: navigation } });
      expect(head.statusCode, url).toBe(200);
    }
  });

  it("serves real static files to navigations, and keeps file folders, API paths and non-navigations out of the shell", async () => {
    const navigation = "text/html,application/xhtml+xml,*/*;q=0.8";
    const icon = await get("/icons/icon-192.png", navigation);
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["content-type"]).toBe("image/png");
    expect(icon.body).toBe("png");
    const manifest = await get("/manifest.webmanifest", navigation);
    expect(manifest.statusCode).toBe(200);
    expect(manifest.body).toBe("{}");

    for (const url of ["/icons/gone.png", "/screenshots/gone.png", "/assets/gone-1.js", "/storage/a/b.png", "/api/exam/bank.json"]) {
      const res = await get(url, navigation);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain("id=root");
    }
    // Not a navigation: a file-like path is a missing file, and /admin paths are admin API calls.
    for (const url of ["/exam/notes.txt", "/admin/iframe/https%3A%2F%2Fexample.com", "/admin/index/index.json"]) {
      const res = await get(url, "application/json, text/plain, */*");
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe(0);
    }
    // Only GET and HEAD are pages.
    const post = await t.app.inject({ method: "POST", url: "/exam/notes.txt", headers: { accept: navigation }, payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.body).not.toContain("id=root");
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
