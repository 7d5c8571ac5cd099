import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, type Dirent } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, createMember, type TestAdmin } from "../helpers/factories.ts";
import { makeZip, type ZipEntrySpec } from "../helpers/zip.ts";

/**
 * The courses back office on the CRUD engine: categories, courses, lessons with the
 * sanitised rich text, the lesson video upload (MP4 / WebM / HLS zip: streamed to disk, refused
 * zips and cut-off uploads leave nothing) and an admin edit reaching the member (ETag revalidation).
 */

let t: TestApp;
let dataDir: string;
let root: TestAdmin;
const MEDIA = path.resolve(import.meta.dirname, "../../src/server/demo/media");
const media = (name: string) => readFileSync(path.join(MEDIA, name));

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-courses-admin-"));
  t = await createTestApp({ config: { dataDir } });
  root = await createAdmin(t.database.db);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Envelope = { code: number; msg: string; data: Record<string, unknown> & { id?: number } };
const post = async (url: string, payload: unknown, headers = root.headers) => (await t.app.inject({ method: "POST", url, headers, payload: payload as object })).json() as Envelope;
const get = async (url: string, headers = root.headers) => (await t.app.inject({ method: "GET", url, headers })).json() as Envelope;

function multipart(name: string, data: Buffer, type = "application/octet-stream") {
  const boundary = `----courses${randomBytes(8).toString("hex")}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}
async function upload(name: string, data: Buffer, options: { cut?: number; headers?: Record<string, string> } = {}) {
  const body = multipart(name, data);
  const res = await t.app.inject({
    method: "POST",
    url: "/admin/course/lesson/upload",
    headers: { ...(options.headers ?? root.headers), "content-type": body.contentType },
    payload: options.cut ? body.payload.subarray(0, options.cut) : body.payload,
  });
  return res.json() as Envelope & { data: { video: { url: string; type: string; size: number; duration: number; name: string } } };
}

/** Every file under DATA_DIR/storage (relative), temp files included. */
function storedFiles(): string[] {
  const root = path.join(dataDir, "storage");
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();
}
/** The refusal stores nothing: no file under storage is added, and the temp folder stays empty. */
async function storesNothing(fn: () => Promise<void>): Promise<void> {
  const before = storedFiles();
  await fn();
  expect(storedFiles()).toEqual(before);
  expect(storedFiles().filter((f) => f.startsWith(".tmp"))).toEqual([]);
}

const hlsEntries = (prefix = ""): ZipEntrySpec[] =>
  readdirSync(path.join(MEDIA, "hls")).map((name) => ({ name: `${prefix}${name}`, data: media(`hls/${name}`), deflate: name.endsWith(".m3u8") }));

describe("categories, courses and lessons on the engine", () => {
  let category = 0;
  let course = 0;

  it("adds a category tree and a course whose introduction is sanitised before it is stored", async () => {
    const parent = await post("/admin/course/category/add", { title: "技术", title_en: "Tech" });
    expect(parent.code).toBe(1);
    const child = await post("/admin/course/category/add", { pid: parent.data.id, title: "前端", title_en: "Front end" });
    expect(child.code).toBe(1);
    category = child.data.id!;
    // A parent may not become its own descendant.
    expect((await post("/admin/course/category/edit", { id: parent.data.id, pid: category, title: "技术" })).code).toBe(0);
    const tree = await get("/admin/course/category/index?select=1&limit=100");
    expect((tree.data.list as { id: number; pid: number }[]).find((r) => r.id === category)?.pid).toBe(parent.data.id);

    const added = await post("/admin/course/course/add", {
      category_id: category,
      title: "网页基础",
      cover: "/storage/default/20260101/cover.png",
      summary: "HTML and CSS",
      introduction: '<p onclick="steal()">Hello <img src="x" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">link</a><strong>bold</strong></p>',
      price: 1990,
      status: "enable",
    });
    expect(added.code).toBe(1);
    course = added.data.id!;
    const row = (await get(`/admin/course/course/edit?id=${course}`)).data.row as Record<string, unknown>;
    expect(row).toMatchObject({ title: "网页基础", price: 1990, category_id: category });
    const html = String(row.introduction);
    expect(html).toContain("<strong>bold</strong>");
    expect(html).not.toMatch(/onclick|onerror|<script|javascript:/i);
    // Hostile values are refused with the field named, and nothing is written.
    for (const bad of [{ price: -1 }, { price: 1.5 }, { price: 200_000_000 }, { category_id: 0 }, { title: "" }, { cover: "javascript:alert(1)" }, { cover: "/storage/../etc/passwd" }]) {
      const res = await post("/admin/course/course/add", { category_id: category, title: "x", ...bad });
      expect(res.code, JSON.stringify(bad)).toBe(0);
      expect(Object.keys((res.data as { fields?: object }).fields ?? {}), JSON.stringify(bad)).toEqual([Object.keys(bad)[0]]);
    }
    expect(((await get(`/admin/course/course/index?search[0][field]=category_id&search[0][val]=${category}`)).data.total as number)).toBe(1);
  });

  it("adds a lesson with a video object and attachments, edits it, and lists it under its course", async () => {
    const added = await post("/admin/course/lesson/add", {
      course_id: course,
      title: "第一课",
      content: '<p>Read <img src="/storage/x.png" onerror="x()"></p><iframe src="https://evil.example"></iframe>',
      video: { url: "/storage/course/20260101/abc.mp4", type: "mp4", size: 1234, duration: 30 },
      attachments: [{ name: "notes.pdf", url: "/storage/default/20260101/notes.pdf", size: 10 }],
      free_preview: true,
      weigh: 5,
    });
    expect(added.code, added.msg).toBe(1);
    const id = added.data.id!;
    const row = (await get(`/admin/course/lesson/edit?id=${id}`)).data.row as Record<string, unknown>;
    expect(row.video).toEqual({ url: "/storage/course/20260101/abc.mp4", type: "mp4", size: 1234, duration: 30, name: "" });
    expect(row.attachments).toEqual([{ name: "notes.pdf", url: "/storage/default/20260101/notes.pdf", size: 10 }]);
    expect(row.free_preview).toBe(true);
    expect(String(row.content)).not.toMatch(/onerror|<iframe/);
    // A video whose kind does not match its URL, an external javascript: URL, a bad attachment: refused.
    for (const bad of [
      { video: { url: "", type: "mp4", size: 0, duration: 0 } },
      { video: { url: "/storage/a.mp4", type: "avi", size: 0, duration: 0 } },
      { video: { url: "javascript:alert(1)", type: "mp4", size: 0, duration: 0 } },
      { video: { url: "/storage/a.mp4", type: "mp4", size: 0, duration: 90_000 } },
      { attachments: [{ name: "", url: "/storage/a", size: 1 }] },
      { attachments: Array.from({ length: 21 }, () => ({ name: "a", url: "/storage/a", size: 1 })) },
    ]) {
      const res = await post("/admin/course/lesson/add", { course_id: course, title: "bad", ...bad });
      expect(res.code, JSON.stringify(bad)).toBe(0);
      expect(Object.keys((res.data as { fields?: object }).fields ?? {}), JSON.stringify(bad)).toEqual([Object.keys(bad)[0]]);
    }
    const list = await get(`/admin/course/lesson/index?search[0][field]=course_id&search[0][val]=${course}`);
    expect(list.data.list).toMatchObject([{ id, title: "第一课", course_title: "网页基础", video_type: "mp4", video_size: 1234, duration: 30, free_preview: true }]);
    const courses = await get(`/admin/course/course/index?search[0][field]=id&search[0][val]=${course}`);
    expect(courses.data.list).toMatchObject([{ id: course, lesson_count: 1, category_title: "前端" }]);
  });

  it("refuses to delete a category that has courses, and a course members are enrolled in", async () => {
    const del = await t.app.inject({ method: "DELETE", url: `/admin/course/category/del?ids[]=${category}`, headers: root.headers });
    expect(del.json()).toMatchObject({ code: 0, msg: "Move or delete the courses of this category first" });
    const member = await createMember(t.database.db);
    await t.database.db.query("insert into course_enrolment (user_id, course_id, paid) values ($1, $2, 1990)", [member.id, course]);
    const refused = await t.app.inject({ method: "DELETE", url: `/admin/course/course/del?ids[]=${course}`, headers: root.headers });
    expect(refused.json()).toMatchObject({ code: 0, msg: "Members are enrolled in this course: disable it instead of deleting it" });
    expect((await t.database.db.query("select 1 from course where id = $1", [course])).rows).toHaveLength(1);
  });
});

describe("the lesson video upload", () => {
  it("keeps an MP4 and a WebM whose content matches their names, with an attachment row", async () => {
    const mp4 = await upload("intro.mp4", media("pattern.mp4"));
    expect(mp4, mp4.msg).toMatchObject({ code: 1, data: { video: { type: "mp4", size: media("pattern.mp4").length, duration: 0, name: "intro.mp4" } } });
    expect(mp4.data.video.url).toMatch(/^\/storage\/course\/\d{8}\/[0-9a-f]{40}\.mp4$/);
    expect(readFileSync(path.join(dataDir, mp4.data.video.url)).equals(media("pattern.mp4"))).toBe(true);
    const row = await t.database.db.query("select mimetype, admin_id from attachment where url = $1", [mp4.data.video.url]);
    expect(row.rows).toEqual([{ mimetype: "video/mp4", admin_id: root.id }]);
    const webm = await upload("clip.webm", media("pattern.webm"));
    expect(webm).toMatchObject({ code: 1, data: { video: { type: "webm" } } });
  });

  it("refuses a file that is not what its name says, and other types, storing nothing", async () => {
    await storesNothing(async () => {
      expect(await upload("fake.mp4", media("pattern.webm"))).toMatchObject({ code: 0, msg: "Please upload an MP4 or WebM video, or an HLS folder as a .zip" });
      expect(await upload("fake.webm", Buffer.from("<script>alert(1)</script>"))).toMatchObject({ code: 0 });
      expect(await upload("movie.avi", media("pattern.mp4"))).toMatchObject({ code: 0 });
      expect(await upload("empty.mp4", Buffer.alloc(0))).toMatchObject({ code: 0 });
    });
  });

  it("unpacks an HLS folder sent as a zip into a folder of its own, with the playlist's duration", async () => {
    const zip = makeZip([{ name: "lesson-1/", data: Buffer.alloc(0) }, ...hlsEntries("lesson-1/"), { name: "__MACOSX/lesson-1/._index.m3u8", data: Buffer.from("x") }]);
    const res = await upload("lesson-1.zip", zip);
    expect(res, res.msg).toMatchObject({ code: 1, data: { video: { type: "hls", duration: 24 } } });
    expect(res.data.video.url).toMatch(/^\/storage\/course\/hls\/[0-9a-f]{40}\/index\.m3u8$/);
    const folder = path.dirname(path.join(dataDir, res.data.video.url));
    expect(readdirSync(folder).sort()).toEqual(readdirSync(path.join(MEDIA, "hls")).sort());
    expect(readFileSync(path.join(folder, "segment-03.m4s")).equals(media("hls/segment-03.m4s"))).toBe(true);
    const bytes = readdirSync(path.join(MEDIA, "hls")).reduce((sum, name) => sum + media(`hls/${name}`).length, 0);
    expect(res.data.video.size).toBe(bytes);
    // The same zip again: the same folder, nothing left in the temp folder.
    expect((await upload("again.zip", zip)).data.video.url).toBe(res.data.video.url);
    expect(storedFiles().filter((f) => f.startsWith(".tmp"))).toEqual([]);
    // A master playlist's duration is its first variant's.
    const master = makeZip([{ name: "master.m3u8", data: Buffer.from("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nlow/index.m3u8\n") }, ...hlsEntries("low/")]);
    expect(await upload("master.zip", master)).toMatchObject({ code: 1, data: { video: { type: "hls", duration: 24 } } });
  });

  it("refuses zips with path traversal, absolute paths, foreign files, no playlist, bombs and lying headers, unpacking nothing", async () => {
    const playlist = { name: "index.m3u8", data: media("hls/index.m3u8") };
    const cases: [string, Buffer, RegExp][] = [
      ["traversal", makeZip([playlist, { name: "../../evil.ts", data: Buffer.from("x") }]), /damaged or holds a path that is not allowed/],
      ["nested traversal", makeZip([playlist, { name: "a/../../evil.ts", data: Buffer.from("x") }]), /damaged or holds a path that is not allowed/],
      ["absolute", makeZip([playlist, { name: "/etc/evil.ts", data: Buffer.from("x") }]), /damaged or holds a path that is not allowed/],
      ["backslash", makeZip([playlist, { name: "..\\evil.ts", data: Buffer.from("x") }]), /damaged or holds a path that is not allowed/],
      ["drive", makeZip([playlist, { name: "C:/evil.ts", data: Buffer.from("x") }]), /path that is not allowed/],
      ["foreign file", makeZip([playlist, { name: "run.sh", data: Buffer.from("rm -rf /") }]), /not part of an HLS video: run\.sh/],
      ["no playlist", makeZip([{ name: "segment-00.m4s", data: media("hls/segment-00.m4s") }]), /no \.m3u8 playlist/],
      ["outside the playlist's folder", makeZip([{ name: "a/index.m3u8", data: media("hls/index.m3u8") }, { name: "b/x.ts", data: Buffer.from("x") }]), /must be in the playlist's folder/],
      ["not a playlist", makeZip([{ name: "index.m3u8", data: Buffer.from("hello") }]), /must start with #EXTM3U/],
      ["bomb", makeZip([playlist, { name: "bomb.ts", data: Buffer.alloc(64 * 1024 * 1024), deflate: true }]), /zip bomb/],
      // Entries under 1 MB were once never measured: 100 of 1 MiB of zeros unpacked 101 MB from 109 kB.
      ["small bombs", makeZip([playlist, ...Array.from({ length: 100 }, (_, i) => ({ name: `z${i}.ts`, data: Buffer.alloc(1024 * 1024), deflate: true }))]), /holds a file that unpacks to far more than its size \(a zip bomb\): z0\.ts/],
      // Each entry within its own allowance (60 kB of zeros), the whole zip 400 times its size.
      ["many small files", makeZip([playlist, ...Array.from({ length: 1000 }, (_, i) => ({ name: `s${i}.ts`, data: Buffer.alloc(60 * 1024), deflate: true }))]), /^The zip unpacks to far more than its size \(a zip bomb\)$/],
      ["lying header", makeZip([playlist, { name: "lie.ts", data: randomBytes(200_000), deflate: true, claimSize: 100 }]), /could not be unpacked/],
      ["too many files", makeZip([playlist, ...Array.from({ length: 5001 }, (_, i) => ({ name: `s${i}.ts`, data: Buffer.from("x") }))]), /more than 5000 files/],
      ["not a zip", Buffer.from("PK\u0003\u0004 this is not a zip at all"), /not a readable zip/],
    ];
    for (const [label, zip, message] of cases) {
      await storesNothing(async () => {
        const res = await upload(`${label.replace(/\W/g, "-")}.zip`, zip);
        expect(res.code, label).toBe(0);
        expect(res.msg, label).toMatch(message);
      });
    }
    expect(existsSync(path.join(dataDir, "evil.ts"))).toBe(false);
    expect(existsSync("/etc/evil.ts")).toBe(false);
  });

  it("leaves nothing behind when the upload is cut off, over inject and over a real socket", async () => {
    await storesNothing(async () => {
      const cut = await upload("cut.mp4", Buffer.concat([media("pattern.mp4"), randomBytes(200_000)]), { cut: 100_000 });
      expect(cut).toMatchObject({ code: 0, msg: "The upload was interrupted: please try again" });
    });
    const address = new URL(await t.app.listen({ port: 0, host: "127.0.0.1" }));
    const before = storedFiles();
    const body = multipart("big.mp4", Buffer.concat([media("pattern.mp4"), randomBytes(4 * 1024 * 1024)]));
    const tmp = path.join(dataDir, "storage", ".tmp");
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(address.port), address.hostname, () => {
        socket.write(
          `POST /admin/course/lesson/upload HTTP/1.1\r\nHost: ${address.host}\r\nbatoken: ${root.token}\r\nContent-Type: ${body.contentType}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
        );
        socket.write(body.payload.subarray(0, 2 * 1024 * 1024));
        // Wait until the server has started writing the temp file, then drop the connection.
        const started = Date.now();
        const poll = setInterval(() => {
          const writing = existsSync(tmp) && readdirSync(tmp).length > 0;
          if (writing || Date.now() - started > 10_000) {
            clearInterval(poll);
            socket.destroy();
            if (writing) resolve();
            else reject(new Error("the upload never reached the temp folder"));
          }
        }, 20);
      });
      socket.on("error", () => undefined);
    });
    // The server notices the cut and removes the partial file.
    const deadline = Date.now() + 10_000;
    while (readdirSync(tmp).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(tmp)).toEqual([]);
    expect(storedFiles()).toEqual(before);
  });

  it("needs the upload rule; a member token is never let through", async () => {
    const member = await createMember(t.database.db);
    expect((await upload("intro.mp4", media("pattern.mp4"), { headers: member.headers })).code).toBe(303);
    const { rows } = await t.database.db.query<{ id: number }>("select id from admin_rule where name = 'course/lesson/index'");
    const group = await t.database.db.query<{ id: number }>("insert into admin_group (name, rules) values ('lesson readers', $1) returning id", [String(rows[0]!.id)]);
    const reader = await createAdmin(t.database.db, { isSuper: false });
    await t.database.db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [reader.id, group.rows[0]!.id]);
    await storesNothing(async () => {
      expect((await upload("intro.mp4", media("pattern.mp4"), { headers: reader.headers })).code).toBe(401);
    });
  });
});

