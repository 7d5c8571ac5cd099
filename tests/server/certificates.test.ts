import { randomUUID } from "node:crypto";
import jsQR from "jsqr";
import { inflateSync } from "node:zlib";
import { PDFDict, PDFDocument, PDFName, type PDFRawStream } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListAnswer } from "../../src/shared/admin/crud.ts";
import type { MemberCertificate } from "../../src/shared/certificate.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import type { Transcript } from "../../src/shared/reports.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createCompany, createCourse, createMember, createPaper, createQuestion, createRoom, type TestAdmin, type TestMember } from "../helpers/factories.ts";

/**
 * Certificates (modules/certificate): issued once when an official attempt passes (and not when
 * it fails, nor without an enabled template) or a course is completed, a snapshot that later edits
 * never change; a PDF with the member's name in the embedded CJK font and a QR code of the public
 * verification page; revoked by staff (in the admin log) or by a regrade to "failed"; the public
 * page answers only four facts, an unknown or hostile serial code 0.
 */

let t: TestApp;
let root: TestAdmin;
const { adminCall, memberCall } = callers(() => t.app);

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

const one = async <T>(sql: string, params: unknown[]) => (await t.database.db.query<T>(sql, params)).rows[0];

/** A room of two questions (5 points each, keys A and T), pass mark 10: both right passes. */
async function room(options: { template?: boolean; title?: string } = {}) {
  const db = t.database.db;
  const bank = await createBank(db, { kind: "exam" });
  const q1 = await createQuestion(db, bank, { answer: "A", score: 5 });
  const q2 = await createQuestion(db, bank, { type: "judge", answer: "T", score: 5 });
  const paper = await createPaper(db, { rows: [{ fixed: q1, score: 5 }, { fixed: q2, score: 5 }], totalScore: 10, passScore: 10 });
  const roomId = await createRoom(db, paper, { passScore: 10, attemptsAllowed: 3, ...(options.title ? { title: options.title } : {}) });
  let templateId = 0;
  if (options.template !== false) {
    const added = await adminCall<{ id: number }>(root, "POST", "/admin/exam/certificateTemplate/add", {
      room_id: roomId,
      title: "安全证书 Safety",
      wording: "{name} passed {title} on {date} with {score}",
      text_color: "#112233",
      accent_color: "#AA3300",
      status: "enable",
    });
    expect(added.code, added.msg).toBe(1);
    templateId = (await one<{ id: number }>("select id from certificate_template where room_id = $1", [roomId]))!.id;
  }
  return { roomId, q1, q2, templateId };
}

async function sit(m: TestMember, roomId: number, answers: Record<number, unknown>) {
  const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId });
  expect(start.code, start.msg).toBe(1);
  const submit = await memberCall(m, "POST", "/api/exam/official/submit", { uuid: start.data.attempt.uuid, answers });
  expect(submit.code, submit.msg).toBe(1);
  return (await one<{ id: number }>("select id from exam_attempt where uuid = $1", [start.data.attempt.uuid]))!.id;
}

const certificatesOf = async (m: TestMember) => (await memberCall<{ list: MemberCertificate[] }>(m, "GET", "/api/certificate/list")).data.list;
const verify = (serial: string) => t.app.inject({ method: "GET", url: `/api/certificate/verify/${serial}`, headers: { "think-lang": "en" } });
const download = (m: TestMember, serial: string) => t.app.inject({ method: "GET", url: `/api/certificate/download?serial=${encodeURIComponent(serial)}`, headers: m.headers });

/** The text of the QR code among the first page's images (pdf-lib stores an embedded PNG's pixels as deflated RGB). */
async function qrTextOf(bytes: Buffer): Promise<string | null> {
  const doc = await PDFDocument.load(bytes);
  const xobjects = doc.getPage(0).node.Resources()!.lookup(PDFName.of("XObject"), PDFDict);
  for (const key of xobjects.keys()) {
    const stream = xobjects.lookup(key) as PDFRawStream;
    const dict = stream.dict;
    if (dict.get(PDFName.of("Subtype"))?.toString() !== "/Image" || dict.get(PDFName.of("ColorSpace"))?.toString() !== "/DeviceRGB") continue;
    const width = Number(dict.get(PDFName.of("Width"))!.toString());
    const height = Number(dict.get(PDFName.of("Height"))!.toString());
    const rgb = inflateSync(Buffer.from(stream.getContents()));
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) rgba.set([rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!, 255], i * 4);
    const code = jsQR(rgba, width, height);
    if (code) return code.data;
  }
  return null;
}

