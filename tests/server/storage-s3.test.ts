import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/server/config.ts";
import { copyDemoMedia, demoMediaSource } from "../../src/server/modules/course/media.ts";
import { forgetCourseMedia } from "../../src/server/modules/course/mediaAccess.ts";
import { S3Store } from "../../src/server/modules/upload/s3.ts";
import { fileStore } from "../../src/server/modules/upload/store.ts";
import { setSetting } from "../../src/server/settings.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, createCourse, createMember, type TestAdmin, type TestMember } from "../helpers/factories.ts";
import { startTestS3, type TestS3 } from "../helpers/s3.ts";
import { makeZip } from "../helpers/zip.ts";

/**
 * Uploads in an S3-compatible object store (STORAGE=s3), over real HTTP, against the s3rver
 * emulator (no real S3 server installs on these machines): images and lesson videos (MP4 and
 * HLS folders) go to the bucket and come back through `/storage/` with ranges and validators,
 * dedupe by sha1 holds, deleting removes the objects, paid course media stay closed exactly as
 * on the local folder, nothing lands in DATA_DIR/storage, and no credential reaches the log.
 */

const PREFIX = "site-a/";
const MEDIA = path.resolve(import.meta.dirname, "../../src/server/demo/media");
const media = (name: string) => readFileSync(path.join(MEDIA, name));
const sha1 = (data: Buffer) => createHash("sha1").update(data).digest("hex");

let s3: TestS3;
let t: TestApp;
let dataDir: string;
let base: string;
let root: TestAdmin;
let member: TestMember;

/** Every file under a folder (relative paths). */
function filesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(path.join(dir, f)).isFile());
}