describe("lesson video files have a lifetime", () => {
  let courseId = 0;
  const del = async (resource: string, ids: number[]) =>
    (await t.app.inject({ method: "DELETE", url: `/admin/${resource}/del?${ids.map((id) => `ids[]=${id}`).join("&")}`, headers: root.headers })).json() as Envelope;
  type Video = { url: string; type: string; size: number; duration: number };
  const addLesson = async (video: Video | null, course = courseId) => {
    const res = await post("/admin/course/lesson/add", { course_id: course, title: "Lesson", ...(video ? { video: { url: video.url, type: video.type, size: video.size, duration: video.duration } } : {}) });
    expect(res.code, res.msg).toBe(1);
    return res.data.id!;
  };
  /** Distinct content each time (a stored file of another test is never shared by accident). */
  const mp4 = async () => {
    const res = await upload("own.mp4", Buffer.concat([media("pattern.mp4"), randomBytes(64)]));
    expect(res.code, res.msg).toBe(1);
    return res.data.video;
  };
  const hls = async () => {
    const res = await upload("own.zip", makeZip([...hlsEntries("own/"), { name: "own/extra.vtt", data: Buffer.from(`WEBVTT\n\nNOTE ${randomBytes(8).toString("hex")}\n`) }]));
    expect(res.code, res.msg).toBe(1);
    return res.data.video;
  };
  const onDisk = (url: string) => existsSync(path.join(dataDir, url));
  const hlsFolder = (url: string) => path.dirname(path.join(dataDir, url));
  const rowsOf = async (url: string) =>
    (await t.database.db.query<{ topic: string; lesson_video: boolean; mimetype: string }>("select topic, lesson_video, mimetype from attachment where url = $1", [url])).rows;

  beforeAll(async () => {
    const category = (await post("/admin/course/category/add", { title: "视频" })).data.id!;
    courseId = (await post("/admin/course/course/add", { category_id: category, title: "Videos", price: 0 })).data.id!;
  });

  it("keeps the name a video was uploaded under through the lesson's save, for its form and the attachments screen", async () => {
    const res = await upload("pattern.webm", Buffer.concat([media("pattern.webm"), randomBytes(64)]));
    expect(res.code, res.msg).toBe(1);
    const video = res.data.video;
    expect(video).toMatchObject({ name: "pattern.webm", type: "webm" });
    // Its stored file is named by its content, not by the name it came with.
    expect(video.url).toMatch(/\/[0-9a-f]{40}\.webm$/);
    const lessonId = (await post("/admin/course/lesson/add", { course_id: courseId, title: "Named", video })).data.id!;
    const row = (await get(`/admin/course/lesson/edit?id=${lessonId}`)).data.row as { video: Video & { name: string } };
    expect(row.video).toEqual({ url: video.url, type: "webm", size: video.size, duration: 0, name: "pattern.webm" });
    // An edit that keeps the video keeps its name; removing the video forgets it.
    expect((await post("/admin/course/lesson/edit", { id: lessonId, course_id: courseId, title: "Renamed", video: row.video })).code).toBe(1);
    expect(((await get(`/admin/course/lesson/edit?id=${lessonId}`)).data.row as { video: { name: string } }).video.name).toBe("pattern.webm");
    const list = await get(`/admin/routine/attachment/index?quickSearch=pattern.webm&limit=100`);
    expect((list.data.list as { url: string; name: string }[]).find((r) => r.url === video.url)?.name).toBe("pattern.webm");
    expect((await post("/admin/course/lesson/edit", { id: lessonId, course_id: courseId, title: "No video" })).code).toBe(1);
    expect(await t.database.db.query("select video_url, video_name from lesson where id = $1", [lessonId]).then((r) => r.rows)).toEqual([{ video_url: "", video_name: "" }]);
    expect((await del("course/lesson", [lessonId])).code).toBe(1);
  });

  it("records an uploaded MP4 and an HLS folder as attachment rows, listed on the attachments screen", async () => {
    const file = await mp4();
    const folder = await hls();
    expect(await rowsOf(file.url)).toEqual([{ topic: "course", lesson_video: true, mimetype: "video/mp4" }]);
    expect(await rowsOf(folder.url)).toEqual([{ topic: "course/hls", lesson_video: true, mimetype: "application/vnd.apple.mpegurl" }]);
    const { rows } = await t.database.db.query<{ size: string; sha1: string }>("select size, sha1 from attachment where url = $1", [folder.url]);
    expect(Number(rows[0]!.size)).toBe(folder.size);
    expect(folder.url).toContain(`/hls/${rows[0]!.sha1}/`);
    const lessonId = await addLesson(folder);
    const list = await get("/admin/routine/attachment/index?quickSearch=course%2Fhls&limit=100");
    const listed = (list.data.list as { url: string; uses: Record<string, number> }[]).find((r) => r.url === folder.url);
    expect(listed?.uses).toMatchObject({ lesson: 1, attachment: 0, recycled: 0 });
    expect((await del("course/lesson", [lessonId])).code).toBe(1);
  });

  it("removes a deleted lesson's video: the MP4 file, the HLS folder whole, and their rows", async () => {
    const file = await mp4();
    const folder = await hls();
    const a = await addLesson(file);
    const b = await addLesson(folder);
    expect(onDisk(file.url) && existsSync(hlsFolder(folder.url))).toBe(true);
    expect((await del("course/lesson", [a, b])).code).toBe(1);
    expect(onDisk(file.url)).toBe(false);
    expect(existsSync(hlsFolder(folder.url))).toBe(false);
    expect(await rowsOf(file.url)).toEqual([]);
    expect(await rowsOf(folder.url)).toEqual([]);
    expect(storedFiles().filter((f) => f.startsWith(".tmp"))).toEqual([]);
  });

  it("keeps a video another lesson still uses, until the last one goes", async () => {
    for (const video of [await mp4(), await hls()]) {
      const first = await addLesson(video);
      const second = await addLesson(video);
      expect((await del("course/lesson", [first])).code).toBe(1);
      expect(onDisk(video.url), video.type).toBe(true);
      expect(await rowsOf(video.url)).toHaveLength(1);
      expect((await del("course/lesson", [second])).code).toBe(1);
      expect(onDisk(video.url), video.type).toBe(false);
      expect(await rowsOf(video.url)).toEqual([]);
    }
  });

  it("removes the old video when an edit replaces it, and nothing when the video stays", async () => {
    const old = await hls();
    const lessonId = await addLesson(old);
    const edit = (video: Video) => post("/admin/course/lesson/edit", { id: lessonId, course_id: courseId, title: "Renamed", video });
    expect((await edit(old)).code).toBe(1);
    expect(onDisk(old.url)).toBe(true);
    const next = await mp4();
    expect((await edit(next)).code).toBe(1);
    expect(existsSync(hlsFolder(old.url))).toBe(false);
    expect(await rowsOf(old.url)).toEqual([]);
    expect(onDisk(next.url)).toBe(true);
    expect((await del("course/lesson", [lessonId])).code).toBe(1);
    expect(onDisk(next.url)).toBe(false);
  });

  it("removes nothing when the write fails or is refused", async () => {
    const old = await mp4();
    const lessonId = await addLesson(old);
    const next = await mp4();
    // A course that does not exist: the edit is rolled back, the lesson keeps its video.
    const failed = await post("/admin/course/lesson/edit", { id: lessonId, course_id: 2_000_000_000, title: "x", video: next });
    expect(failed.code).toBe(0);
    expect(onDisk(old.url) && onDisk(next.url)).toBe(true);
    expect(await rowsOf(old.url)).toHaveLength(1);
    // A course members are enrolled in is not deleted: its lesson keeps its video.
    const category = (await post("/admin/course/category/add", { title: "已售" })).data.id!;
    const sold = (await post("/admin/course/course/add", { category_id: category, title: "Sold", price: 100 })).data.id!;
    const soldLesson = await addLesson(next, sold);
    const member = await createMember(t.database.db);
    await t.database.db.query("insert into course_enrolment (user_id, course_id, paid) values ($1, $2, 100)", [member.id, sold]);
    expect((await del("course/course", [sold])).code).toBe(0);
    expect(onDisk(next.url)).toBe(true);
    // Once nobody is enrolled, deleting the course lets its lessons' videos go.
    await t.database.db.query("delete from course_enrolment where course_id = $1", [sold]);
    expect((await del("course/course", [sold])).code).toBe(1);
    expect((await t.database.db.query("select 1 from lesson where id = $1", [soldLesson])).rows).toEqual([]);
    expect(onDisk(next.url)).toBe(false);
    expect(onDisk(old.url)).toBe(true);
    expect((await del("course/lesson", [lessonId])).code).toBe(1);
  });

  it("keeps a video in use when its attachment row is deleted; the lesson's delete still removes it", async () => {
    const video = await hls();
    const lessonId = await addLesson(video);
    const { rows } = await t.database.db.query<{ id: number }>("select id from attachment where url = $1", [video.url]);
    expect((await del("routine/attachment", [rows[0]!.id])).code).toBe(1);
    expect(await rowsOf(video.url)).toEqual([]);
    expect(existsSync(path.join(hlsFolder(video.url), "segment-03.m4s"))).toBe(true);
    expect((await del("course/lesson", [lessonId])).code).toBe(1);
    expect(existsSync(hlsFolder(video.url))).toBe(false);
    // The row of a video no lesson uses: its delete removes the HLS folder whole.
    const unused = await hls();
    const row = await t.database.db.query<{ id: number }>("select id from attachment where url = $1", [unused.url]);
    expect((await del("routine/attachment", [row.rows[0]!.id])).code).toBe(1);
    expect(existsSync(hlsFolder(unused.url))).toBe(false);
  });

  it("keeps a file another upload also made (its row is still wanted)", async () => {
    const content = Buffer.concat([media("pattern.mp4"), randomBytes(64)]);
    const body = multipart("same.mp4", content, "video/mp4");
    const general = await t.app.inject({ method: "POST", url: "/admin/ajax/upload?topic=course", headers: { ...root.headers, "content-type": body.contentType }, payload: body.payload });
    expect(general.json().code, general.body).toBe(1);
    const video = (await upload("same.mp4", content)).data.video;
    expect(video.url).toBe(general.json().data.file.url);
    expect(await rowsOf(video.url)).toEqual([{ topic: "course", lesson_video: false, mimetype: "video/mp4" }]);
    const lessonId = await addLesson(video);
    expect((await del("course/lesson", [lessonId])).code).toBe(1);
    expect(onDisk(video.url)).toBe(true);
    expect(await rowsOf(video.url)).toHaveLength(1);
  });

  it("keeps a video uploaded again since the lesson last changed (a lesson form not saved yet may use it)", async () => {
    const content = Buffer.concat([media("pattern.mp4"), randomBytes(64)]);
    const video = (await upload("again.mp4", content)).data.video;
    const first = await addLesson(video);
    await t.database.db.query("update lesson set update_time = update_time - 10 where id = $1", [first]);
    // The same video again, for a second lesson whose form is still open.
    expect((await upload("again.mp4", content)).data.video.url).toBe(video.url);
    expect((await del("course/lesson", [first])).code).toBe(1);
    expect(onDisk(video.url)).toBe(true);
    expect(await rowsOf(video.url)).toHaveLength(1);
    // Saved and later deleted: now it goes.
    const second = await addLesson(video);
    expect((await del("course/lesson", [second])).code).toBe(1);
    expect(onDisk(video.url)).toBe(false);
  });

  it("keeps the video of a lesson in the recycle bin: a restore finds it, a purge removes it", async () => {
    await t.database.db.query("insert into security_data_recycle (name, controller, data_table) values ('课时', 'course/lesson', 'lesson')");
    try {
      const video = await hls();
      const lessonId = await addLesson(video);
      expect((await del("course/lesson", [lessonId])).code).toBe(1);
      expect(existsSync(hlsFolder(video.url))).toBe(true);
      const record = async () => (await t.database.db.query<{ id: number }>("select id from security_data_recycle_log where data_table = 'lesson' and row_id = $1", [lessonId])).rows[0]!.id;
      expect((await post("/admin/security/dataRecycleLog/restore", { ids: [await record()] })).code).toBe(1);
      expect((await t.database.db.query("select video_url from lesson where id = $1", [lessonId])).rows).toEqual([{ video_url: video.url }]);
      expect(existsSync(path.join(hlsFolder(video.url), "index.m3u8"))).toBe(true);
      expect((await del("course/lesson", [lessonId])).code).toBe(1);
      expect(existsSync(hlsFolder(video.url))).toBe(true);
      expect((await del("security/dataRecycleLog", [await record()])).code).toBe(1);
      expect(existsSync(hlsFolder(video.url))).toBe(false);
      expect(await rowsOf(video.url)).toEqual([]);
    } finally {
      await t.database.db.query("delete from security_data_recycle where controller = 'course/lesson'");
    }
  });

  it("keeps the videos of a recycled course's lessons until the record is purged", async () => {
    await t.database.db.query("insert into security_data_recycle (name, controller, data_table) values ('课程', 'course/course', 'course')");
    try {
      const category = (await post("/admin/course/category/add", { title: "回收" })).data.id!;
      const course = (await post("/admin/course/course/add", { category_id: category, title: "Recycled", price: 0 })).data.id!;
      const video = await mp4();
      await addLesson(video, course);
      expect((await del("course/course", [course])).code).toBe(1);
      expect(onDisk(video.url)).toBe(true);
      const { rows } = await t.database.db.query<{ id: number }>("select id from security_data_recycle_log where data_table = 'course' and row_id = $1", [course]);
      expect((await del("security/dataRecycleLog", [rows[0]!.id])).code).toBe(1);
      expect(onDisk(video.url)).toBe(false);
      expect(await rowsOf(video.url)).toEqual([]);
    } finally {
      await t.database.db.query("delete from security_data_recycle where controller = 'course/course'");
    }
  });

  it("migration 0020 marks the rows of videos lessons use and gives older HLS folders a row", async () => {
    const sha1 = randomBytes(20).toString("hex");
    const playlist = `/storage/course/hls/${sha1}/index.m3u8`;
    const file = await mp4();
    await t.database.db.query("update attachment set lesson_video = false where url = $1", [file.url]);
    const a = await addLesson({ url: playlist, type: "hls", size: 1234, duration: 24 });
    const b = await addLesson({ url: playlist, type: "hls", size: 1234, duration: 24 });
    const c = await addLesson(file);
    // The data changes of the migration (its column exists already here).
    const migration = readFileSync(path.resolve(import.meta.dirname, "../../src/server/db/migrations/0020_lesson_video_files.sql"), "utf8");
    await t.database.db.transaction((tx) => tx.exec(migration.replace(/alter table attachment add column[^;]*;/, "")));
    expect(await rowsOf(file.url)).toEqual([{ topic: "course", lesson_video: true, mimetype: "video/mp4" }]);
    expect(await rowsOf(playlist)).toEqual([{ topic: "course/hls", lesson_video: true, mimetype: "application/vnd.apple.mpegurl" }]);
    const { rows } = await t.database.db.query<{ sha1: string; size: number; name: string }>("select sha1, size::int as size, name from attachment where url = $1", [playlist]);
    expect(rows).toEqual([{ sha1, size: 1234, name: "index.m3u8" }]);
    expect((await del("course/lesson", [a, b, c])).code).toBe(1);
    expect(await rowsOf(playlist)).toEqual([]);
  });

  it("never removes demo media", async () => {
    const demo = path.join(dataDir, "storage/course/demo/own-demo.mp4");
    mkdirSync(path.dirname(demo), { recursive: true });
    writeFileSync(demo, media("pattern.mp4"));
    const lessonId = await addLesson({ url: "/storage/course/demo/own-demo.mp4", type: "mp4", size: 10, duration: 1 });
    expect((await del("course/lesson", [lessonId])).code).toBe(1);
    expect(existsSync(demo)).toBe(true);
  });
});