describe("issuing", () => {
  it("issues exactly once on a pass, never on a fail, and only with an enabled template", async () => {
    const r = await room();
    const passer = await createMember(t.database.db);
    const failer = await createMember(t.database.db);
    await sit(failer, r.roomId, { [r.q1]: "B", [r.q2]: "T" });
    expect(await certificatesOf(failer)).toEqual([]);
    await sit(passer, r.roomId, { [r.q1]: "A", [r.q2]: "T" });
    await sit(passer, r.roomId, { [r.q1]: "A", [r.q2]: "T" });
    const list = await certificatesOf(passer);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ title: "安全证书 Safety", kind: "room", score: 10, revoked: false });
    expect(list[0]!.serial).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{16}$/);

    // A disabled template issues nothing.
    const off = await room();
    await t.database.db.query("update certificate_template set status = 'disable' where id = $1", [off.templateId]);
    const other = await createMember(t.database.db);
    await sit(other, off.roomId, { [off.q1]: "A", [off.q2]: "T" });
    expect(await certificatesOf(other)).toEqual([]);
  });

  it("keeps what it said when issued: later edits of the template and the member change nothing", async () => {
    const r = await room({ title: "Fire drill" });
    const m = await createMember(t.database.db);
    await t.database.db.query("update member set nickname = 'Ann Lee' where id = $1", [m.id]);
    await sit(m, r.roomId, { [r.q1]: "A", [r.q2]: "T" });
    const [cert] = await certificatesOf(m);
    const before = await one<Record<string, unknown>>("select title, member_name, wording, text_color, accent_color from certificate where serial = $1", [cert!.serial]);
    const today = new Date().toLocaleDateString("en-CA");
    expect(before).toEqual({ title: "安全证书 Safety", member_name: "Ann Lee", wording: `Ann Lee passed Fire drill on ${today} with 10`, text_color: "#112233", accent_color: "#aa3300" });

    const edited = await adminCall(root, "POST", "/admin/exam/certificateTemplate/edit", {
      id: r.templateId, room_id: r.roomId, title: "Changed", wording: "other", text_color: "#000000", accent_color: "#ffffff", status: "enable",
    });
    expect(edited.code, edited.msg).toBe(1);
    await t.database.db.query("update member set nickname = 'Someone Else' where id = $1", [m.id]);
    expect(await one("select title, member_name, wording, text_color, accent_color from certificate where serial = $1", [cert!.serial])).toEqual(before);
    expect((await verify(cert!.serial)).json().data).toMatchObject({ name: "Ann Lee", title: "安全证书 Safety", valid: true });
  });

  it("issues on course completion: every enabled lesson completed by the enrolled member", async () => {
    const db = t.database.db;
    const course = await createCourse(db, { title: "Forklift basics", lessons: [{ duration: 100 }, { duration: 100 }] });
    const added = await adminCall(root, "POST", "/admin/exam/certificateTemplate/add", { course_id: course.id, title: "Course done", wording: "{name} completed {title}{score}", text_color: "#111111", accent_color: "#222222" });
    expect(added.code, added.msg).toBe(1);
    const m = await createMember(db);
    expect((await memberCall(m, "POST", "/api/course/enrol", { courseId: course.id })).code).toBe(1);
    const op = (lessonId: number) => ({ id: randomUUID(), type: "lesson.progress", at: Date.now(), payload: { lessonId, position: 100, completed: true } });
    await memberCall(m, "POST", "/api/exam/sync", { ops: [op(course.lessonIds[0]!)] });
    expect(await certificatesOf(m)).toEqual([]);
    await memberCall(m, "POST", "/api/exam/sync", { ops: [op(course.lessonIds[1]!), op(course.lessonIds[1]!)] });
    const list = await certificatesOf(m);
    expect(list).toMatchObject([{ title: "Course done", kind: "course", score: null, revoked: false }]);
    expect((await one<{ wording: string }>("select wording from certificate where serial = $1", [list[0]!.serial]))!.wording).toMatch(/ completed Forklift basics$/);
  });

  it("a regrade to failed revokes it (nothing deleted) and a regrade back restores it", async () => {
    const db = t.database.db;
    const r = await room();
    const m = await createMember(db);
    await sit(m, r.roomId, { [r.q1]: "A", [r.q2]: "T" });
    const [cert] = await certificatesOf(m);
    await db.query(`update exam_question set answer = '"B"' where id = $1`, [r.q1]);
    expect((await adminCall(root, "POST", "/admin/exam/room/regrade", { id: r.roomId, questionIds: [r.q1] })).code).toBe(1);
    expect((await verify(cert!.serial)).json().data).toMatchObject({ valid: false });
    expect(await certificatesOf(m)).toMatchObject([{ serial: cert!.serial, revoked: true }]);
    await db.query(`update exam_question set answer = '"A"' where id = $1`, [r.q1]);
    expect((await adminCall(root, "POST", "/admin/exam/room/regrade", { id: r.roomId, questionIds: [r.q1] })).code).toBe(1);
    expect((await verify(cert!.serial)).json().data).toMatchObject({ valid: true, revokedOn: null });
  });
});

