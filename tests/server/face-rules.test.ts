import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { warmFaceEngine } from "../../src/server/modules/face/engine.ts";
import type { EditAnswer, ListAnswer } from "../../src/shared/admin/crud.ts";
import type { FaceCheckResult, FaceTimeline } from "../../src/shared/exam/face.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createFaceRule, createMember, createOfficialExam, type FaceRuleSpec, type TestAdmin, type TestMember } from "../helpers/factories.ts";
import { faceDataUrl, type FacePicture } from "../helpers/faces.ts";

/**
 * Face rules end to end through the real routes: the rule and the room's select in the
 * back office, enrolment, the gate before the questions, snapshots judged by the server, the
 * rule's action after M failures (stop or flag), the review timeline and the snapshot pictures.
 */

let t: TestApp;
let root: TestAdmin;
let dataDir: string;
const pictures = {} as Record<FacePicture, string>;

const { adminCall, memberCall } = callers(() => t.app);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "face-"));
  t = await createTestApp({ config: { dataDir } });
  root = await createAdmin(t.database.db);
  await warmFaceEngine();
  for (const p of ["a", "aAgain", "b", "two", "none"] as const) pictures[p] = await faceDataUrl(p);
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A member with a reference photo ("a") and a room under a new rule. */
async function setUp(rule: FaceRuleSpec) {
  const db = t.database.db;
  const ruleId = await createFaceRule(db, rule);
  const { roomId } = await createOfficialExam(db, { singles: 4, judges: 4, draw: 2, room: { faceRuleId: ruleId } });
  const m = await createMember(db);
  const enrolled = await memberCall(m, "POST", "/api/user/face", { image: pictures.a });
  expect(enrolled.code, enrolled.msg).toBe(1);
  return { ruleId, roomId, m };
}

const snapshot = (m: TestMember, uuid: string, picture: FacePicture | null, extra: object = {}) =>
  memberCall<FaceCheckResult>(m, "POST", "/api/exam/official/face", { uuid, checkId: randomUUID(), kind: "start", takenAt: Date.now(), ...(picture ? { image: pictures[picture] } : {}), ...extra });

describe("face rules in the back office", () => {
  it("adds a rule, refuses one that checks nothing, and sets it on a room", async () => {
    const none = await adminCall(root, "POST", "/admin/org/faceRule/add", { name: "Nothing", before_start: false, every_minutes: 0, random_count: 0, threshold: 0.6 });
    expect(none.code).toBe(0);
    const added = await adminCall<{ id: number }>(root, "POST", "/admin/org/faceRule/add", { name: "Strict", before_start: true, every_minutes: 10, random_count: 2, threshold: 0.65, liveness: true, max_failures: 2, action: "stop" });
    expect(added.code, added.msg).toBe(1);
    const list = await adminCall<ListAnswer<unknown>>(root, "GET", `/admin/org/faceRule/index?quickSearch=Strict`);
    expect(list.data.list[0]).toMatchObject({ name: "Strict", threshold: 0.65, action: "stop", rooms: 0 });

    const { roomId } = await createOfficialExam(t.database.db, { singles: 2, judges: 2, draw: 1 });
    const room = (await adminCall<EditAnswer<object>>(root, "GET", `/admin/exam/room/edit?id=${roomId}`)).data.row;
    const edited = await adminCall(root, "POST", "/admin/exam/room/edit", { ...room, face_rule_id: added.data.id });
    expect(edited.code, edited.msg).toBe(1);
    const missing = await adminCall<{ fields: Record<string, string> }>(root, "POST", "/admin/exam/room/edit", { ...room, face_rule_id: 999_999 });
    expect(missing.code).toBe(0);
    expect(missing.data.fields.face_rule_id).toBeTruthy();
    const rules = await adminCall<ListAnswer<{ rooms: number }>>(root, "GET", `/admin/org/faceRule/index?quickSearch=Strict`);
    expect(rules.data.list[0]!.rooms).toBe(1);
  });
});

