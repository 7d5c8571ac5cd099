import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { setSetting } from "../../src/server/settings.ts";
import { ApiCode } from "../../src/shared/constants.ts";
import { AVATAR_MAX_BYTES } from "../../src/shared/avatar.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers, type Caller } from "../helpers/call.ts";
import { createCompany, createMember } from "../helpers/factories.ts";

/**
 * An admin's own account (`/admin/account/...`): any admin may keep their profile and password
 * up, but only their own, and only the fields a person keeps up themself. Avatars (topic
 * `avatar`, both upload routes) are images only, of a small size.
 */

let t: TestApp;
let dataDir: string;
const { adminCall } = callers(() => t.app);

const OLD_PASSWORD = "limited-old-1";

interface Profile {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  email: string | null;
  mobile: string | null;
  motto: string;
}

async function admin(username: string, options: { isSuper?: boolean; companyId?: number } = {}): Promise<{ id: number; headers: Record<string, string> }> {
  const db = t.database.db;
  const { rows } = await db.query<{ id: number }>(
    "insert into admin (username, nickname, password_hash, is_super, is_company, company_id) values ($1, $1, $2, $3, $4, $5) returning id",
    [username, await hashPassword(OLD_PASSWORD), options.isSuper ?? false, options.companyId !== undefined, options.companyId ?? null],
  );
  const id = rows[0]!.id;
  return { id, headers: { batoken: await issueToken(db, "admin", id, 3600) } };
}

/** An admin whose only group grants the dashboard. */
async function limitedAdmin(username: string, companyId?: number) {
  const db = t.database.db;
  const made = await admin(username, { companyId });
  const rule = await db.query<{ id: number }>("select id from admin_rule where name = 'dashboard'");
  const group = await db.query<{ id: number }>("insert into admin_group (name, rules) values ($1, $2) returning id", [`${username} group`, String(rule.rows[0]!.id)]);
  await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [made.id, group.rows[0]!.id]);
  return { ...made, groupId: group.rows[0]!.id };
}

const adminRow = async (id: number) =>
  (await t.database.db.query<Profile & { status: string; is_super: boolean; is_company: boolean; company_id: number | null; password_hash: string }>("select * from admin where id = $1", [id])).rows[0]!;

