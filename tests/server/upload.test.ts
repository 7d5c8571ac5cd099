import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { INLINE_TYPES, STORAGE_CSP } from "../../src/server/modules/upload/serving.ts";
import { imageSize, sanitizeFileName } from "../../src/server/modules/upload/sniff.ts";
import { formatStorageSize } from "../../src/server/modules/upload/storage.ts";
import { getCountSetting, getSetting, setSetting } from "../../src/server/settings.ts";
import { RICH_TEXT_IMAGE_TOPIC } from "../../src/shared/richTextImage.ts";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app.ts";
import { createTestApp, LogCapture, testConfig, type TestApp } from "../helpers/app.ts";
import { createAdmin, createMember } from "../helpers/factories.ts";

const MAX = 10 * 1024 * 1024;

const TYPE = "The type of uploaded file is not allowed!";
const SIZE = "The size of the uploaded file exceeds the allowed range!";
const INCOMPLETE = "The data of the uploaded file is incomplete!";

/** The admin side's ajax endpoints need an admin holding a rule: a super admin's token. */
async function superAdminHeaders(t: TestApp): Promise<Record<string, string>> {
  const { rows } = await t.database.db.query<{ id: number }>(
    "insert into admin (username, password_hash, is_super) values ('ajax_super', 'x', true) on conflict (username) do update set is_super = true returning id",
  );
  return { batoken: await issueToken(t.database.db, "admin", rows[0]!.id, 3600) };
}

type Part = { name: string; value: string } | { name: string; filename: string; type?: string; data: Buffer };

