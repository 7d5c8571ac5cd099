import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scheduledCheckId, type FaceCheckResult, type FaceTimeline } from "../../src/shared/exam/face.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { FACE_CLOCK_SKEW_MS, MAX_FACE_PICTURES_PER_ATTEMPT } from "../../src/server/modules/face/checks.ts";
import { ImageTooLargeError, MAX_IMAGE_PIXELS, analyseImage, warmFaceEngine } from "../../src/server/modules/face/engine.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createCompany, createFaceRule, createMember, createOfficialExam, type FaceRuleSpec, type TestAdmin, type TestMember } from "../helpers/factories.ts";
import { faceDataUrl, facePicture, hugePng, hugePngDataUrl } from "../helpers/faces.ts";

/**
 * Face pictures under hostile use: a face check's picture is scoped by the attempt it
 * belongs to (a company admin sees only their company's); a picture's pixels are counted from its
 * header before anything decodes it (every path: the member's enrolment, the staff's, a
 * snapshot); only a picture that decodes is kept, none after the attempt closed (bar a scheduled
 * moment queued offline) or taken outside its time, at most MAX_FACE_PICTURES_PER_ATTEMPT an
 * attempt; a replaced reference photo leaves the disk.
 */

const MIN = 60_000;
let t: TestApp;
let root: TestAdmin;
let dataDir: string;
let a: string;
let aAgain: string;

const { adminCall, memberCall } = callers(() => t.app);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "face-limits-"));
  t = await createTestApp({ config: { dataDir } });
  root = await createAdmin(t.database.db);
  await warmFaceEngine();
  a = await faceDataUrl("a");
  aAgain = await faceDataUrl("aAgain");
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const filesUnder = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : []);
const checkFiles = (attemptId: number) => filesUnder(path.join(dataDir, "face", "checks", String(attemptId)));
const checkRows = async (attemptId: number) =>
  (await t.database.db.query<{ uuid: string; verdict: string; path: string | null }>("select uuid, verdict, path from exam_face_check where attempt_id = $1 order by id", [attemptId])).rows;

/** A member with a reference photo and an open attempt under a new rule; with `agoMs`, moved back in time (a `durationMin`-minute attempt). */
async function attemptUnder(rule: FaceRuleSpec, options: { companyId?: number; agoMs?: number; durationMin?: number } = {}) {
  const db = t.database.db;
  const ruleId = await createFaceRule(db, rule);
  const { roomId } = await createOfficialExam(db, { singles: 2, judges: 2, draw: 1, room: { faceRuleId: ruleId } });
  const m = await createMember(db, { companyId: options.companyId ?? null });
  const enrolled = await memberCall(m, "POST", "/api/user/face", { image: a });
  expect(enrolled.code, enrolled.msg).toBe(1);
  const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId });
  expect(start.code, start.msg).toBe(1);
  const uuid = start.data.attempt.uuid;
  const startedAt = Math.floor((Date.now() - (options.agoMs ?? 0)) / 1000);
  const { rows } = await db.query<{ id: number }>("update exam_attempt set started_at = $1, deadline = $2 where uuid = $3 returning id", [startedAt, startedAt + (options.durationMin ?? 60) * 60, uuid]);
  return { m, uuid, id: rows[0]!.id, startedAt };
}

const shot = (m: TestMember, uuid: string, extra: object) => memberCall<FaceCheckResult>(m, "POST", "/api/exam/official/face", { uuid, checkId: randomUUID(), kind: "start", takenAt: Date.now(), ...extra });