describe("the PDF and the verification page", () => {
  it("downloads a one-page PDF with the embedded font whose QR code opens /verify/<serial>; only its member may", async () => {
    const r = await room();
    const m = await createMember(t.database.db);
    await t.database.db.query("update member set nickname = '张三' where id = $1", [m.id]);
    await sit(m, r.roomId, { [r.q1]: "A", [r.q2]: "T" });
    const [cert] = await certificatesOf(m);
    const res = await download(m, cert!.serial);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe("安全证书 Safety");
    // The font is embedded (a subset of Noto Sans SC), not referenced.
    const fonts = doc.context.enumerateIndirectObjects().filter(([, o]) => o instanceof PDFDict && o.get(PDFName.of("Type"))?.toString() === "/FontDescriptor");
    expect(fonts.length).toBeGreaterThan(0);
    for (const [, d] of fonts) {
      expect((d as PDFDict).get(PDFName.of("FontName"))!.toString()).toMatch(/NotoSansSC/);
      expect((d as PDFDict).get(PDFName.of("FontFile2")) ?? (d as PDFDict).get(PDFName.of("FontFile3"))).toBeDefined();
    }
    expect(await qrTextOf(res.rawPayload)).toBe(`http://localhost:80/verify/${cert!.serial}`);

    // Another member cannot fetch it (answered as an unknown certificate); nor can nobody.
    const stranger = await createMember(t.database.db);
    const refused = await download(stranger, cert!.serial);
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ code: 0, msg: "No certificate has this number" });
    expect((await t.app.inject({ method: "GET", url: `/api/certificate/download?serial=${cert!.serial}` })).json().code).toBe(303);
  });

  it("the public page answers four facts; after staff revoke (reason required, in the admin log) it says revoked", async () => {
    const r = await room();
    const m = await createMember(t.database.db);
    await sit(m, r.roomId, { [r.q1]: "A", [r.q2]: "T" });
    const [cert] = await certificatesOf(m);
    const valid = (await verify(cert!.serial)).json();
    expect(valid.code).toBe(1);
    expect(Object.keys(valid.data).sort()).toEqual(["date", "name", "revokedOn", "title", "valid"]);
    expect(valid.data).toMatchObject({ name: m.username, title: "安全证书 Safety", valid: true, revokedOn: null });
    // Case and spaces are forgiven (a serial typed by hand).
    expect((await verify(` ${cert!.serial.toLowerCase()} `.replace(/ /g, "%20"))).json().code).toBe(1);

    const list = await adminCall<ListAnswer<{ id: number; serial: string; state: string }>>(root, "GET", `/admin/exam/certificate/index?quickSearch=${cert!.serial}`);
    expect(list.data.list).toMatchObject([{ serial: cert!.serial, state: "valid" }]);
    const id = list.data.list[0]!.id;
    expect((await adminCall(root, "POST", "/admin/exam/certificate/revoke", { id, reason: " " })).code).toBe(0);
    const revoked = await adminCall(root, "POST", "/admin/exam/certificate/revoke", { id, reason: "Cheating found" });
    expect(revoked.code, revoked.msg).toBe(1);
    expect(await one("select url, admin_id from admin_log order by id desc limit 1", [])).toEqual({ url: "/admin/exam/certificate/revoke", admin_id: root.id });
    expect((await adminCall(root, "POST", "/admin/exam/certificate/revoke", { id, reason: "again" })).code).toBe(0);
    const after = (await verify(cert!.serial)).json();
    expect(after.data).toMatchObject({ valid: false, name: m.username });
    // The member's transcript (theirs and staff's view of it) lists it, marked revoked.
    const transcript = await memberCall<Transcript>(m, "GET", "/api/user/transcript");
    expect(transcript.data.certificates).toEqual([{ serial: cert!.serial, title: "安全证书 Safety", kind: "room", issuedAt: cert!.issuedAt, score: 10, revoked: true }]);
    expect((await adminCall<Transcript>(root, "GET", `/admin/user/user/transcript?id=${m.id}`)).data.certificates).toEqual(transcript.data.certificates);
    expect(after.data.revokedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await download(m, cert!.serial)).json()).toMatchObject({ code: 0 });
    // Staff still download it.
    const staff = await t.app.inject({ method: "GET", url: `/admin/exam/certificate/download?id=${id}`, headers: root.headers });
    expect(staff.headers["content-type"]).toBe("application/pdf");
  });

  it.each(["", "x", "0OIL0OIL0OIL0OIL", "'; drop table certificate; --", "%00", "A".repeat(500), "..%2F..%2Fetc", "ABCDEFGHJKLMNPQR", "%E4%B8%AD%E6%96%87"])(
    "answers code 0 to the serial %j, never 500",
    async (serial) => {
      const res = await verify(serial);
      expect(res.statusCode).toBeLessThan(500);
      if (res.statusCode === 200) expect(res.json()).toMatchObject({ code: 0 });
    },
  );

  it("company admins see only their company's certificates; the preview renders the form's values", async () => {
    const db = t.database.db;
    const company = await createCompany(db, { name: "Cert Co" });
    const companyAdmin = await createAdmin(db, { companyId: company });
    const group = (await db.query<{ id: number }>("insert into admin_group (name, rules) values ('all', '*') returning id")).rows[0]!.id;
    await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [companyAdmin.id, group]);
    const r = await room();
    const inside = await createMember(db, { companyId: company });
    const outside = await createMember(db);
    await sit(inside, r.roomId, { [r.q1]: "A", [r.q2]: "T" });
    await sit(outside, r.roomId, { [r.q1]: "A", [r.q2]: "T" });
    const seen = await adminCall<ListAnswer<{ username: string }>>(companyAdmin, "GET", "/admin/exam/certificate/index?limit=100");
    expect(seen.code, seen.msg).toBe(1);
    expect(seen.data.list.map((row) => row.username)).toEqual([inside.username]);
    const theirs = (await one<{ id: number }>("select id from certificate where user_id = $1", [outside.id]))!.id;
    expect((await adminCall(companyAdmin, "POST", "/admin/exam/certificate/revoke", { id: theirs, reason: "no" })).code).toBe(0);
    expect((await one<{ revoked_at: number | null }>("select revoked_at from certificate where id = $1", [theirs]))!.revoked_at).toBeNull();

    const preview = await t.app.inject({
      method: "GET",
      url: `/admin/exam/certificateTemplate/preview?title=${encodeURIComponent("预览 Preview")}&wording=${encodeURIComponent("{name} {title}")}&text_color=%23000000&accent_color=%23123456`,
      headers: root.headers,
    });
    expect(preview.headers["content-type"]).toBe("application/pdf");
    expect((await PDFDocument.load(preview.rawPayload)).getTitle()).toBe("预览 Preview");
    const bad = await adminCall(root, "GET", "/admin/exam/certificateTemplate/preview?title=x&text_color=red&accent_color=%23123456");
    expect(bad.code).toBe(0);
  });

  it("refuses a template for no room, for both, for a missing room, and a second one for a room", async () => {
    const r = await room();
    const base = { title: "T", wording: "", text_color: "#000000", accent_color: "#000000" };
    expect((await adminCall(root, "POST", "/admin/exam/certificateTemplate/add", base)).code).toBe(0);
    const course = await createCourse(t.database.db);
    expect((await adminCall(root, "POST", "/admin/exam/certificateTemplate/add", { ...base, room_id: r.roomId, course_id: course.id })).code).toBe(0);
    expect((await adminCall(root, "POST", "/admin/exam/certificateTemplate/add", { ...base, room_id: 999_999 })).msg).toBe("This exam room does not exist");
    expect((await adminCall(root, "POST", "/admin/exam/certificateTemplate/add", { ...base, room_id: r.roomId })).msg).toBe("This exam room already has a certificate template");
    expect((await adminCall(root, "POST", "/admin/exam/certificateTemplate/add", { ...base, room_id: r.roomId, text_color: "#12345g" })).code).toBe(0);
  });
});