/** A multipart body built by hand, so names can hold what browsers would never send. */
function multipart(parts: Part[], options: { cut?: number } = {}) {
  const boundary = `----examhub${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = "filename" in part ? `; filename="${part.filename}"` : "";
    const type = "filename" in part ? `Content-Type: ${part.type ?? "application/octet-stream"}\r\n` : "";
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n${type}\r\n`, "utf8"));
    chunks.push("filename" in part ? part.data : Buffer.from(part.value, "utf8"), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(chunks);
  return { payload: options.cut ? body.subarray(0, options.cut) : body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const filePart = (filename: string, data: Buffer, type = "application/octet-stream"): Part => ({ name: "file", filename, type, data });

/** A real PNG of the given size (random pixels, so every call has new content). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), randomBytes(width * 3)])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Windows executable header bytes ("MZ", DOS stub) and some padding. */
function exe(): Buffer {
  const data = Buffer.alloc(1024);
  data.write("MZ\x90\x00\x03\x00\x00\x00\x04\x00", 0, "latin1");
  randomBytes(16).copy(data, 512);
  return data;
}

const sha1 = (data: Buffer) => createHash("sha1").update(data).digest("hex");

/** Every file under a folder (relative paths), the temp folder included. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(path.join(dir, f)).isFile()).sort();
}

describe("uploads", () => {
  let t: TestApp;
  let dataDir: string;
  let storageDir: string;
  let memberId: number;
  let adminId: number;
  let memberToken: string;
  let adminToken: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-upload-"));
    storageDir = path.join(dataDir, "storage");
    t = await createTestApp({ config: { dataDir } });
    const db = t.database.db;
    ({ id: memberId, token: memberToken } = await createMember(db));
    ({ id: adminId, token: adminToken } = await createAdmin(db));
    // These tests are about single uploads: the member's rate and quota are lifted here
    // ("upload limits" below tests them).
    await setSetting(db, "upload_rate_per_minute", 100_000);
    await setSetting(db, "upload_quota_mib", 100_000);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (
    parts: Part[],
    options: { area?: "api" | "admin"; token?: string | null; lang?: string | null; cut?: number } = {},
  ) => {
    const area = options.area ?? "api";
    const token = options.token === undefined ? (area === "api" ? memberToken : adminToken) : options.token;
    const body = multipart(parts, { cut: options.cut });
    return t.app.inject({
      method: "POST",
      url: `/${area}/ajax/upload`,
      headers: {
        "content-type": body.contentType,
        ...(options.lang === null ? {} : { "think-lang": options.lang ?? "en" }),
        ...(token ? { [area === "api" ? "ba-user-token" : "batoken"]: token } : {}),
      },
      payload: body.payload,
    });
  };
  const attachments = () => t.database.db.query<{ count: number }>("select count(*)::int as count from attachment").then((r) => r.rows[0]!.count);

  /** Runs `fn` and checks it stored nothing: no new file (temp ones included), no new row. */
  async function storesNothing(fn: () => Promise<void>): Promise<void> {
    const files = listFiles(storageDir);
    const rows = await attachments();
    await fn();
    expect(listFiles(storageDir)).toEqual(files);
    expect(await attachments()).toBe(rows);
  }

  it("stores a member's image, records it and serves it back", async () => {
    const image = png(3, 2);
    const res = await upload([filePart("photo.png", image, "image/png")]);
    const body = res.json();
    expect(body).toMatchObject({
      code: 1,
      msg: "Upload successful",
      data: { file: { name: "photo.png", size: image.length, mimetype: "image/png", width: 3, height: 2 } },
    });
    const { url, id } = body.data.file;
    expect(url).toMatch(new RegExp(`^/storage/default/\\d{8}/${sha1(image)}\\.png$`));
    expect(readFileSync(path.join(dataDir, url)).equals(image)).toBe(true);

    const row = (await t.database.db.query("select * from attachment where id = $1", [id])).rows[0];
    expect(row).toMatchObject({ topic: "default", user_id: memberId, admin_id: null, url, name: "photo.png", sha1: sha1(image), quote: 1, storage: "local", width: 3, height: 2 });

    const served = await t.app.inject({ method: "GET", url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(image)).toBe(true);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-disposition"]).toBeUndefined();
    expect(served.headers["content-security-policy"]).toContain("sandbox");
  });

  it("stores an admin's upload under the requested topic", async () => {
    const image = png(5, 4);
    const body = (await upload([{ name: "topic", value: "avatars" }, filePart("me.png", image, "image/png")], { area: "admin" })).json();
    expect(body.code).toBe(1);
    expect(body.data.file.url).toMatch(/^\/storage\/avatars\/\d{8}\/[0-9a-f]{40}\.png$/);
    const row = (await t.database.db.query("select admin_id, user_id, topic from attachment where id = $1", [body.data.file.id])).rows[0];
    expect(row).toEqual({ admin_id: adminId, user_id: null, topic: "avatars" });
    // The topic may also come after the file.
    const later = (await upload([filePart("me.png", png(1, 1), "image/png"), { name: "topic", value: "late_topic" }], { area: "admin" })).json();
    expect(later.data.file.url).toMatch(/^\/storage\/late_topic\//);
    // Or in the query string.
    const query = multipart([filePart("q.png", png(1, 1), "image/png")]);
    const viaQuery = await t.app.inject({
      method: "POST",
      url: "/admin/ajax/upload?topic=from_query",
      headers: { "content-type": query.contentType, batoken: adminToken },
      payload: query.payload,
    });
    expect(viaQuery.json().data.file.url).toMatch(/^\/storage\/from_query\//);
  });

  it("accepts a body made by FormData, as the browser sends it", async () => {
    const form = new FormData();
    form.append("topic", "forms");
    form.append("file", new Blob([Buffer.from("line one\nline two\n")], { type: "text/plain" }), "试卷说明.txt");
    const request = new Response(form);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ajax/upload",
      headers: { "content-type": request.headers.get("content-type")!, "ba-user-token": memberToken, "think-lang": "en" },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.json()).toMatchObject({ code: 1, data: { file: { name: "试卷说明.txt", mimetype: "text/plain", size: 18 } } });
    expect(res.json().data.file.width).toBeUndefined();
    const served = await t.app.inject({ method: "GET", url: res.json().data.file.url });
    expect(served.body).toBe("line one\nline two\n");
    expect(served.headers["content-type"]).toMatch(/^text\/plain/);
    expect(served.headers["content-disposition"]).toMatch(/^attachment; filename="[0-9a-f]{40}\.txt"$/);
  });

  it("stores the same content once per topic and counts the uploads in quote", async () => {
    const image = png(2, 2);
    const first = (await upload([filePart("a.png", image, "image/png")])).json();
    await t.database.db.query("update attachment set last_upload_time = 1 where id = $1", [first.data.file.id]);
    const second = (await upload([filePart("b.png", image, "image/png")], { area: "admin" })).json();
    expect(second.data.file).toMatchObject({ id: first.data.file.id, url: first.data.file.url, name: "b.png" });
    const rows = (await t.database.db.query<{ quote: number; last_upload_time: number; name: string }>("select quote, last_upload_time, name from attachment where sha1 = $1", [sha1(image)])).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ quote: 2, name: "a.png" });
    expect(rows[0]!.last_upload_time).toBeGreaterThan(1);
    expect(listFiles(storageDir).filter((f) => f.includes(sha1(image)))).toHaveLength(1);

    const otherTopic = (await upload([{ name: "topic", value: "other" }, filePart("a.png", image, "image/png")])).json();
    expect(otherTopic.data.file.id).not.toBe(first.data.file.id);
    expect(listFiles(storageDir).filter((f) => f.includes(sha1(image)))).toHaveLength(2);
  });

  it("puts a stored file back when a repeat upload finds it missing on disk", async () => {
    const image = png(2, 3);
    const first = (await upload([filePart("a.png", image, "image/png")])).json();
    rmSync(path.join(dataDir, first.data.file.url));
    const again = (await upload([filePart("a.png", image, "image/png")])).json();
    expect(again.data.file.url).toBe(first.data.file.url);
    expect(readFileSync(path.join(dataDir, first.data.file.url)).equals(image)).toBe(true);
  });

  it("asks for login: no token, a member token on the admin side, an admin token on the member side", async () => {
    await storesNothing(async () => {
      const parts = [filePart("a.png", png(1, 1), "image/png")];
      expect((await upload(parts, { token: null })).json()).toMatchObject({ code: 303, data: { type: "need login" } });
      expect((await upload(parts, { area: "admin", token: null })).json().code).toBe(303);
      expect((await upload(parts, { area: "admin", token: memberToken })).json().code).toBe(303);
      expect((await upload(parts, { area: "api", token: adminToken })).json().code).toBe(303);
    });
  });

  it("rejects a file above the maximum while streaming, storing nothing", async () => {
    const big = Buffer.concat([png(1, 1), Buffer.alloc(MAX)]);
    await storesNothing(async () => {
      expect((await upload([filePart("big.png", big, "image/png")])).json()).toMatchObject({ code: 0, msg: SIZE, data: null });
    });
  });

  it("accepts a file of exactly the maximum size", async () => {
    const text = Buffer.alloc(MAX, "a");
    const started = performance.now();
    const body = (await upload([filePart("max.txt", text, "text/plain")])).json();
    const ms = performance.now() - started;
    expect(body).toMatchObject({ code: 1, data: { file: { size: MAX } } });
    expect(statSync(path.join(dataDir, body.data.file.url)).size).toBe(MAX);
    expect(ms).toBeLessThan(10_000);
  });

  it("takes only images on the rich-text editor's topic, within the site's size", async () => {
    const image = png(4, 3);
    const ok = (await upload([{ name: "topic", value: RICH_TEXT_IMAGE_TOPIC }, filePart("diagram.png", image, "image/png")], { area: "admin" })).json();
    expect(ok.code, ok.msg).toBe(1);
    expect(ok.data.file.url).toMatch(/^\/storage\/editor\/\d{8}\/[0-9a-f]{40}\.png$/);
    await storesNothing(async () => {
      // The site lets a PDF through on another topic; the editor's images do not include it.
      const pdf = Buffer.from("%PDF-1.4\n%\xe2\xe3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
      expect((await upload([{ name: "topic", value: RICH_TEXT_IMAGE_TOPIC }, filePart("notes.pdf", pdf, "application/pdf")], { area: "admin" })).json()).toMatchObject({ code: 0, msg: TYPE });
      expect((await upload([{ name: "topic", value: RICH_TEXT_IMAGE_TOPIC }, filePart("fake.png", Buffer.from("just some text"), "image/png")], { area: "admin" })).json()).toMatchObject({ code: 0, msg: TYPE });
    });
    expect((await upload([{ name: "topic", value: "default" }, filePart("notes.pdf", Buffer.from("%PDF-1.4\n%%EOF\n"), "application/pdf")], { area: "admin" })).json().code).toBe(1);
  });

  it("rejects a disallowed extension", async () => {
    await storesNothing(async () => {
      expect((await upload([filePart("tool.exe", exe(), "application/x-msdownload")])).json()).toMatchObject({ code: 0, msg: TYPE });
      expect((await upload([filePart("page.html", Buffer.from("<script>alert(1)</script>"), "text/html")])).json().msg).toBe(TYPE);
      expect((await upload([filePart("picture.svg", Buffer.from("<svg/>"), "image/svg+xml")])).json().msg).toBe(TYPE);
      expect((await upload([filePart("noextension", Buffer.from("x"), "text/plain")])).json().msg).toBe(TYPE);
    });
  });

  it("rejects content that contradicts its extension", async () => {
    await storesNothing(async () => {
      // An executable renamed .png and sent as image/png.
      expect((await upload([filePart("cat.png", exe(), "image/png")])).json()).toMatchObject({ code: 0, msg: TYPE });
      // A PNG sent as a PDF, text posing as an image, binary posing as text.
      expect((await upload([filePart("report.pdf", png(1, 1), "application/pdf")])).json().msg).toBe(TYPE);
      expect((await upload([filePart("fake.jpg", Buffer.from("just some text"), "image/jpeg")])).json().msg).toBe(TYPE);
      expect((await upload([filePart("notes.txt", Buffer.from("text\0with a NUL"), "text/plain")])).json().msg).toBe(TYPE);
      expect((await upload([filePart("notes.txt", exe(), "text/plain")])).json().msg).toBe(TYPE);
    });
  });

  it("accepts a .jpeg name for JPEG content, with its dimensions", async () => {
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
      0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x30, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
      0xff, 0xd9,
    ]);
    const body = (await upload([filePart("shot.JPEG", jpeg, "image/jpeg")])).json();
    expect(body).toMatchObject({ code: 1, data: { file: { mimetype: "image/jpeg", width: 48, height: 32 } } });
    expect(body.data.file.url).toMatch(/\.jpeg$/);

    // Metadata blocks pushing the frame header past the first 64 KB.
    const segment = (marker: number, length: number) => {
      const s = randomBytes(length + 2);
      s[0] = 0xff;
      s[1] = marker;
      s.writeUInt16BE(length, 2);
      return s;
    };
    const sof = Buffer.from([0xff, 0xc2, 0x00, 0x11, 0x08, 0x01, 0x00, 0x02, 0x00, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
    const heavy = Buffer.concat([Buffer.from([0xff, 0xd8]), segment(0xe1, 65_000), segment(0xe2, 30_000), sof, Buffer.from([0xff, 0xd9])]);
    const big = (await upload([filePart("heavy.jpg", heavy, "image/jpeg")])).json();
    expect(big.data.file).toMatchObject({ width: 512, height: 256 });
  });

  it("reports incomplete data: no file field, an empty name or file, a cut-off or non-multipart body", async () => {
    await storesNothing(async () => {
      expect((await upload([{ name: "topic", value: "default" }])).json()).toMatchObject({ code: 0, msg: INCOMPLETE });
      expect((await upload([{ name: "other", filename: "a.png", type: "image/png", data: png(1, 1) }])).json().msg).toBe(INCOMPLETE);
      expect((await upload([filePart("", png(1, 1), "image/png")])).json().msg).toBe(INCOMPLETE);
      expect((await upload([filePart("empty.txt", Buffer.alloc(0), "text/plain")])).json().msg).toBe(INCOMPLETE);
      expect((await upload([filePart("a.png", png(4, 4), "image/png")], { cut: 200 })).json().msg).toBe(INCOMPLETE);
      const json = await t.app.inject({ method: "POST", url: "/api/ajax/upload", headers: { "ba-user-token": memberToken, "think-lang": "en" }, payload: { file: "x" } });
      expect(json.json()).toMatchObject({ code: 0, msg: INCOMPLETE });
    });
  });

  it("checks in SPEC order: incomplete, then type, then size", async () => {
    await storesNothing(async () => {
      const bigExe = Buffer.concat([exe(), Buffer.alloc(MAX)]);
      // Disallowed and oversized: the type is reported.
      expect((await upload([filePart("big.exe", bigExe, "application/x-msdownload")])).json().msg).toBe(TYPE);
      // Oversized content contradicting its .png name: still the type.
      expect((await upload([filePart("big.png", bigExe, "image/png")])).json().msg).toBe(TYPE);
      // A cut-off body holding a disallowed file: incomplete comes first.
      expect((await upload([filePart("tool.exe", exe(), "application/x-msdownload")], { cut: 600 })).json().msg).toBe(INCOMPLETE);
    });
  });

  it("keeps traversal and control characters in names away from where files go", async () => {
    const names = ["../../etc/passwd.png", "..\\..\\windows\\evil.png", "nul\0byte.png", "/abs/olute.png", "\u202Egnp.exe.png"];
    for (const name of names) {
      const image = png(1, 2);
      const body = (await upload([filePart(name, image, "image/png")])).json();
      expect(body.code, name).toBe(1);
      expect(body.data.file.url).toMatch(new RegExp(`^/storage/default/\\d{8}/${sha1(image)}\\.png$`));
      const stored = (await t.database.db.query<{ name: string }>("select name from attachment where id = $1", [body.data.file.id])).rows[0]!.name;
      expect(stored).not.toMatch(/[/\\\0\u202E]/);
      expect(stored).toMatch(/\.png$/);
    }
    expect(existsSync(path.join(dataDir, "etc"))).toBe(false);
    expect(existsSync(path.join(dataDir, "storage", "etc"))).toBe(false);
    expect(readdirSync(dataDir)).toEqual(["storage"]);

    await storesNothing(async () => {
      for (const topic of ["../x", "UPPER", "a/b", "x".repeat(33), ".tmp"]) {
        expect((await upload([{ name: "topic", value: topic }, filePart("a.png", png(1, 1), "image/png")])).json(), topic).toMatchObject({
          code: 0,
          msg: "Incorrect parameter!",
        });
      }
    });
  });

  it("serves nothing outside stored files", async () => {
    for (const url of ["/storage/nothing/here.png", "/storage/.tmp/x.part", "/storage/../../etc/passwd", "/storage/%2e%2e/%2e%2e/etc/passwd"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect([403, 404], url).toContain(res.statusCode);
      expect(res.body).not.toContain("root:");
    }
    const missing = await t.app.inject({ method: "GET", url: "/storage/nothing/here.png" });
    expect(missing.json()).toMatchObject({ code: 0 });
  });

  it("serves every inline type unsniffable and sandboxed, everything else (PDF included) as a download", async () => {
    const folder = path.join(storageDir, "headers");
    mkdirSync(folder, { recursive: true });
    const downloads = ["pdf", "txt", "html", "svg", "zip", "docx", "json", "js", "xml", "exe", "bin"];
    for (const ext of [...INLINE_TYPES, ...downloads]) {
      writeFileSync(path.join(folder, `file.${ext}`), "x");
      const res = await t.app.inject({ method: "GET", url: `/storage/headers/file.${ext}` });
      expect(res.statusCode, ext).toBe(200);
      expect(res.headers["x-content-type-options"], ext).toBe("nosniff");
      expect(res.headers["content-security-policy"], ext).toBe(STORAGE_CSP);
      expect(String(res.headers["content-security-policy"]).split(";").map((d) => d.trim())).toContain("sandbox");
      if (INLINE_TYPES.has(ext)) expect(res.headers["content-disposition"], ext).toBeUndefined();
      else expect(res.headers["content-disposition"], ext).toBe(`attachment; filename="file.${ext}"`);
    }
    expect(INLINE_TYPES.has("pdf")).toBe(false);
    expect(INLINE_TYPES.has("svg")).toBe(false);
    // An uploaded PDF: a download under the sandbox CSP.
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
    const body = (await upload([filePart("report.pdf", pdf, "application/pdf")])).json();
    expect(body).toMatchObject({ code: 1, data: { file: { mimetype: "application/pdf" } } });
    const served = await t.app.inject({ method: "GET", url: body.data.file.url });
    expect(served.headers["content-type"]).toBe("application/pdf");
    expect(served.headers["content-disposition"]).toMatch(/^attachment; filename="[0-9a-f]{40}\.pdf"$/);
    expect(served.headers["content-security-policy"]).toBe(STORAGE_CSP);
  });

  it("streams over real HTTP: a 5 MB upload, and an oversized one answered without hanging", async () => {
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const send = async (name: string, data: Buffer, type: string) => {
      const form = new FormData();
      form.append("file", new Blob([Uint8Array.from(data)], { type }), name);
      const res = await fetch(`${address}/api/ajax/upload`, { method: "POST", body: form, headers: { "ba-user-token": memberToken, "think-lang": "en" } });
      return res.json() as Promise<{ code: number; msg: string; data: { file: { url: string; size: number } } | null }>;
    };
    const five = Buffer.concat([png(8, 8), randomBytes(5 * 1024 * 1024)]);
    const started = performance.now();
    const ok = await send("five.png", five, "image/png");
    const ms = performance.now() - started;
    expect(ok).toMatchObject({ code: 1, data: { file: { size: five.length } } });
    expect(readFileSync(path.join(dataDir, ok.data!.file.url)).equals(five)).toBe(true);
    expect(ms).toBeLessThan(5_000);

    await storesNothing(async () => {
      const huge = Buffer.concat([png(1, 1), Buffer.alloc(3 * MAX)]);
      expect(await send("huge.png", huge, "image/png")).toMatchObject({ code: 0, msg: SIZE });
    });
    // Without a token the answer comes before the body is read.
    const form = new FormData();
    form.append("file", new Blob([Buffer.alloc(2 * MAX)]), "a.png");
    const anonymous = await fetch(`${address}/api/ajax/upload`, { method: "POST", body: form });
    expect(((await anonymous.json()) as { code: number }).code).toBe(303);
  });

  it("answers the upload messages in Simplified Chinese by default", async () => {
    await storesNothing(async () => {
      expect((await upload([filePart("tool.exe", exe())], { lang: null })).json().msg).toBe("上传文件的类型不被允许！");
      expect((await upload([{ name: "topic", value: "x" }], { lang: null })).json().msg).toBe("上传文件的数据不完整！");
      const big = Buffer.concat([png(1, 1), Buffer.alloc(MAX)]);
      expect((await upload([filePart("big.png", big, "image/png")], { lang: "zh-cn" })).json().msg).toBe("上传文件的大小超出允许范围！");
    });
  });
});

describe("upload limits", () => {
  let t: TestApp;
  /** A second server on its own connection pool (PostgreSQL only), sharing DATA_DIR. */
  let second: FastifyInstance | undefined;
  let dataDir: string;
  let storageDir: string;
  let adminToken: string;
  let members = 0;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-upload-limits-"));
    storageDir = path.join(dataDir, "storage");
    t = await createTestApp({ config: { dataDir } });
    adminToken = (await createAdmin(t.database.db)).token;
    const other = await t.database.openAnother();
    if (other) {
      second = await buildApp(testConfig({ dataDir }), { db: other, logStream: new LogCapture() });
      await second.ready();
    }
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function newMember(): Promise<{ id: number; token: string }> {
    members++;
    const { rows } = await t.database.db.query<{ id: number }>("insert into member (username, password_hash) values ($1, 'x') returning id", [`limits_${members}`]);
    return { id: rows[0]!.id, token: await issueToken(t.database.db, "user", rows[0]!.id, 3600) };
  }
  /** A text file of exactly `size` bytes with content of its own. */
  const text = (size: number) => Buffer.concat([Buffer.from(randomUUID()), Buffer.alloc(size - 36, "x")]);
  const send = async (token: string, data: Buffer, options: { area?: "api" | "admin"; lang?: string; app?: FastifyInstance } = {}) => {
    const area = options.area ?? "api";
    const body = multipart([filePart("notes.txt", data, "text/plain")]);
    const res = await (options.app ?? t.app).inject({
      method: "POST",
      url: `/${area}/ajax/upload`,
      headers: { "content-type": body.contentType, "think-lang": options.lang ?? "en", [area === "api" ? "ba-user-token" : "batoken"]: token },
      payload: body.payload,
    });
    return res.json() as { code: number; msg: string; data: { file: { id: number; url: string } } | Record<string, unknown> | null };
  };
  const used = async (userId: number) =>
    Number((await t.database.db.query<{ n: number }>("select coalesce(sum(size), 0)::bigint as n from member_upload where user_id = $1", [userId])).rows[0]!.n);
  const rowsOf = async (userId: number) =>
    (await t.database.db.query<{ n: number }>("select count(*)::int as n from attachment where user_id = $1", [userId])).rows[0]!.n;
  const limits = async (perMinute: number, quotaMib: number) => {
    await setSetting(t.database.db, "upload_rate_per_minute", perMinute);
    await setSetting(t.database.db, "upload_quota_mib", quotaMib);
  };
  async function storesNothing(fn: () => Promise<void>): Promise<void> {
    const files = listFiles(storageDir);
    const rows = (await t.database.db.query<{ n: number }>("select count(*)::int as n from attachment")).rows[0]!.n;
    const held = (await t.database.db.query<{ n: number }>("select count(*)::int as n from member_upload")).rows[0]!.n;
    await fn();
    expect(listFiles(storageDir)).toEqual(files);
    expect((await t.database.db.query<{ n: number }>("select count(*)::int as n from attachment")).rows[0]!.n).toBe(rows);
    expect((await t.database.db.query<{ n: number }>("select count(*)::int as n from member_upload")).rows[0]!.n).toBe(held);
  }

  it("has sensible defaults in the site settings: 10 uploads a minute, 100 MiB a member", async () => {
    expect(await getSetting(t.database.db, "upload_rate_per_minute")).toBe(10);
    expect(await getSetting(t.database.db, "upload_quota_mib")).toBe(100);
    // A value that is no whole number >= 0 counts as the default.
    await t.database.db.query("update site_setting set value = '\"lots\"'::jsonb where key = 'upload_quota_mib'");
    expect(await getCountSetting(t.database.db, "upload_quota_mib")).toBe(100);
    await t.database.db.query("update site_setting set value = '-1'::jsonb where key = 'upload_rate_per_minute'");
    expect(await getCountSetting(t.database.db, "upload_rate_per_minute")).toBe(10);
    expect(formatStorageSize(100 * 1024 * 1024)).toBe("100 MB");
    expect(formatStorageSize(400_000)).toBe("390.6 KB");
    expect(formatStorageSize(12)).toBe("12 B");
  });

  it("refuses uploads past the member's rate, storing nothing, until the minute has passed; admins are not limited", async () => {
    await limits(3, 100);
    const m = await newMember();
    const first = text(100);
    for (const data of [first, text(100), text(100)]) expect((await send(m.token, data)).code).toBe(1);
    await storesNothing(async () => {
      expect(await send(m.token, text(100))).toMatchObject({ code: 0, msg: "You can upload at most 3 files a minute: please wait a moment and try again", data: { limit: 3 } });
      // A repeat of a file already stored counts as an upload too.
      expect((await send(m.token, first)).code).toBe(0);
      expect((await send(m.token, text(100), { lang: "zh-cn" })).msg).toBe("每分钟最多上传 3 个文件，请稍后再试");
    });
    // Other members and admins go on.
    expect((await send((await newMember()).token, text(100))).code).toBe(1);
    for (let i = 0; i < 5; i++) expect((await send(adminToken, text(100), { area: "admin" })).code).toBe(1);
    // A minute later (the uploads moved back in time) the member may upload again.
    await t.database.db.query("update member_upload_event set at = at - 60000 where user_id = $1", [m.id]);
    expect((await send(m.token, text(100))).code).toBe(1);
  });

  it("keeps each member within the quota: content stored once counts once per member, refusals store nothing", async () => {
    await limits(1000, 1);
    const quota = 1024 * 1024;
    const [a, b] = [await newMember(), await newMember()];
    const [one, two, three] = [text(400_000), text(400_000), text(400_000)];
    expect((await send(a.token, one)).code).toBe(1);
    expect((await send(a.token, two)).code).toBe(1);
    expect(await used(a.id)).toBe(800_000);
    await storesNothing(async () => {
      expect(await send(a.token, three)).toMatchObject({
        code: 0,
        msg: "Not enough upload space: this file needs 390.6 KB and 242.8 KB of your 1 MB is left",
        data: { quota, used: 800_000 },
      });
      expect((await send(a.token, three, { lang: "zh-cn" })).msg).toBe("上传空间不足：该文件需要 390.6 KB，您的 1 MB 空间只剩 242.8 KB");
    });
    // The same content again costs nothing: accepted, counted once.
    expect((await send(a.token, one)).code).toBe(1);
    expect(await used(a.id)).toBe(800_000);
    expect((await t.database.db.query<{ uploads: number }>("select uploads from member_upload where user_id = $1 order by uploads desc limit 1", [a.id])).rows[0]!.uploads).toBe(2);
    // Content another member stored first counts for this member too; the file stays one file.
    expect((await send(b.token, three)).code).toBe(1);
    expect((await send(b.token, one)).code).toBe(1);
    expect(await used(b.id)).toBe(800_000);
    expect(listFiles(storageDir).filter((f) => f.includes(sha1(one)))).toHaveLength(1);
    // Filling the space to the byte is allowed; then the member is told it is full, before any byte is read.
    expect((await send(a.token, text(quota - 800_000))).code).toBe(1);
    expect(await used(a.id)).toBe(quota);
    await storesNothing(async () => {
      expect((await send(a.token, text(100))).msg).toBe("Your upload space of 1 MB is full: no more files can be stored");
    });
    // Admins are not held to the member quota.
    expect((await send(adminToken, text(2 * quota), { area: "admin" })).code).toBe(1);
    // A quota of 0 lets no member store anything.
    await limits(1000, 0);
    await storesNothing(async () => {
      expect((await send((await newMember()).token, text(100))).msg).toBe("Your upload space of 0 B is full: no more files can be stored");
    });
  });

  it("holds the quota and the rate against concurrent uploads (two servers on PostgreSQL)", async () => {
    const apps = [t.app, second ?? t.app];
    // Quota: 1 MiB, 8 different files of 300,000 bytes at once: exactly 3 fit.
    await limits(1000, 1);
    const m = await newMember();
    const files = Array.from({ length: 8 }, () => text(300_000));
    const results = await Promise.all(files.map((data, i) => send(m.token, data, { app: apps[i % 2] })));
    const accepted = results.filter((r) => r.code === 1);
    expect(accepted).toHaveLength(3);
    for (const r of results.filter((r) => r.code !== 1)) expect(r.msg).toMatch(/^Not enough upload space/);
    expect(await used(m.id)).toBe(900_000);
    expect(await rowsOf(m.id)).toBe(3);
    const stored = files.filter((f) => listFiles(storageDir).some((name) => name.includes(sha1(f))));
    expect(stored).toHaveLength(3);
    expect(listFiles(path.join(storageDir, ".tmp"))).toEqual([]);

    // One content sent 5 times at once with room for it once: all accepted, counted once.
    const room = await newMember();
    await limits(1000, 1);
    const same = text(700_000);
    const repeats = await Promise.all(Array.from({ length: 5 }, (_, i) => send(room.token, same, { app: apps[i % 2] })));
    expect(repeats.map((r) => r.code)).toEqual([1, 1, 1, 1, 1]);
    expect(await used(room.id)).toBe(700_000);
    expect((await t.database.db.query<{ quote: number }>("select quote from attachment where sha1 = $1", [sha1(same)])).rows[0]!.quote).toBe(5);

    // Rate: 2 a minute, 6 at once: exactly 2 stored.
    await limits(2, 100);
    const fast = await newMember();
    const burst = await Promise.all(Array.from({ length: 6 }, (_, i) => send(fast.token, text(1000), { app: apps[i % 2] })));
    expect(burst.filter((r) => r.code === 1)).toHaveLength(2);
    expect(await rowsOf(fast.id)).toBe(2);
  });
});

describe("upload helpers", () => {
  it("reads image dimensions from headers", () => {
    const gif = Buffer.from("GIF89a\x0a\x00\x14\x00\x00\x00", "latin1");
    expect(imageSize(gif, "gif")).toEqual({ width: 10, height: 20 });
    const bmp = Buffer.alloc(30);
    bmp.write("BM", 0, "latin1");
    bmp.writeUInt32LE(40, 14);
    bmp.writeInt32LE(7, 18);
    bmp.writeInt32LE(-9, 22);
    expect(imageSize(bmp, "bmp")).toEqual({ width: 7, height: 9 });
    const webp = Buffer.alloc(32);
    webp.write("RIFF", 0, "latin1");
    webp.write("WEBPVP8X", 8, "latin1");
    webp.writeUIntLE(639, 24, 3);
    webp.writeUIntLE(479, 27, 3);
    expect(imageSize(webp, "webp")).toEqual({ width: 640, height: 480 });
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x02]), "jpg")).toBeUndefined();
    expect(imageSize(Buffer.alloc(4), "png")).toBeUndefined();
  });

  it("sanitises names to at most 100 characters, keeping the extension", () => {
    expect(sanitizeFileName("../../etc/passwd.png")).toBe("passwd.png");
    expect(sanitizeFileName("a\\b\\c.txt")).toBe("c.txt");
    expect(sanitizeFileName("..")).toBe("");
    const long = sanitizeFileName(`${"名".repeat(150)}.docx`);
    expect([...long]).toHaveLength(100);
    expect(long.endsWith(".docx")).toBe(true);
  });
});

