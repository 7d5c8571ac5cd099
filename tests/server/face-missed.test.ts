import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListAnswer } from "../../src/shared/admin/crud.ts";
import { faceSchedule, scheduledCheckId, type FaceCheckResult, type FaceTimeline } from "../../src/shared/exam/face.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { warmFaceEngine } from "../../src/server/modules/face/engine.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createFaceRule, createMember, createOfficialExam, type FaceRuleSpec, type TestAdmin, type TestMember } from "../helpers/factories.ts";
import { faceDataUrl } from "../helpers/faces.ts";

/**
 * Scheduled face checks the device never sent (modules/face/missed.ts): counted by the
 * server as failures when the attempt is submitted or expires, the rule's action applied, shown
 * on the review timeline and in the marking queue's face part; a snapshot of the moment queued
 * offline and arriving later takes the missed check's place.
 */

const MIN = 60_000;
let t: TestApp;
let root: TestAdmin;
let dataDir: string;
let same: string;

const { adminCall, memberCall } = callers(() => t.app);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "face-missed-"));
  t = await createTestApp({ config: { dataDir } });
  root = await createAdmin(t.database.db);
  await warmFaceEngine();
  same = await faceDataUrl("aAgain");
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A member with a reference photo, an open attempt under a new rule, moved back in time: started `agoMs` ago, `durationMin` long. */
async function attemptUnder(rule: FaceRuleSpec, agoMs: number, durationMin = 60) {
  const db = t.database.db;
  const ruleId = await createFaceRule(db, rule);
  const { roomId } = await createOfficialExam(db, { singles: 2, judges: 2, draw: 1, room: { faceRuleId: ruleId } });
  const m = await createMember(db);
  expect((await memberCall(m, "POST", "/api/user/face", { image: await faceDataUrl("a") })).code).toBe(1);
  const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId });
  expect(start.code, start.msg).toBe(1);
  const uuid = start.data.attempt.uuid;
  const startedAt = Math.floor((Date.now() - agoMs) / 1000);
  const { rows } = await db.query<{ id: number }>("update exam_attempt set started_at = $1, deadline = $2 where uuid = $3 returning id", [startedAt, startedAt + durationMin * 60, uuid]);
  return { m, uuid, id: rows[0]!.id, startedAt };
}

const attemptRow = async (id: number) =>
  (await t.database.db.query<{ status: string; face_failures: number; face_flag: string }>("select status, face_failures, face_flag from exam_attempt where id = $1", [id])).rows[0]!;

const scheduled = (m: TestMember, uuid: string, startedAt: number, offset: number, kind: "interval" | "random", extra: object) =>
  memberCall<FaceCheckResult>(m, "POST", "/api/exam/official/face", { uuid, checkId: scheduledCheckId(uuid, offset), kind, takenAt: startedAt * 1000 + offset + 2000, ...extra });

