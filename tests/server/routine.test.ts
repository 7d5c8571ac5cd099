import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageSender, OutgoingMessage } from "../../src/server/auth/senders.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, createMember, type TestAdmin } from "../helpers/factories.ts";

/** The "Routine" screens' server side: attachments (delete keeps files still used), config, test email, clearCache. */

const sent: OutgoingMessage[] = [];
/** The outside edge (email) recorded. */
const recorder: MessageSender = { name: "recorder", send: async (m) => void sent.push(m) };

let t: TestApp;
let dataDir: string;
let admin: TestAdmin;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-routine-"));
  t = await createTestApp({ config: { dataDir } });
  admin = await createAdmin(t.database.db);
});

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function multipart(filename: string, data: Buffer, topic = "default", headers: Record<string, string> = admin.headers) {
  const boundary = `----rt${randomBytes(6).toString("hex")}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="topic"\r\n\r\n${topic}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}` } };
}

async function upload(filename: string, data: Buffer, topic?: string) {
  const res = await t.app.inject({ method: "POST", url: "/admin/ajax/upload", ...multipart(filename, data, topic) });
  return res.json<{ code: number; msg: string; data: { file: { id: number; url: string } } }>();
}

/** A member's upload (the member limits apply to these only). */
async function memberUpload(headers: Record<string, string>, data: Buffer) {
  const res = await t.app.inject({ method: "POST", url: "/api/ajax/upload", ...multipart("member.txt", data, "default", headers) });
  return res.json<{ code: number; msg: string; data: { file: { id: number; url: string } } }>();
}

const text = (bytes = 64) => Buffer.from(randomBytes(bytes).toString("hex"));
const fileOf = (url: string) => path.join(dataDir, url);
const del = (ids: number[], headers = admin.headers) =>
  t.app.inject({ method: "DELETE", url: `/admin/routine/attachment/del?${ids.map((id) => `ids[]=${id}`).join("&")}`, headers }).then((r) => r.json<{ code: number; msg: string }>());
const post = (url: string, payload: unknown, headers = admin.headers) => t.app.inject({ method: "POST", url, payload: payload as object, headers }).then((r) => r.json<{ code: number; msg: string; data: unknown }>());
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
const get = (url: string, headers = admin.headers) => t.app.inject({ method: "GET", url, headers }).then((r) => r.json<{ code: number; msg: string; data: Record<string, any> }>());