describe("area data", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const area = async (query: string, side = "api") => {
    const res = await t.app.inject({ method: "GET", url: `/${side}/ajax/area${query}`, headers: side === "admin" ? await superAdminHeaders(t) : {} });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it("lists provinces, a province's cities and a city's districts", async () => {
    const provinces = await area("");
    expect(provinces.code).toBe(1);
    expect(provinces.data).toContainEqual({ label: "北京市", value: "11" });
    expect(provinces.data).toHaveLength(31);

    const cities = (await area("?province=44")).data;
    expect(cities).toContainEqual({ label: "广州市", value: "4401" });
    expect(cities.every((c: { value: string }) => c.value.startsWith("44"))).toBe(true);

    const districts = (await area("?province=44&city=4401&uuid=x", "admin")).data;
    expect(districts).toContainEqual({ label: "天河区", value: "440106" });
    expect((await area("?city=4401")).data).toEqual(districts);
    expect((await area("?province=&city=")).data).toEqual(provinces.data);
  });

  it("answers an empty list for unknown codes", async () => {
    expect((await area("?province=99")).data).toEqual([]);
    expect((await area("?province=44&city=1101")).data).toEqual([]);
    expect((await area("?province=44&city=nope")).data).toEqual([]);
    expect((await area("?province=%3Cscript%3E")).data).toEqual([]);
  });
});