beforeAll(async () => {
  s3 = await startTestS3();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-storage-s3-"));
  // The configuration as the environment gives it.
  const { s3: s3Config } = loadConfig({ ...s3.env, S3_PREFIX: PREFIX, DATA_DIR: dataDir });
  expect(s3Config).toMatchObject({ bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true, prefix: PREFIX });
  t = await createTestApp({ config: { dataDir, s3: s3Config } });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  root = await createAdmin(t.database.db);
  member = await createMember(t.database.db);
  await setSetting(t.database.db, "upload_rate_per_minute", 1000);
  await setSetting(t.database.db, "upload_quota_mib", 1000);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await s3?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Envelope<T = Record<string, unknown>> = { code: number; msg: string; data: T };
type Video = { url: string; type: string; size: number; duration: number; name: string };

/** A multipart upload over HTTP (fetch's FormData, as a browser sends it). */
async function send<T>(url: string, name: string, data: Buffer, type: string, headers: Record<string, string>): Promise<Envelope<T>> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${base}${url}`, { method: "POST", body: form, headers });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope<T>;
}
const uploadImage = (data: Buffer) => send<{ file: { url: string; id: number; size: number } }>("/api/ajax/upload", "photo.png", data, "image/png", member.headers);
const uploadVideo = (name: string, data: Buffer) => send<{ video: Video }>("/admin/course/lesson/upload", name, data, "application/octet-stream", root.headers);
const get = (url: string, headers: Record<string, string> = {}, method = "GET") => fetch(`${base}${url}`, { method, headers });
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const del = async (resource: string, ids: number[]) =>
  (await (await fetch(`${base}/admin/${resource}/del?${ids.map((id) => `ids[]=${id}`).join("&")}`, { method: "DELETE", headers: root.headers })).json()) as Envelope;
const keyOf = (url: string) => `${PREFIX}${url.slice("/storage/".length)}`;
const rowOf = async (url: string) => (await t.database.db.query<{ id: number; quote: number; storage: string }>("select id, quote, storage from attachment where url = $1", [url])).rows;

describe("uploads in an S3 bucket (STORAGE=s3, s3rver)", () => {
  it("stores an image in the bucket, serves it back, and keeps one object per content (sha1)", async () => {
    const image = Buffer.from(readFileSync(path.join(MEDIA, "cover-study.jpg")));
    const first = await send<{ file: { url: string; id: number; width?: number } }>("/api/ajax/upload", "cover.jpg", image, "image/jpeg", member.headers);
    expect(first, first.msg).toMatchObject({ code: 1, data: { file: { size: image.length, mimetype: "image/jpeg" } } });
    const { url } = first.data.file;
    expect(url).toMatch(new RegExp(`^/storage/default/\\d{8}/${sha1(image)}\\.jpg$`));
    expect(first.data.file.width).toBeGreaterThan(0);
    expect(await s3.keys(PREFIX)).toContain(keyOf(url));
    const stored = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: keyOf(url) }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(image)).toBe(true);
    expect(stored.ContentType).toBe("image/jpeg");
    expect(await rowOf(url)).toMatchObject([{ quote: 1, storage: "s3" }]);

    const res = await get(url);
    expect(res.status).toBe(200);
    expect((await bytes(res)).equals(image)).toBe(true);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-disposition")).toBeNull();

    // The same content again: the same URL and object, the row counts a second upload.
    const again = await send<{ file: { url: string } }>("/api/ajax/upload", "again.jpg", image, "image/jpeg", member.headers);
    expect(again.data.file.url).toBe(url);
    expect((await s3.keys(PREFIX)).filter((k) => k.includes(sha1(image)))).toEqual([keyOf(url)]);
    expect(await rowOf(url)).toMatchObject([{ quote: 2 }]);
  });

  it("serves a video with ranges (206 + Content-Range), HEAD, validators (304) and 416 past the end", async () => {
    const content = Buffer.concat([media("pattern.mp4"), randomBytes(64)]);
    const up = await uploadVideo("intro.mp4", content);
    expect(up, up.msg).toMatchObject({ code: 1, data: { video: { type: "mp4", size: content.length } } });
    const { url } = up.data.video;
    expect(url).toMatch(/^\/storage\/course\/\d{8}\/[0-9a-f]{40}\.mp4$/);
    expect(await s3.keys(PREFIX)).toContain(keyOf(url));

    const full = await get(url);
    expect(full.status).toBe(200);
    expect(full.headers.get("accept-ranges")).toBe("bytes");
    expect(full.headers.get("content-type")).toBe("video/mp4");
    expect((await bytes(full)).equals(content)).toBe(true);
    const etag = full.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);

    const part = await get(url, { range: "bytes=100-1123" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-1123/${content.length}`);
    expect(part.headers.get("content-length")).toBe("1024");
    expect((await bytes(part)).equals(content.subarray(100, 1124))).toBe(true);

    const open = await get(url, { range: `bytes=${content.length - 10}-` });
    expect(open.status).toBe(206);
    expect((await bytes(open)).equals(content.subarray(content.length - 10))).toBe(true);
    const suffix = await get(url, { range: "bytes=-16" });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get("content-range")).toBe(`bytes ${content.length - 16}-${content.length - 1}/${content.length}`);
    expect((await bytes(suffix)).equals(content.subarray(content.length - 16))).toBe(true);

    const past = await get(url, { range: `bytes=${content.length + 10}-${content.length + 20}` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${content.length}`);
    // A range the store cannot serve as one piece is ignored: the whole file.
    const many = await get(url, { range: "bytes=0-1,5-6" });
    expect(many.status).toBe(200);
    expect((await bytes(many)).length).toBe(content.length);
    // If-Range: the range while the file is the one the client has, else the whole file.
    expect((await get(url, { range: "bytes=0-9", "if-range": etag })).status).toBe(206);
    const changed = await get(url, { range: "bytes=0-9", "if-range": '"not-this-one"' });
    expect(changed.status).toBe(200);
    expect((await bytes(changed)).length).toBe(content.length);

    const head = await get(url, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(content.length));
    expect((await bytes(head)).length).toBe(0);
    const cached = await get(url, { "if-none-match": etag });
    expect(cached.status).toBe(304);
    expect((await bytes(cached)).length).toBe(0);

    expect((await get(url.replace(/\.mp4$/, ".webm"))).status).toBe(404);
    for (const bad of ["/storage/.tmp/x.part", "/storage/../../etc/passwd", "/storage/%2e%2e/%2e%2e/etc/passwd", "/storage/course/"]) {
      expect([400, 404], bad).toContain((await get(bad)).status);
    }
  });

  it("keeps paid course media closed exactly as on the local folder", async () => {
    const content = Buffer.concat([media("bars.mp4"), randomBytes(64)]);
    const { url } = (await uploadVideo("paid.mp4", content)).data.video;
    const course = await createCourse(t.database.db, {
      price: 500,
      lessons: [{ title: "preview", freePreview: true }, { title: "paid", videoUrl: url, videoType: "mp4", videoSize: content.length }],
    });
    const [previewId] = course.lessonIds;
    forgetCourseMedia(t.database.db);

    const anonymous = await get(url, { "think-lang": "en" });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 0, msg: "Please log in and open the lesson to watch its video" });
    expect((await get(url, { range: "bytes=0-9" })).status).toBe(401);
    expect((await get(url, {}, "HEAD")).status).toBe(401);

    // A member who opened the free preview holds a media cookie, but is not enrolled.
    const opened = await get(`/api/course/lesson?id=${previewId}`, member.headers);
    expect(((await opened.json()) as Envelope).code).toBe(1);
    const cookie = opened.headers.getSetCookie().find((c) => c.startsWith("examhub_media="))!.split(";")[0]!;
    const refused = await get(url, { cookie, "think-lang": "en", range: "bytes=0-9" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 0, msg: "Please enrol in this course to watch its videos" });

    await t.database.db.query("insert into course_enrolment (user_id, course_id, paid) values ($1, $2, 500)", [member.id, course.id]);
    const allowed = await get(url, { cookie, range: "bytes=0-9" });
    expect(allowed.status).toBe(206);
    expect((await bytes(allowed)).equals(content.subarray(0, 10))).toBe(true);
    expect(allowed.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("keeps an HLS zip as a folder of objects, served file by file, removed whole", async () => {
    const names = readdirSync(path.join(MEDIA, "hls"));
    const zip = makeZip([...names.map((name) => ({ name: `own/${name}`, data: media(`hls/${name}`) })), { name: "own/extra.vtt", data: Buffer.from(`WEBVTT\n\nNOTE ${randomBytes(8).toString("hex")}\n`) }]);
    const up = await uploadVideo("own.zip", zip);
    expect(up, up.msg).toMatchObject({ code: 1, data: { video: { type: "hls", duration: 24 } } });
    const { url } = up.data.video;
    const folder = keyOf(url.slice(0, url.lastIndexOf("/") + 1));
    expect((await s3.keys(folder)).map((k) => k.slice(folder.length)).sort()).toEqual([...names, "extra.vtt"].sort());

    const playlist = await get(url);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    expect((await bytes(playlist)).equals(media("hls/index.m3u8"))).toBe(true);
    const segment = await get(url.replace("index.m3u8", "segment-03.m4s"), { range: "bytes=0-99" });
    expect(segment.status).toBe(206);
    expect((await bytes(segment)).equals(media("hls/segment-03.m4s").subarray(0, 100))).toBe(true);

    // The same zip again: the folder is there whole, nothing is put twice.
    expect((await uploadVideo("again.zip", zip)).data.video.url).toBe(url);
    expect(await rowOf(url)).toMatchObject([{ quote: 2 }]);

    const [row] = await rowOf(url);
    expect((await del("routine/attachment", [row!.id])).code).toBe(1);
    expect(await s3.keys(folder)).toEqual([]);
    expect((await get(url)).status).toBe(404);
  });

  it("removes an image's object when its attachment row is deleted, and a lesson's video with the lesson", async () => {
    const image = (await uploadImage(randomPng())).data.file;
    expect(await s3.keys(PREFIX)).toContain(keyOf(image.url));
    expect((await del("routine/attachment", [image.id])).code).toBe(1);
    expect(await s3.keys(PREFIX)).not.toContain(keyOf(image.url));
    expect((await get(image.url)).status).toBe(404);

    const video = (await uploadVideo("gone.mp4", Buffer.concat([media("pattern.mp4"), randomBytes(64)]))).data.video;
    const category = (await post("/admin/course/category/add", { title: "S3" })).data.id as number;
    const course = (await post("/admin/course/course/add", { category_id: category, title: "S3 videos", price: 0 })).data.id as number;
    const lesson = await post("/admin/course/lesson/add", { course_id: course, title: "Lesson", video: { url: video.url, type: video.type, size: video.size, duration: 0 } });
    expect(lesson.code, lesson.msg).toBe(1);
    expect((await del("course/lesson", [lesson.data.id as number])).code).toBe(1);
    expect(await s3.keys(PREFIX)).not.toContain(keyOf(video.url));
    expect(await rowOf(video.url)).toEqual([]);
  });

  it("copies the demo course media into the bucket once", async () => {
    const source = demoMediaSource()!;
    const store = fileStore(t.app.config);
    expect(store).toBeInstanceOf(S3Store);
    const files = filesIn(source).length;
    expect(await copyDemoMedia(source, store)).toBe(2 * files);
    expect(await copyDemoMedia(source, store)).toBe(0);
    expect(await s3.keys(`${PREFIX}course/demo-paid/hls/`)).toContain(`${PREFIX}course/demo-paid/hls/index.m3u8`);
    const served = await get("/storage/course/demo/pattern.webm", { range: "bytes=0-3" });
    expect(served.status).toBe(206);
    expect((await bytes(served)).equals(media("pattern.webm").subarray(0, 4))).toBe(true);
  });

  it("leaves the local storage folder untouched and never logs the credentials", async () => {
    expect(filesIn(path.join(dataDir, "storage"))).toEqual([]);
    expect(filesIn(path.join(dataDir, "upload-tmp"))).toEqual([]);
    expect(t.logs.text).toContain("file uploaded");
    expect(t.logs.text).not.toContain(s3.secretAccessKey);
    expect(t.logs.text).not.toContain(s3.accessKeyId);
  });
});

const post = async (url: string, payload: unknown) =>
  (await (await fetch(`${base}${url}`, { method: "POST", headers: { ...root.headers, "content-type": "application/json" }, body: JSON.stringify(payload) })).json()) as Envelope;

/** A small PNG with new content each call. */
function randomPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(4, 0);
  ihdr.writeUInt32BE(4, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: 4 }, () => Buffer.concat([Buffer.from([0]), randomBytes(12)])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}