describe("attachments", () => {
  it("lists uploads with the uploader, size and where each file is used", async () => {
    const up = await upload("notes.txt", text());
    expect(up.code).toBe(1);
    const member = await createMember(t.database.db);
    await t.database.db.query("update member set avatar = $1 where id = $2", [up.data.file.url, member.id]);
    const list = await get(`/admin/routine/attachment/index?search[0][field]=name&search[0][val]=notes&search[0][operator]=LIKE`);
    expect(list.code).toBe(1);
    const row = list.data.list.find((r: { id: number }) => r.id === up.data.file.id);
    expect(row).toMatchObject({ name: "notes.txt", admin_username: admin.username, mimetype: "text/plain", uses: { member: 1, attachment: 0, course: 0 } });
    expect(typeof row.size).toBe("number");
  });

  it("deletes the file only when nothing else uses it", async () => {
    // A file a member's avatar shows: its row goes, the file stays.
    const used = await upload("avatar.txt", text());
    const member = await createMember(t.database.db);
    await t.database.db.query("update member set avatar = $1 where id = $2", [used.data.file.url, member.id]);
    expect((await del([used.data.file.id])).code).toBe(1);
    expect(existsSync(fileOf(used.data.file.url))).toBe(true);

    // Two rows of one file (another row with the same url): the first delete keeps the file.
    const shared = await upload("shared.txt", text());
    const { rows } = await t.database.db.query<{ id: number }>(
      "insert into attachment (topic, url, name, size, mimetype, sha1) select 'copy', url, name, size, mimetype, sha1 from attachment where id = $1 returning id",
      [shared.data.file.id],
    );
    expect((await del([shared.data.file.id])).code).toBe(1);
    expect(existsSync(fileOf(shared.data.file.url))).toBe(true);
    expect((await del([rows[0]!.id])).code).toBe(1);
    expect(existsSync(fileOf(shared.data.file.url))).toBe(false);

    // A file a lesson's rich text shows stays too; an unused one goes.
    const lone = await upload("lone.txt", text());
    expect(existsSync(fileOf(lone.data.file.url))).toBe(true);
    expect((await del([lone.data.file.id])).code).toBe(1);
    expect(existsSync(fileOf(lone.data.file.url))).toBe(false);
    const edit = await get(`/admin/routine/attachment/edit?id=${lone.data.file.id}`);
    expect(edit.code).toBe(0);
  });

  it("never leaves a row pointing at a missing file when the same content is uploaded while it is deleted", async () => {
    for (let round = 0; round < 6; round++) {
      const data = text();
      const first = await upload(`race${round}.txt`, data);
      const [deleted, again] = await Promise.all([del([first.data.file.id]), upload(`race${round}.txt`, data)]);
      expect(deleted.code).toBe(1);
      expect(again.code).toBe(1);
      const { rows } = await t.database.db.query<{ url: string }>("select url from attachment where name = $1", [`race${round}.txt`]);
      for (const row of rows) expect(existsSync(fileOf(row.url)), `round ${round}: ${row.url}`).toBe(true);
    }
  });

  it("refuses deletes without the rule and has no add or edit route", async () => {
    const up = await upload("kept.txt", text());
    const plain = await createAdmin(t.database.db, { isSuper: false });
    expect((await del([up.data.file.id], plain.headers)).code).toBe(401);
    expect(existsSync(fileOf(up.data.file.url))).toBe(true);
    const add = await t.app.inject({ method: "POST", url: "/admin/routine/attachment/add", payload: {}, headers: admin.headers });
    expect(add.statusCode).toBe(404);
  });
});