const login = (username: string, password: string) =>
  t.app.inject({ method: "POST", url: "/admin/index/login", headers: { "think-lang": "en" }, payload: { username, password } }).then((r) => r.json<{ code: number; msg: string }>());

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-admin-profile-"));
  t = await createTestApp({ config: { dataDir } });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("an admin's own profile", () => {
  it("is read and saved by a limited admin, for their own row only", async () => {
    const me = await limitedAdmin("prof_me");
    const other = await admin("prof_other", { isSuper: true });
    const read = await adminCall<{ profile: Profile }>(me, "GET", "/admin/account/profile");
    expect(read.code).toBe(1);
    expect(read.data.profile).toMatchObject({ id: me.id, username: "prof_me", nickname: "prof_me", email: null });
    expect(read.data.profile).not.toHaveProperty("password_hash");

    const saved = await adminCall<{ profile: Profile }>(me, "POST", "/admin/account/profile", {
      nickname: "Teacher Wang",
      email: "wang@example.com",
      mobile: "13800138000",
      avatar: "/storage/avatar/20261128/abc.png",
      motto: "Teach well",
    });
    expect(saved.code, saved.msg).toBe(1);
    expect(saved.msg).toBe("Profile saved");
    expect(saved.data.profile).toMatchObject({ id: me.id, nickname: "Teacher Wang", email: "wang@example.com", mobile: "13800138000", motto: "Teach well" });
    const row = await adminRow(me.id);
    expect(row).toMatchObject({ nickname: "Teacher Wang", avatar: "/storage/avatar/20261128/abc.png", motto: "Teach well" });
    expect((await adminRow(other.id)).nickname).toBe("prof_other");
  });

  it("cannot touch another admin, nor change username, groups, status, super or company", async () => {
    const company = await createCompany(t.database.db);
    const me = await limitedAdmin("prof_escalate");
    const other = await admin("prof_victim");
    const before = await adminRow(me.id);
    const res = await adminCall<{ profile: Profile }>(me, "POST", "/admin/account/profile", {
      id: other.id,
      username: "renamed",
      nickname: "Still me",
      status: "disable",
      is_super: true,
      super: true,
      is_company: true,
      company_id: company,
      group_ids: [1],
      password: "new-pass-123",
    });
    expect(res.code, res.msg).toBe(1);
    const after = await adminRow(me.id);
    expect(after).toMatchObject({ username: "prof_escalate", nickname: "Still me", status: "enable", is_super: false, is_company: false, company_id: null });
    expect(after.password_hash).toBe(before.password_hash);
    const groups = await t.database.db.query<{ group_id: number }>("select group_id from admin_group_access where uid = $1", [me.id]);
    expect(groups.rows.map((g) => g.group_id)).toEqual([me.groupId]);
    expect((await adminRow(other.id)).nickname).toBe("prof_victim");
    // Still a limited admin: the admins' screen stays closed.
    expect((await adminCall(me, "GET", "/admin/auth/admin/index")).code).toBe(ApiCode.NO_PERMISSION);
  });

  it("is open to a company admin too", async () => {
    const me = await limitedAdmin("prof_company", await createCompany(t.database.db));
    const res = await adminCall<{ profile: Profile }>(me, "POST", "/admin/account/profile", { nickname: "Branch staff" });
    expect(res.code, res.msg).toBe(1);
    expect((await adminRow(me.id)).nickname).toBe("Branch staff");
  });

  it("answers bad input with code 0 and the field's message, never a 500", async () => {
    const me = await limitedAdmin("prof_bad");
    const cases: [object, string, string][] = [
      [{ email: "not-an-email" }, "email", "Please enter the correct email address"],
      [{ mobile: "12345" }, "mobile", "Please enter the correct mobile number"],
      [{ nickname: "x".repeat(51) }, "nickname", "The nickname is at most 50 characters"],
      [{ avatar: "javascript:alert(1)" }, "avatar", "Please upload an image for the avatar"],
      [{ motto: "y".repeat(256) }, "motto", "The signature is at most 255 characters"],
    ];
    for (const [body, field, message] of cases) {
      const res = await adminCall<{ fields: Record<string, string> }>(me, "POST", "/admin/account/profile", body, { refuse5xx: true });
      expect(res.code, field).toBe(0);
      expect(res.data.fields[field]).toBe(message);
    }
    for (const body of [[1, 2], { nickname: 12 }, { email: { $ne: 1 } }]) {
      const res = await adminCall(me, "POST", "/admin/account/profile", body, { refuse5xx: true });
      expect(res.code).toBe(0);
    }
    expect((await adminRow(me.id)).nickname).toBe("prof_bad");
  });

  it("needs a logged-in admin: no token, or a member's, is refused", async () => {
    const nobody: Caller = { headers: {} };
    expect((await adminCall(nobody, "GET", "/admin/account/profile")).code).toBe(ApiCode.LOGIN);
    const member = await createMember(t.database.db);
    expect((await adminCall({ headers: { batoken: member.token } }, "POST", "/admin/account/profile", { nickname: "x" })).code).toBe(ApiCode.LOGIN);
    expect((await adminCall(member, "POST", "/admin/account/changePassword", { oldPassword: "a", newPassword: "b" })).code).toBe(ApiCode.LOGIN);
  });

  it("is written to the admin log", async () => {
    const me = await limitedAdmin("prof_logged");
    await adminCall(me, "POST", "/admin/account/profile", { nickname: "Logged" });
    const { rows } = await t.database.db.query<{ title: string; url: string }>("select title, url from admin_log where admin_id = $1", [me.id]);
    expect(rows).toEqual([{ title: "Own profile / edit", url: "/admin/account/profile" }]);
  });
});