describe("enrolment", () => {
  it("keeps one face and refuses none or two, by the member and by staff", async () => {
    const m = await createMember(t.database.db);
    expect((await memberCall<{ enrolled: boolean }>(m, "GET", "/api/user/face")).data.enrolled).toBe(false);
    const none = await memberCall(m, "POST", "/api/user/face", { image: pictures.none });
    expect(none.code).toBe(0);
    expect(none.msg).toMatch(/No face/);
    const two = await memberCall(m, "POST", "/api/user/face", { image: pictures.two });
    expect(two.msg).toMatch(/More than one face/);
    const bad = await memberCall(m, "POST", "/api/user/face", { image: Buffer.from("hello").toString("base64") });
    expect(bad.msg).toMatch(/could not be read/);
    expect((await memberCall<{ enrolled: boolean }>(m, "GET", "/api/user/face")).data.enrolled).toBe(false);

    const byStaff = await adminCall(root, "POST", "/admin/user/user/face", { id: m.id, image: pictures.a });
    expect(byStaff.code, byStaff.msg).toBe(1);
    expect((await memberCall<{ enrolled: boolean }>(m, "GET", "/api/user/face")).data.enrolled).toBe(true);
    const row = (await t.database.db.query<{ enrolled_by: string }>("select enrolled_by from member_face where user_id = $1", [m.id])).rows[0];
    expect(row?.enrolled_by).toBe("admin");
  });
});