describe("a face check's picture in the face review", () => {
  it("is scoped by the attempt it belongs to: a company admin gets their company's pictures and never another company's, whatever attempt its id looks like", async () => {
    const db = t.database.db;
    const companyA = await createCompany(db, { name: "Face A" });
    const companyB = await createCompany(db, { name: "Face B" });
    const boss = await createAdmin(db, { companyId: companyA });
    const group = (await db.query<{ id: number }>("insert into admin_group (name, rules) values ('face all', '*') returning id")).rows[0]!.id;
    await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [boss.id, group]);

    const mine = await attemptUnder({ beforeStart: false, everyMinutes: 10 }, { companyId: companyA });
    const theirs = await attemptUnder({ beforeStart: false, everyMinutes: 10 }, { companyId: companyB });
    // The other company's snapshot whose check id is the id of the admin's own company's attempt
    // (ids of two tables meet), and the admin's own snapshot under an id no attempt has.
    const ownId = 900_000 + mine.id;
    const pictureOf = (attemptId: number, name: string, bytes: Buffer) => {
      mkdirSync(path.join(dataDir, "face", "checks", String(attemptId)), { recursive: true });
      writeFileSync(path.join(dataDir, "face", "checks", String(attemptId), name), bytes);
      return path.join("checks", String(attemptId), name);
    };
    const theirBytes = await facePicture("b");
    const myBytes = await facePicture("a");
    const insert = "insert into exam_face_check (id, attempt_id, uuid, kind, taken_at, received_at, path, verdict) values ($1, $2, $3, 'interval', $4, $4, $5, 'pass')";
    await db.query(insert, [mine.id, theirs.id, randomUUID(), Date.now(), pictureOf(theirs.id, "theirs.jpg", theirBytes)]);
    await db.query(insert, [ownId, mine.id, randomUUID(), Date.now(), pictureOf(mine.id, "mine.jpg", myBytes)]);
    // Ids given by hand: the serial goes on after them.
    await db.query("select setval(pg_get_serial_sequence('exam_face_check', 'id'), (select max(id) from exam_face_check))");

    const get = (who: TestAdmin, id: number) => t.app.inject({ method: "GET", url: `/admin/exam/faceReview/picture?id=${id}`, headers: who.headers });
    const leaked = await get(boss, mine.id);
    expect(leaked.headers["content-type"]).toMatch(/json/);
    expect(leaked.json().code).toBe(0);
    // The same answer as a check that does not exist (a guessed id tells nothing).
    expect(leaked.json().msg).toBe((await get(boss, 999_999_999)).json().msg);
    const own = await get(boss, ownId);
    expect(own.statusCode).toBe(200);
    expect(own.headers["content-type"]).toBe("image/jpeg");
    expect(own.rawPayload.equals(myBytes)).toBe(true);
    // The super admin reaches both; the timelines the pictures belong to are scoped the same way.
    expect((await get(root, mine.id)).rawPayload.equals(theirBytes)).toBe(true);
    expect((await adminCall(boss, "GET", `/admin/exam/faceReview/timeline?id=${theirs.id}`)).code).toBe(0);
    expect((await adminCall<FaceTimeline>(boss, "GET", `/admin/exam/faceReview/timeline?id=${mine.id}`)).data.checks.map((c) => c.id)).toEqual([ownId]);
  });
});