describe("an admin edit reaches the member", () => {
  it("changes the lesson's and the course's ETag, so the member's next visit gets the new text", async () => {
    const categoryId = (await post("/admin/course/category/add", { title: "语言" })).data.id!;
    const courseId = (await post("/admin/course/course/add", { category_id: categoryId, title: "英语", price: 0 })).data.id!;
    const lessonId = (await post("/admin/course/lesson/add", { course_id: courseId, title: "Lesson one", content: "<p>Old text</p>", free_preview: true })).data.id!;
    const member = await createMember(t.database.db);
    const open = (url: string, etag?: string) => t.app.inject({ method: "GET", url, headers: { ...member.headers, ...(etag ? { "if-none-match": etag } : {}) } });

    const first = await open(`/api/course/lesson?id=${lessonId}`);
    expect(first.json().data.lesson.content).toContain("Old text");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("private, no-cache");
    // Unchanged: 304 without a body.
    const again = await open(`/api/course/lesson?id=${lessonId}`, etag);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    const detail = await open(`/api/course/detail?id=${courseId}`);
    const detailTag = String(detail.headers.etag);
    const { rows: before } = await t.database.db.query<{ update_time: string }>("select update_time from course where id = $1", [courseId]);
    await t.database.db.query("update course set update_time = update_time - 10 where id = $1", [courseId]);
    await t.database.db.query("update lesson set update_time = update_time - 10 where id = $1", [lessonId]);

    const edited = await post("/admin/course/lesson/edit", { id: lessonId, course_id: courseId, title: "Lesson one, revised", content: "<p>New text</p>", free_preview: true });
    expect(edited.code).toBe(1);
    const { rows: after } = await t.database.db.query<{ course: string; lesson: string }>(
      "select c.update_time as course, l.update_time as lesson from course c join lesson l on l.course_id = c.id where l.id = $1",
      [lessonId],
    );
    expect(Number(after[0]!.course)).toBeGreaterThanOrEqual(Number(before[0]!.update_time));
    expect(Number(after[0]!.lesson)).toBeGreaterThanOrEqual(Number(before[0]!.update_time));

    // The device revalidates with its old tag: the new lesson comes back with a new tag.
    const next = await open(`/api/course/lesson?id=${lessonId}`, etag);
    expect(next.statusCode).toBe(200);
    expect(next.json().data.lesson).toMatchObject({ title: "Lesson one, revised" });
    expect(next.json().data.lesson.content).toContain("New text");
    expect(next.headers.etag).not.toBe(etag);
    const nextDetail = await open(`/api/course/detail?id=${courseId}`, detailTag);
    expect(nextDetail.statusCode).toBe(200);
    expect(JSON.stringify(nextDetail.json().data)).toContain("Lesson one, revised");

    // A course edit reaches the course detail too; disabling the lesson removes it for the member.
    await post("/admin/course/course/edit", { id: courseId, category_id: categoryId, title: "English, revised", price: 0 });
    expect((await open(`/api/course/detail?id=${courseId}`, String(nextDetail.headers.etag))).json().data.course.title).toBe("English, revised");
    await post("/admin/course/lesson/edit", { id: lessonId, course_id: courseId, title: "Lesson one, revised", free_preview: true, status: "disable" });
    expect((await open(`/api/course/lesson?id=${lessonId}`, String(next.headers.etag))).json().code).toBe(0);
  });
});