describe("an official exam with a face rule", () => {
  it("asks for a reference photo first, then withholds the questions until the server passes a start snapshot", async () => {
    const db = t.database.db;
    const ruleId = await createFaceRule(db, { beforeStart: true });
    const { roomId } = await createOfficialExam(db, { singles: 4, judges: 4, draw: 2, room: { faceRuleId: ruleId } });
    const m = await createMember(db);
    const refused = await memberCall<{ faceEnrol: boolean }>(m, "POST", "/api/exam/official/start", { roomId });
    expect(refused.code).toBe(0);
    expect(refused.data.faceEnrol).toBe(true);
    expect(await db.query("select 1 from exam_attempt where user_id = $1", [m.id]).then((r) => r.rows.length)).toBe(0);

    await memberCall(m, "POST", "/api/user/face", { image: pictures.a });
    const gated = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId });
    expect(gated.code, gated.msg).toBe(1);
    expect(gated.data.face).toMatchObject({ gate: true, rule: { id: ruleId, beforeStart: true, threshold: 0.6, action: "flag", maxFailures: 3 } });
    expect(gated.data.questions).toEqual([]);
    const uuid = gated.data.attempt.uuid;

    // The device said "pass" but the camera shows no one: the server's verdict counts.
    const noFace = await snapshot(m, uuid, "none", { deviceVerdict: "pass" });
    expect(noFace.data).toMatchObject({ verdict: "no_face", failures: 1, flag: "none" });
    expect((await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId })).data.questions).toEqual([]);

    const passed = await snapshot(m, uuid, "aAgain");
    expect(passed.data).toMatchObject({ verdict: "pass", failures: 1, flag: "none" });
    expect(passed.data.similarity).toBeGreaterThanOrEqual(0.6);
    const open = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId });
    expect(open.data.face?.gate).toBe(false);
    expect(open.data.questions).toHaveLength(4);
  });

  it("stops the attempt on the server after M failures when the rule says stop", async () => {
    const { roomId, m } = await setUp({ beforeStart: true, maxFailures: 2, action: "stop" });
    const uuid = (await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId })).data.attempt.uuid;
    const first = await snapshot(m, uuid, "b");
    expect(first.data).toMatchObject({ verdict: "mismatch", failures: 1, flag: "none" });
    const second = await snapshot(m, uuid, "two");
    expect(second.data).toMatchObject({ verdict: "many_faces", failures: 2, maxFailures: 2, flag: "stopped" });
    const attempt = (await t.database.db.query<{ status: string; face_flag: string }>("select status, face_flag from exam_attempt where uuid = $1", [uuid])).rows[0];
    expect(attempt).toEqual({ status: "submitted", face_flag: "stopped" });
    const save = await memberCall(m, "POST", "/api/exam/official/save", { uuid, answers: {} });
    expect(save.code).toBe(0);
    // Only one attempt allowed: the member cannot start again.
    expect((await memberCall(m, "POST", "/api/exam/official/start", { roomId })).code).toBe(0);
  });

  it("flags the attempt for review when the rule says flag; camera refused and no camera count as failures", async () => {
    const { roomId, m } = await setUp({ beforeStart: false, everyMinutes: 5, maxFailures: 2, action: "flag" });
    const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId });
    expect(start.data.face?.gate).toBe(false);
    expect(start.data.questions.length).toBeGreaterThan(0);
    const uuid = start.data.attempt.uuid;
    const refused = await snapshot(m, uuid, null, { kind: "interval", problem: "camera_refused" });
    expect(refused.data).toMatchObject({ verdict: "camera_refused", failures: 1, flag: "none" });
    const noCamera = await snapshot(m, uuid, null, { kind: "interval", problem: "no_camera" });
    expect(noCamera.data).toMatchObject({ verdict: "no_camera", failures: 2, flag: "flagged" });
    const attempt = (await t.database.db.query<{ id: number; status: string }>("select id, status from exam_attempt where uuid = $1", [uuid])).rows[0]!;
    expect(attempt.status).toBe("open");

    // A snapshot without a picture or a problem is refused, not passed.
    const empty = await memberCall(m, "POST", "/api/exam/official/face", { uuid, checkId: randomUUID(), kind: "interval", takenAt: Date.now() });
    expect(empty.code).toBe(0);

    // The review: flagged attempts listed, the timeline, the picture, cleared once reviewed.
    const flagged = await adminCall<ListAnswer<{ id: number }>>(root, "GET", `/admin/exam/faceReview/index?search[0][field]=face_flag&search[0][val]=flagged&search[0][operator]=eq&limit=100`);
    expect(flagged.code, flagged.msg).toBe(1);
    expect(flagged.data.list.map((r) => r.id)).toContain(attempt.id);
    const pass = await snapshot(m, uuid, "aAgain", { kind: "interval" });
    expect(pass.data).toMatchObject({ verdict: "pass", failures: 2, flag: "flagged" });
    const timeline = await adminCall<FaceTimeline>(root, "GET", `/admin/exam/faceReview/timeline?id=${attempt.id}`);
    expect(timeline.data.attempt).toMatchObject({ failures: 2, flag: "flagged", threshold: 0.6, action: "flag" });
    expect(timeline.data.checks.map((c) => c.verdict)).toEqual(["camera_refused", "no_camera", "pass"]);
    const shot = timeline.data.checks[2]!;
    expect(shot.picture).toBe(true);
    expect(shot.similarity).toBeGreaterThanOrEqual(0.6);
    const picture = await t.app.inject({ method: "GET", url: `/admin/exam/faceReview/picture?id=${shot.id}`, headers: root.headers });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers["content-type"]).toBe("image/jpeg");
    expect(picture.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Without an admin's token: the envelope's refusal, never the picture.
    const anonymous = await t.app.inject({ method: "GET", url: `/admin/exam/faceReview/picture?id=${shot.id}` });
    expect(anonymous.headers["content-type"]).not.toBe("image/jpeg");
    expect(anonymous.json().code).not.toBe(1);

    const reviewed = await adminCall(root, "POST", "/admin/exam/faceReview/review", { id: attempt.id });
    expect(reviewed.code, reviewed.msg).toBe(1);
    expect((await adminCall(root, "POST", "/admin/exam/faceReview/review", { id: attempt.id })).code).toBe(0);
  });

  it("answers a retried snapshot as the first time, and refuses another member's attempt", async () => {
    const { roomId, m } = await setUp({ beforeStart: true, maxFailures: 3 });
    const uuid = (await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId })).data.attempt.uuid;
    const body = { uuid, checkId: randomUUID(), kind: "start", takenAt: Date.now(), image: pictures.none };
    const first = await memberCall<FaceCheckResult>(m, "POST", "/api/exam/official/face", body);
    const again = await memberCall<FaceCheckResult>(m, "POST", "/api/exam/official/face", body);
    expect(first.data).toMatchObject({ verdict: "no_face", failures: 1 });
    expect(again.data).toEqual(first.data);
    const other = await createMember(t.database.db);
    expect((await memberCall(other, "POST", "/api/exam/official/face", { ...body, checkId: randomUUID() })).code).toBe(0);
    expect((await t.app.inject({ method: "POST", url: "/api/exam/official/face", payload: body })).json().code).not.toBe(1);
  });

  it("serves the browser's models and WASM from our own origin, and nothing else from those folders", async () => {
    const model = await t.app.inject({ method: "GET", url: "/face-models/blazeface.json" });
    expect(model.statusCode).toBe(200);
    expect(model.headers["cache-control"]).toContain("max-age");
    expect((await t.app.inject({ method: "GET", url: "/face-models/faceres.bin" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/face-models/README.md" })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/face-wasm/tfjs-backend-wasm-simd.wasm" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/face-wasm/tf-backend-wasm.node.js" })).statusCode).toBe(404);
  });
});