describe("scheduled face checks the device never sent", () => {
  it("count as failures when the attempt is submitted (past their grace), flag it with the reason, and give way to a snapshot arriving later", async () => {
    // Every 10 minutes, flag after 2 failures; submitted 35 minutes into a 60-minute attempt.
    const { m, uuid, id, startedAt } = await attemptUnder({ beforeStart: false, everyMinutes: 10, maxFailures: 2, action: "flag" }, 35 * MIN);
    const sent = await scheduled(m, uuid, startedAt, 10 * MIN, "interval", { image: same });
    expect(sent.data).toMatchObject({ verdict: "pass", failures: 0, flag: "none" });
    expect(await attemptRow(id)).toEqual({ status: "open", face_failures: 0, face_flag: "none" });

    const submitted = await memberCall(m, "POST", "/api/exam/official/submit", { uuid, answers: {} });
    expect(submitted.code, submitted.msg).toBe(1);
    // 20 and 30 were due and never came; 40 and 50 were never reached.
    expect(await attemptRow(id)).toEqual({ status: "submitted", face_failures: 2, face_flag: "flagged" });

    const timeline = await adminCall<FaceTimeline>(root, "GET", `/admin/exam/faceReview/timeline?id=${id}`);
    expect(timeline.code, timeline.msg).toBe(1);
    expect(timeline.data.attempt).toMatchObject({ failures: 2, flag: "flagged" });
    expect(timeline.data.checks.map((c) => [c.verdict, c.takenAt - startedAt * 1000, c.picture])).toEqual([
      ["pass", 10 * MIN + 2000, true],
      ["missed", 20 * MIN, false],
      ["missed", 30 * MIN, false],
    ]);
    // The marking queue's face part: flagged, with the missed checks as its reason.
    const queue = await adminCall<ListAnswer<{ id: number }>>(root, "GET", `/admin/exam/faceReview/index?search[0][field]=face_flag&search[0][val]=flagged,stopped&search[0][operator]=IN&limit=100`);
    expect(queue.data.list.find((r) => r.id === id)).toMatchObject({ face_flag: "flagged", face_failures: 2, checks: 1, missed: 2 });

    // The snapshot of minute 20 was queued offline: it arrives now, with its time, and counts as sent.
    const late = await scheduled(m, uuid, startedAt, 20 * MIN, "interval", { image: same });
    expect(late.data).toMatchObject({ verdict: "pass", failures: 1, flag: "none" });
    expect(await attemptRow(id)).toEqual({ status: "submitted", face_failures: 1, face_flag: "none" });
    expect((await scheduled(m, uuid, startedAt, 20 * MIN, "interval", { image: same })).data).toEqual(late.data);
    const after = await adminCall<FaceTimeline>(root, "GET", `/admin/exam/faceReview/timeline?id=${id}`);
    expect(after.data.checks.map((c) => c.verdict)).toEqual(["pass", "pass", "missed"]);
    // A late camera failure for minute 30 replaces its missed check without counting twice.
    const failed = await scheduled(m, uuid, startedAt, 30 * MIN, "interval", { problem: "camera_failed" });
    expect(failed.data).toMatchObject({ verdict: "camera_failed", failures: 1, flag: "none" });
  });

  it("leave an attempt that sent every due check alone, and do not count a check still inside its grace", async () => {
    // Submitted 20.5 minutes in: minute 10 sent, minute 20 only 30 s ago (not missed yet).
    const { m, uuid, id, startedAt } = await attemptUnder({ beforeStart: false, everyMinutes: 10, maxFailures: 1, action: "stop" }, 20 * MIN + 30_000);
    expect((await scheduled(m, uuid, startedAt, 10 * MIN, "interval", { image: same })).data.verdict).toBe("pass");
    expect((await memberCall(m, "POST", "/api/exam/official/submit", { uuid, answers: {} })).code).toBe(1);
    expect(await attemptRow(id)).toEqual({ status: "submitted", face_failures: 0, face_flag: "none" });
    const { rows } = await t.database.db.query("select 1 from exam_face_check where attempt_id = $1 and verdict = 'missed'", [id]);
    expect(rows).toHaveLength(0);
  });

  it("count when the attempt expires at its deadline, and a stop rule marks it stopped", async () => {
    // Random checks only, stop after 2 failures; the attempt ended an hour ago and nothing was ever sent.
    const { m, uuid, id, startedAt } = await attemptUnder({ beforeStart: false, randomCount: 3, maxFailures: 2, action: "stop" }, 120 * MIN);
    // The next thing the device sends finds it expired: closed and graded at its deadline.
    const save = await memberCall(m, "POST", "/api/exam/official/save", { uuid, answers: {} });
    expect(save.code).toBe(0);
    expect(save.msg).toMatch(/time for this exam is up/);
    const expected = faceSchedule({ beforeStart: false, everyMinutes: 0, randomCount: 3 }, 60 * MIN, uuid).filter((s) => s.offset <= 59 * MIN);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(await attemptRow(id)).toEqual({ status: "expired", face_failures: expected.length, face_flag: "stopped" });
    const { rows } = await t.database.db.query<{ uuid: string; kind: string; taken_at: string }>("select uuid, kind, taken_at from exam_face_check where attempt_id = $1 order by taken_at", [id]);
    expect(rows.map((r) => [r.uuid, r.kind, Number(r.taken_at)])).toEqual(expected.map((s) => [scheduledCheckId(uuid, s.offset), "random", startedAt * 1000 + s.offset]));
    // Closing again (another expired save) counts nothing twice.
    await memberCall(m, "POST", "/api/exam/official/save", { uuid, answers: {} });
    expect((await attemptRow(id)).face_failures).toBe(expected.length);
  });

  it("also count when a stop rule ends the attempt early: the checks missed until then", async () => {
    // Every 5 minutes, stop after 3: two missed (5 and 10) before a failed snapshot at 12 minutes ends it.
    const { m, uuid, id } = await attemptUnder({ beforeStart: false, everyMinutes: 5, maxFailures: 3, action: "stop" }, 12 * MIN);
    const shot = await memberCall<FaceCheckResult>(m, "POST", "/api/exam/official/face", { uuid, checkId: `${uuid}:x`, kind: "interval", takenAt: Date.now(), problem: "no_camera" });
    expect(shot.data).toMatchObject({ verdict: "no_camera", failures: 1, flag: "none" });
    const second = await memberCall<FaceCheckResult>(m, "POST", "/api/exam/official/face", { uuid, checkId: `${uuid}:y`, kind: "interval", takenAt: Date.now(), problem: "no_camera" });
    expect(second.data).toMatchObject({ failures: 2, flag: "none" });
    expect((await memberCall(m, "POST", "/api/exam/official/submit", { uuid, answers: {} })).code).toBe(1);
    expect(await attemptRow(id)).toEqual({ status: "submitted", face_failures: 4, face_flag: "stopped" });
  });
});