describe("a picture's pixels", () => {
  const tooMany = /too many pixels \(20000 × 20000\).*16\.7 megapixels/;

  it("are read from the header: the engine refuses more than 4096 × 4096 before decoding anything", async () => {
    expect(MAX_IMAGE_PIXELS).toBe(4096 * 4096);
    const [huge, justOver] = [hugePng(20_000, 20_000), hugePng(4097, 4096)];
    const before = process.memoryUsage().rss;
    const started = performance.now();
    await expect(analyseImage(huge)).rejects.toBeInstanceOf(ImageTooLargeError);
    await expect(analyseImage(justOver)).rejects.toBeInstanceOf(ImageTooLargeError);
    // Decoding the first would take seconds and hundreds of MB (1.6 GB of RGBA at 4 bytes a pixel).
    expect(performance.now() - started).toBeLessThan(1000);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    // At the limit the picture is decoded and judged (no face in a black square).
    expect((await analyseImage(hugePng(4096, 4096))).faces).toEqual([]);
  });

  it("refuse a huge picture with a clear message on the member's and the staff's enrolment, and keep nothing", async () => {
    const m = await createMember(t.database.db);
    const huge = hugePngDataUrl(20_000, 20_000);
    const byMember = await memberCall(m, "POST", "/api/user/face", { image: huge });
    expect(byMember.code).toBe(0);
    expect(byMember.msg).toMatch(tooMany);
    const byStaff = await adminCall(root, "POST", "/admin/user/user/face", { id: m.id, image: huge });
    expect(byStaff.code).toBe(0);
    expect(byStaff.msg).toMatch(tooMany);
    expect((await memberCall<{ enrolled: boolean }>(m, "GET", "/api/user/face")).data.enrolled).toBe(false);
    expect(filesUnder(path.join(dataDir, "face", "ref")).filter((f) => f.startsWith(`${m.id}-`))).toEqual([]);
    // One pixel over the limit is refused as well; at the limit the picture is read (and has no face).
    expect((await memberCall(m, "POST", "/api/user/face", { image: hugePngDataUrl(4097, 4096) })).msg).toMatch(/too many pixels \(4097 × 4096\)/);
    expect((await memberCall(m, "POST", "/api/user/face", { image: hugePngDataUrl(4096, 4096) })).msg).toMatch(/No face/);
  });

  it("refuse a huge snapshot: no check recorded, no failure counted, nothing kept", async () => {
    const { m, uuid, id } = await attemptUnder({ beforeStart: true, maxFailures: 3 });
    const answer = await shot(m, uuid, { image: hugePngDataUrl(20_000, 20_000) });
    expect(answer.code).toBe(0);
    expect(answer.msg).toMatch(tooMany);
    expect(await checkRows(id)).toEqual([]);
    expect(checkFiles(id)).toEqual([]);
    expect((await t.database.db.query<{ face_failures: number }>("select face_failures from exam_attempt where id = $1", [id])).rows[0]!.face_failures).toBe(0);
  });
});