describe("config", () => {
  it("answers the settings by key, the mail password only as set or not", async () => {
    expect((await post("/admin/routine/config/edit", { mail_host: "smtp.example.com", mail_user: "u@example.com", mail_password: "s3cret-pw" })).code).toBe(1);
    const res = await t.app.inject({ method: "GET", url: "/admin/routine/config/index", headers: admin.headers });
    expect(res.body).not.toContain("s3cret-pw");
    const view = res.json<{ data: { config: Record<string, unknown> } }>().data.config;
    expect(view).toMatchObject({ site_name: "ExamHub", mail_host: "smtp.example.com", mail_password_set: true, upload_maxsize: "10mb" });
    expect(view).not.toHaveProperty("mail_password");
    // An empty password keeps the stored one.
    expect((await post("/admin/routine/config/edit", { mail_password: "" })).code).toBe(1);
    expect((await get("/admin/routine/config/index")).data.config.mail_password_set).toBe(true);
    const log = await t.database.db.query<{ data: string }>("select data::text from admin_log where url = '/admin/routine/config/edit'");
    expect(log.rows.length).toBeGreaterThan(0);
    for (const row of log.rows) expect(row.data).not.toContain("s3cret-pw");
    await post("/admin/routine/config/edit", { mail_host: "" });
  });

  it("refuses bad values with the field's message and changes nothing", async () => {
    const before = await get("/admin/routine/config/index");
    for (const body of [{ upload_maxsize: "5tb" }, { mail_port: 70000 }, { site_name: "" }, { upload_mimetype: "jpg;rm -rf" }, { unknown_key: 1 }, {}]) {
      const res = await post("/admin/routine/config/edit", body);
      expect(res.code, JSON.stringify(body)).toBe(0);
    }
    expect((await post("/admin/routine/config/edit", { upload_maxsize: "5tb" })).msg).toBe("Please enter a size from 1kb to 1gb, such as 10mb");
    expect((await get("/admin/routine/config/index")).data.config).toEqual(before.data.config);
  });

  it("applies a changed upload size to the next upload, and the site name to the site config, without a restart", async () => {
    const big = text(1500); // 3000 bytes
    expect((await post("/admin/routine/config/edit", { upload_maxsize: "2kb", site_name: "Exam Centre" })).code).toBe(1);
    const refused = await upload("big.txt", big);
    expect(refused).toMatchObject({ code: 0, msg: "The size of the uploaded file exceeds the allowed range!" });
    const res = await t.app.inject({ method: "GET", url: "/api/index/index", headers: { "think-lang": "en" } });
    expect(res.json().data.siteConfig).toMatchObject({ siteName: "Exam Centre", upload: { maxsize: 2048 } });
    // No HTTP cache may keep the old name.
    expect(res.headers["cache-control"]).toBe("no-store");
    expect((await post("/admin/routine/config/edit", { upload_maxsize: "10mb", site_name: "ExamHub" })).code).toBe(1);
    expect((await upload("big.txt", big)).code).toBe(1);
  });

  it("applies a changed type list and the login captcha switch at once", async () => {
    expect((await post("/admin/routine/config/edit", { upload_mimetype: "pdf", admin_login_captcha: true })).code).toBe(1);
    expect((await upload("plain.txt", text())).msg).toBe("The type of uploaded file is not allowed!");
    expect((await get("/admin/index/login", {})).data.captcha).toBe(true);
    expect((await post("/admin/routine/config/edit", { upload_mimetype: "txt,jpg", admin_login_captcha: false })).code).toBe(1);
    expect((await upload("plain.txt", text())).code).toBe(1);
  });

  it("edits the member upload rate and quota (whole numbers within bounds) and applies them to the next upload", async () => {
    const view = (await get("/admin/routine/config/index")).data.config;
    expect(view).toMatchObject({ upload_rate_per_minute: 10, upload_quota_mib: 100 });
    for (const body of [{ upload_rate_per_minute: 0 }, { upload_rate_per_minute: 2.5 }, { upload_rate_per_minute: 1001 }, { upload_quota_mib: "5" }, { upload_quota_mib: 0 }, { upload_quota_mib: 1024 * 1024 + 1 }]) {
      expect((await post("/admin/routine/config/edit", body)).code, JSON.stringify(body)).toBe(0);
    }
    expect((await post("/admin/routine/config/edit", { upload_rate_per_minute: 2.5 })).msg).toBe("Please enter a whole number of uploads from 1 to 1000");
    expect((await post("/admin/routine/config/edit", { upload_quota_mib: 0 })).msg).toBe("Please enter a whole number of MiB from 1 to 1048576");
    expect((await get("/admin/routine/config/index")).data.config).toMatchObject({ upload_rate_per_minute: 10, upload_quota_mib: 100 });

    const member = await createMember(t.database.db);
    const headers = { "ba-user-token": member.token, "think-lang": "en" };
    expect((await post("/admin/routine/config/edit", { upload_rate_per_minute: 2, upload_quota_mib: 1 })).code).toBe(1);
    expect((await get("/admin/routine/config/index")).data.config).toMatchObject({ upload_rate_per_minute: 2, upload_quota_mib: 1 });
    expect((await memberUpload(headers, text(100))).code).toBe(1);
    expect((await memberUpload(headers, text(100))).code).toBe(1);
    expect(await memberUpload(headers, text(100))).toMatchObject({ code: 0, msg: "You can upload at most 2 files a minute: please wait a moment and try again" });
    // A larger rate applies at once; the 1 MiB quota then refuses a file that does not fit.
    expect((await post("/admin/routine/config/edit", { upload_rate_per_minute: 100 })).code).toBe(1);
    expect((await memberUpload(headers, text(300_000))).code).toBe(1);
    expect((await memberUpload(headers, text(300_000))).msg).toMatch(/^Not enough upload space: this file needs 585\.9 KB and .* of your 1 MB is left$/);
    expect((await post("/admin/routine/config/edit", { upload_quota_mib: 10 })).code).toBe(1);
    expect((await memberUpload(headers, text(300_000))).code).toBe(1);
    expect((await post("/admin/routine/config/edit", { upload_rate_per_minute: 10, upload_quota_mib: 100 })).code).toBe(1);
  });

  it("shows where files are stored: the local disk, or the S3 bucket the environment set, never its keys", async () => {
    expect((await get("/admin/routine/config/index")).data.storage).toEqual({ kind: "local" });
    const s3 = { bucket: "exam-files", region: "eu-west-1", endpoint: "https://s3.example.com", prefix: "site-a/", forcePathStyle: true, credentials: { accessKeyId: "AKIDKEYID", secretAccessKey: "very-secret-key" } };
    const other = await createTestApp({ config: { s3 } });
    try {
      const boss = await createAdmin(other.database.db);
      const res = await other.app.inject({ method: "GET", url: "/admin/routine/config/index", headers: boss.headers });
      expect(res.json().data.storage).toEqual({ kind: "s3", bucket: "exam-files", region: "eu-west-1", endpoint: "https://s3.example.com", prefix: "site-a/" });
      expect(res.body).not.toContain("very-secret-key");
      expect(res.body).not.toContain("AKIDKEYID");
    } finally {
      await other.close();
    }
  });

  it("sends a test email through the configured sender (the outbox without a mail server)", async () => {
    const res = await post("/admin/routine/config/sendTestMail", { to: "ops@example.com" });
    expect(res).toMatchObject({ code: 1, msg: "No mail server is set: the test email was not sent but kept in the outbox table (outbox_message)", data: { delivery: "outbox" } });
    const { rows } = await t.database.db.query<{ target: string; subject: string }>("select target, subject from outbox_message where target = 'ops@example.com'");
    expect(rows).toEqual([{ target: "ops@example.com", subject: "Test email from ExamHub" }]);
    expect((await post("/admin/routine/config/sendTestMail", { to: "not an address" })).code).toBe(0);
  });

  it("uses the sender the server was given (the outside edge), and needs the edit rule", async () => {
    const other = await createTestApp({ deps: { sender: recorder } });
    try {
      const boss = await createAdmin(other.database.db);
      const res = await other.app.inject({ method: "POST", url: "/admin/routine/config/sendTestMail", payload: { to: "a@example.com" }, headers: { ...boss.headers, "think-lang": "zh-cn" } });
      expect(res.json()).toMatchObject({ code: 1, msg: "测试邮件已发送", data: { delivery: "sent" } });
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ channel: "email", target: "a@example.com" });
      const plain = await createAdmin(other.database.db, { isSuper: false });
      const refused = await other.app.inject({ method: "POST", url: "/admin/routine/config/sendTestMail", payload: { to: "a@example.com" }, headers: plain.headers });
      expect(refused.json().code).toBe(401);
      expect(sent).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe("clearCache", () => {
  it("clears by type, refuses unknown types, and needs the config edit rule", async () => {
    for (const type of ["all", "tp", "config"]) expect((await post("/admin/ajax/clearCache", { type })).code).toBe(1);
    expect((await post("/admin/ajax/clearCache", { type: "everything" })).code).toBe(0);
    const plain = await createAdmin(t.database.db, { isSuper: false });
    expect((await post("/admin/ajax/clearCache", { type: "all" }, plain.headers)).code).toBe(401);
    const member = await createMember(t.database.db);
    expect((await post("/admin/ajax/clearCache", { type: "all" }, { "ba-user-token": member.token })).code).toBe(303);
  });
});