describe("buildSuffixSvg", () => {
  let t: TestApp;
  const window = new Window();
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await window.happyDOM.close();
  });

  const icon = async (query: string, side = "api") => {
    const res = await t.app.inject({ method: "GET", url: `/${side}/ajax/buildSuffixSvg${query}`, headers: side === "admin" ? await superAdminHeaders(t) : {} });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers["cache-control"]).toMatch(/max-age=\d+/);
    const doc = new window.DOMParser().parseFromString(res.body, "image/svg+xml");
    expect(doc.getElementsByTagName("parsererror")).toHaveLength(0);
    const elements = [doc.documentElement, ...doc.documentElement.querySelectorAll("*")];
    for (const el of elements) {
      expect(["svg", "path", "polygon", "text"]).toContain(el.tagName.toLowerCase());
      for (const attr of el.getAttributeNames()) expect(attr.toLowerCase().startsWith("on")).toBe(false);
    }
    return { body: res.body, text: doc.getElementsByTagName("text")[0]?.textContent, fill: doc.getElementsByTagName("path")[2]?.getAttribute("fill") };
  };

  it("draws the suffix on the given background", async () => {
    expect(await icon("?suffix=pdf&background=%23ff0000")).toMatchObject({ text: "PDF", fill: "#ff0000" });
    expect(await icon("?suffix=docx&background=%23abc", "admin")).toMatchObject({ text: "DOCX", fill: "#abc" });
    expect(await icon("?suffix=xlsx&background=rgb(1,%202,3)")).toMatchObject({ text: "XLSX", fill: "rgb(1,2,3)" });
    expect((await icon("?suffix=abcdefgh")).text).toBe("ABCDEFGH");
  });

  it("falls back on anything else, so nothing can be injected", async () => {
    const script = await icon("?suffix=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(script.text).toBe("FILE");
    expect(script.body).not.toContain("<script");
    const fallback = (await icon("?suffix=pdf")).fill;
    for (const background of ['red"onload="x', "rgb(300,0,0)", "url(javascript:alert(1))", "%23ggg", "red"]) {
      const res = await icon(`?suffix=pdf&background=${encodeURIComponent(background)}`);
      expect(res.fill, background).toBe(fallback);
      expect(res.body).not.toContain("onload");
      expect(res.body).not.toContain("javascript");
    }
    expect((await icon("?suffix=toolongsuffix")).text).toBe("FILE");
    expect((await icon("?suffix=a&suffix=b")).text).toBe("FILE");
    expect((await icon("")).text).toBe("FILE");
  });
});