describe("an admin's own password", () => {
  it("refuses a wrong old password with the member side's message, and keeps the password", async () => {
    const me = await limitedAdmin("pw_wrong");
    const res = await adminCall(me, "POST", "/admin/account/changePassword", { oldPassword: "not-it-123", newPassword: "brand-new-1" }, { refuse5xx: true });
    expect(res).toMatchObject({ code: 0, msg: "The old password is wrong" });
    expect((await login("pw_wrong", OLD_PASSWORD)).code).toBe(1);
    expect((await login("pw_wrong", "brand-new-1")).code).toBe(0);
  });

  it("refuses a new password that breaks the SPEC rule, and bad bodies, with code 0", async () => {
    const me = await limitedAdmin("pw_rule");
    for (const newPassword of ["short", "has<angle>1", "x".repeat(33)]) {
      const res = await adminCall(me, "POST", "/admin/account/changePassword", { oldPassword: OLD_PASSWORD, newPassword }, { refuse5xx: true });
      expect(res).toMatchObject({ code: 0, msg: `A password is 6 to 32 characters, without & < > " or '` });
    }
    for (const body of [{}, { oldPassword: 1, newPassword: 2 }, ["x"]]) {
      expect((await adminCall(me, "POST", "/admin/account/changePassword", body, { refuse5xx: true })).code).toBe(0);
    }
    expect((await login("pw_rule", OLD_PASSWORD)).code).toBe(1);
  });

  it("changes it, ends the admin's sessions, and logs it without the passwords", async () => {
    const me = await limitedAdmin("pw_change");
    const other = await limitedAdmin("pw_bystander");
    const res = await adminCall(me, "POST", "/admin/account/changePassword", { oldPassword: OLD_PASSWORD, newPassword: "brand-new-1" });
    expect(res).toMatchObject({ code: 1, msg: "Password changed, please log in again" });
    // Every session of this admin ended; another admin's goes on.
    expect((await adminCall(me, "GET", "/admin/account/profile")).code).toBe(ApiCode.LOGIN);
    expect((await adminCall(other, "GET", "/admin/account/profile")).code).toBe(1);
    expect((await login("pw_change", OLD_PASSWORD)).code).toBe(0);
    expect((await login("pw_change", "brand-new-1")).code).toBe(1);
    const { rows } = await t.database.db.query<{ title: string; data: string }>("select title, data from admin_log where admin_id = $1 and title like 'Own%'", [me.id]);
    expect(rows.map((r) => r.title)).toEqual(["Own password / edit"]);
    expect(rows[0]!.data).not.toContain("brand-new-1");
    expect(rows[0]!.data).not.toContain(OLD_PASSWORD);
  });
});

/** A real PNG (random pixels, so each call is new content). */
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
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows, { level: 0 })), chunk("IEND", Buffer.alloc(0))]);
}

function multipart(topic: string, filename: string, type: string, data: Buffer) {
  const boundary = `----avatar${randomBytes(8).toString("hex")}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="topic"\r\n\r\n${topic}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe("avatar uploads", () => {
  let adminHeaders: Record<string, string>;
  let memberHeaders: Record<string, string>;
  beforeAll(async () => {
    adminHeaders = (await limitedAdmin("avatar_admin")).headers;
    memberHeaders = (await createMember(t.database.db)).headers;
    await setSetting(t.database.db, "upload_rate_per_minute", 100_000);
  });

  const upload = async (area: "admin" | "api", topic: string, filename: string, type: string, data: Buffer) => {
    const { payload, contentType } = multipart(topic, filename, type, data);
    const res = await t.app.inject({
      method: "POST",
      url: `/${area}/ajax/upload`,
      headers: { ...(area === "admin" ? adminHeaders : memberHeaders), "think-lang": "en", "content-type": contentType },
      payload,
    });
    expect(res.statusCode).toBeLessThan(500);
    return res.json<{ code: number; msg: string; data: { file?: { url: string; mimetype: string } } | null }>();
  };

  const TYPE = "The type of uploaded file is not allowed!";
  const SIZE = "The size of the uploaded file exceeds the allowed range!";

  for (const area of ["admin", "api"] as const) {
    it(`takes an image and refuses anything else (${area})`, async () => {
      const ok = await upload(area, "avatar", "me.png", "image/png", png(8, 8));
      expect(ok.code, ok.msg).toBe(1);
      expect(ok.data?.file).toMatchObject({ mimetype: "image/png", url: expect.stringMatching(/^\/storage\/avatar\/\d{8}\/[0-9a-f]{40}\.png$/) });

      const text = Buffer.from("just some words\n");
      // The site's rules let a text file through on another topic: the avatar rule is what refuses it.
      expect((await upload(area, "default", "notes.txt", "text/plain", text)).code).toBe(1);
      expect(await upload(area, "avatar", "notes.txt", "text/plain", text)).toMatchObject({ code: 0, msg: TYPE });
      // A name that says image over bytes that are not one.
      expect(await upload(area, "avatar", "fake.png", "image/png", text)).toMatchObject({ code: 0, msg: TYPE });
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      expect(await upload(area, "avatar", "me.svg", "image/svg+xml", svg)).toMatchObject({ code: 0, msg: TYPE });
    });
  }

  it("refuses an avatar above the avatar size limit that another topic would take", async () => {
    const big = png(1200, 600);
    expect(big.length).toBeGreaterThan(AVATAR_MAX_BYTES);
    expect(await upload("admin", "avatar", "big.png", "image/png", big)).toMatchObject({ code: 0, msg: SIZE });
    expect((await upload("admin", "default", "big.png", "image/png", big)).code).toBe(1);
  });
});