describe("snapshots on disk", () => {
  it("keep only a picture that decodes: random bytes are judged bad_image and dropped", async () => {
    const { m, uuid, id } = await attemptUnder({ beforeStart: true, maxFailures: 5 });
    const junk = await shot(m, uuid, { image: randomBytes(2 * 1024 * 1024 - 16).toString("base64") });
    expect(junk.code, junk.msg).toBe(1);
    expect(junk.data).toMatchObject({ verdict: "bad_image", failures: 1 });
    const good = await shot(m, uuid, { image: aAgain });
    expect(good.data).toMatchObject({ verdict: "pass" });
    expect((await checkRows(id)).map((r) => [r.verdict, r.path !== null])).toEqual([
      ["bad_image", false],
      ["pass", true],
    ]);
    expect(checkFiles(id)).toHaveLength(1);
  });

  it("are refused once the attempt is over, bar a scheduled moment it reached whose snapshot was queued offline", async () => {
    // Every 10 minutes; submitted 25 minutes into a 60-minute attempt.
    const { m, uuid, id, startedAt } = await attemptUnder({ beforeStart: false, everyMinutes: 10, maxFailures: 5 }, { agoMs: 25 * MIN });
    expect((await memberCall(m, "POST", "/api/exam/official/submit", { uuid, answers: {} })).code).toBe(1);
    const rowsBefore = await checkRows(id);
    expect(rowsBefore.map((r) => r.verdict)).toEqual(["missed", "missed"]);

    const over = /This exam is over/;
    // A start check, an arbitrary id, a device problem, and the moment of minute 30 (never reached).
    for (const extra of [
      { image: aAgain },
      { checkId: `${uuid}:x`, kind: "interval", image: aAgain },
      { kind: "interval", problem: "camera_failed" },
      { checkId: scheduledCheckId(uuid, 30 * MIN), kind: "interval", image: aAgain },
    ]) {
      const answer = await shot(m, uuid, { takenAt: Date.now() - MIN, ...extra });
      expect(answer.code, JSON.stringify(extra)).toBe(0);
      expect(answer.msg).toMatch(over);
    }
    expect(await checkRows(id)).toEqual(rowsBefore);
    expect(checkFiles(id)).toEqual([]);
    // Minute 10's snapshot, queued offline, still takes its missed check's place.
    const late = await shot(m, uuid, { checkId: scheduledCheckId(uuid, 10 * MIN), kind: "interval", takenAt: startedAt * 1000 + 10 * MIN + 2000, image: aAgain });
    expect(late.data).toMatchObject({ verdict: "pass", failures: 1 });
    expect(checkFiles(id)).toHaveLength(1);
  });

  it("are refused when taken outside the attempt's time (the device's clock give or take 5 minutes)", async () => {
    const { m, uuid, id, startedAt } = await attemptUnder({ beforeStart: true, maxFailures: 5 }, { agoMs: 10 * MIN });
    const outside = /not within this exam/;
    for (const takenAt of [Date.now() + 365 * 24 * 60 * MIN, Date.now() + FACE_CLOCK_SKEW_MS + MIN, startedAt * 1000 - FACE_CLOCK_SKEW_MS - MIN, 0]) {
      const answer = await shot(m, uuid, { takenAt, image: aAgain });
      expect(answer.code, String(takenAt)).toBe(0);
      expect(answer.msg).toMatch(outside);
    }
    expect(await checkRows(id)).toEqual([]);
    expect(checkFiles(id)).toEqual([]);
    // A clock a few minutes off is still taken.
    expect((await shot(m, uuid, { takenAt: Date.now() + 2 * MIN, image: aAgain })).data.verdict).toBe("pass");
    expect((await shot(m, uuid, { takenAt: startedAt * 1000 - 2 * MIN, problem: "no_camera" })).data.verdict).toBe("no_camera");
  });

  it("are kept at most MAX_FACE_PICTURES_PER_ATTEMPT an attempt: later checks are judged and counted without their picture", async () => {
    expect(MAX_FACE_PICTURES_PER_ATTEMPT).toBe(100);
    const { m, uuid, id } = await attemptUnder({ beforeStart: true, maxFailures: 100 });
    // The attempt already holds the bound (rows as the route writes them; the files do not matter here).
    await t.database.db.query(
      `insert into exam_face_check (attempt_id, uuid, kind, taken_at, received_at, path, verdict)
       select $1::int, 'earlier-' || n, 'start', $2::bigint, $2::bigint, 'checks/' || $1::int || '/earlier-' || n || '.jpg', 'no_face' from generate_series(1, $3::int) as n`,
      [id, Date.now(), MAX_FACE_PICTURES_PER_ATTEMPT],
    );
    const next = await shot(m, uuid, { image: aAgain });
    expect(next.data.verdict).toBe("pass");
    const rows = await checkRows(id);
    expect(rows).toHaveLength(MAX_FACE_PICTURES_PER_ATTEMPT + 1);
    expect(rows.at(-1)).toMatchObject({ verdict: "pass", path: null });
    expect(checkFiles(id)).toEqual([]);
    const timeline = await adminCall<FaceTimeline>(root, "GET", `/admin/exam/faceReview/timeline?id=${id}`);
    expect(timeline.data.checks.at(-1)).toMatchObject({ verdict: "pass", picture: false });
  });
});

describe("reference photos on disk", () => {
  it("a replaced reference photo is removed, by the member and by staff", async () => {
    const m = await createMember(t.database.db);
    const refs = () => filesUnder(path.join(dataDir, "face", "ref")).filter((f) => f.startsWith(`${m.id}-`));
    const current = async () => (await t.database.db.query<{ path: string }>("select path from member_face where user_id = $1", [m.id])).rows[0]!.path;
    expect((await memberCall(m, "POST", "/api/user/face", { image: a })).code).toBe(1);
    expect(refs()).toEqual([path.basename(await current())]);
    expect((await memberCall(m, "POST", "/api/user/face", { image: aAgain })).code).toBe(1);
    expect(refs()).toEqual([path.basename(await current())]);
    const byStaff = await adminCall(root, "POST", "/admin/user/user/face", { id: m.id, image: a });
    expect(byStaff.code, byStaff.msg).toBe(1);
    expect(refs()).toEqual([path.basename(await current())]);
    // A refused photo changes nothing.
    const first = await current();
    expect((await memberCall(m, "POST", "/api/user/face", { image: await faceDataUrl("none") })).code).toBe(0);
    expect(refs()).toEqual([path.basename(first)]);
  });
});
