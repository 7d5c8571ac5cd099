import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListAnswer } from "../../src/shared/admin/crud.ts";
import type { RegradeCandidates, RegradeOutcome } from "../../src/shared/admin/regrade.ts";
import type { RoomResults } from "../../src/shared/admin/rooms.ts";
import type { Envelope } from "../../src/shared/envelope.ts";
import type { ExamRecordDetail, ExamRecordRow } from "../../src/shared/exam/catalog.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createCompany, createMember, createPaper, createQuestion, createRoom, type TestAdmin, type TestMember } from "../helpers/factories.ts";

/**
 * Regrade as an explicit action on a room (modules/exam/attempts/regrade.ts): a
 * submitted attempt keeps what it sat until staff pick questions whose current row should count,
 * preview the score changes (nothing saved) and apply them (one transaction, one admin log row,
 * `regraded_at` on each attempt changed, markers' marks kept).
 */

let t: TestApp;
let root: TestAdmin;

const { adminCall: call, memberCall } = callers(() => t.app);
/** The text of a member's record (the envelope's data: its `time` moves), to compare byte for byte. */
const recordText = (m: TestMember, uuid: string) =>
  t.app.inject({ method: "GET", url: `/api/exam/record?uuid=${uuid}`, headers: m.headers }).then((r) => JSON.stringify({ data: r.json<Envelope>().data }));

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

/**
 * A room of company A: q1 single (4 points in the paper, key A), q2 judge (6, key T), q3 short
 * (10, marked). Pass mark 10 of 20. Ann: A, T, marked 8 = 18 (passed); Bob: B, T, marked 2 = 8
 * (failed); Carl: A, T, unanswered = 10 (passed). Dave's attempt is still open.
 */
async function sitRoom() {
  const db = t.database.db;
  const company = await createCompany(db, { name: "A" });
  const bank = await createBank(db, { kind: "exam" });
  const q1 = await createQuestion(db, bank, { answer: "A", score: 2, stem: "Pick one" });
  const q2 = await createQuestion(db, bank, { type: "judge", answer: "T", score: 2, stem: "True?", analysis: "It is." });
  const q3 = await createQuestion(db, bank, { type: "short", options: [], answer: { keywords: ["light"], reference: "Light." }, score: 2, stem: "Explain" });
  const paper = await createPaper(db, { rows: [{ fixed: q1, score: 4 }, { fixed: q2, score: 6 }, { fixed: q3, score: 10 }], totalScore: 20, passScore: 10 });
  const room = await createRoom(db, paper, { passScore: 10, reviewPolicy: "submitted" });
  await db.query("update exam_room set company_id = $1 where id = $2", [company, room]);
  const sit = async (answers: Record<number, unknown>, submit = true) => {
    const m = await createMember(db);
    const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId: room });
    expect(start.code, start.msg).toBe(1);
    const uuid = start.data.attempt.uuid;
    if (submit) expect((await memberCall(m, "POST", "/api/exam/official/submit", { uuid, answers })).code).toBe(1);
    const id = (await db.query<{ id: number }>("select id from exam_attempt where uuid = $1", [uuid])).rows[0]!.id;
    return { m, uuid, id };
  };
  const ann = await sit({ [q1]: "A", [q2]: "T", [q3]: "light" });
  const bob = await sit({ [q1]: "B", [q2]: "T", [q3]: "dark" });
  const carl = await sit({ [q1]: "A", [q2]: "T" });
  const dave = await sit({}, false);
  const queue = (await call<ListAnswer<{ id: number; attempt_id: number; status: string }>>(root, "GET", "/admin/exam/marking/index?limit=100")).data.list;
  for (const [who, score] of [
    [ann, 8],
    [bob, 2],
  ] as const) {
    const mark = queue.find((r) => r.attempt_id === who.id && r.status === "pending")!;
    expect((await call(root, "POST", "/admin/exam/marking/mark", { id: mark.id, score, comment: "seen" })).code).toBe(1);
  }
  return { company, room, q1, q2, q3, ann, bob, carl, dave };
}

const logCount = async () => (await t.database.db.query<{ n: number }>("select count(*)::int as n from admin_log")).rows[0]!.n;
const marksOf = async (attemptIds: number[]) =>
  (await t.database.db.query("select attempt_id, question_id, status, score::float as score, comment from exam_mark where attempt_id = any($1::int[]) order by id", [attemptIds])).rows;
const snapshotRows = async (attemptIds: number[]) =>
  (await t.database.db.query("select attempt_id, paper::text, questions::text from exam_attempt_snapshot where attempt_id = any($1::int[]) order by attempt_id", [attemptIds])).rows;

describe("regrade a room", () => {
  it("lists changed questions, previews without saving, applies once with marks kept, and a retry changes nothing", async () => {
    const db = t.database.db;
    const s = await sitRoom();
    const members = [s.ann, s.bob, s.carl];
    const ids = members.map((x) => x.id);
    const before = await Promise.all(members.map((x) => recordText(x.m, x.uuid)));
    expect(JSON.parse(before[0]!).data.attempt).toMatchObject({ score: 18, passed: true, regradedAt: null });
    expect(JSON.parse(before[1]!).data.attempt).toMatchObject({ score: 8, passed: false });
    expect(JSON.parse(before[2]!).data.attempt).toMatchObject({ score: 10, passed: true });

    // Nothing changed yet: nothing to regrade.
    expect((await call<RegradeCandidates>(root, "GET", `/admin/exam/room/regradeCandidates?id=${s.room}`)).data.candidates).toEqual([]);

    // Staff correct q1's key to B (and its own default points), and reword q2's analysis.
    await db.query(`update exam_question set answer = '"B"', score = 3 where id = $1`, [s.q1]);
    await db.query("update exam_question set analysis = 'Because it is.' where id = $1", [s.q2]);
    // The records do not move on their own.
    expect(await Promise.all(members.map((x) => recordText(x.m, x.uuid)))).toEqual(before);

    const candidates = await call<RegradeCandidates>(root, "GET", `/admin/exam/room/regradeCandidates?id=${s.room}`);
    expect(candidates.code, candidates.msg).toBe(1);
    expect(candidates.data.openAttempts).toBe(1);
    expect(candidates.data.candidates).toEqual([
      { questionId: s.q1, stem: "Pick one", type: "single", attempts: 3, changes: ["answer"], points: { min: 4, max: 4 }, questionScore: 3 },
      { questionId: s.q2, stem: "True?", type: "judge", attempts: 3, changes: ["analysis"], points: { min: 6, max: 6 }, questionScore: 2 },
    ]);

    // The dry run: old and new scores and pass, nothing saved (records, snapshots, marks, admin log).
    const logs = await logCount();
    const snaps = await snapshotRows(ids);
    const marks = await marksOf(ids);
    const preview = await call<RegradeOutcome>(root, "GET", `/admin/exam/room/regradePreview?id=${s.room}&questionIds=${s.q1}`);
    expect(preview.code, preview.msg).toBe(1);
    expect(preview.data.regradedAt).toBeNull();
    expect(preview.data.attempts.map((a) => [a.attemptId, a.oldScore, a.newScore, a.oldPassed, a.newPassed, a.questions])).toEqual([
      [s.ann.id, 18, 14, true, true, [s.q1]],
      [s.bob.id, 8, 12, false, true, [s.q1]],
      [s.carl.id, 10, 6, true, false, [s.q1]],
    ]);
    expect(preview.data.summary).toEqual({ attempts: 3, scoreChanged: 3, nowPassed: 1, nowFailed: 1 });
    expect(await Promise.all(members.map((x) => recordText(x.m, x.uuid)))).toEqual(before);
    expect(await snapshotRows(ids)).toEqual(snaps);
    expect(await marksOf(ids)).toEqual(marks);
    expect(await logCount()).toBe(logs);

    // Apply: scores, pass flags and regraded_at change; one admin log row; marks kept.
    const applied = await call<RegradeOutcome>(root, "POST", "/admin/exam/room/regrade", { id: s.room, questionIds: [s.q1] });
    expect(applied.code, applied.msg).toBe(1);
    expect(applied.data.summary).toEqual({ attempts: 3, scoreChanged: 3, nowPassed: 1, nowFailed: 1 });
    expect(typeof applied.data.regradedAt).toBe("number");
    expect(await logCount()).toBe(logs + 1);
    const log = (await db.query<{ url: string; method: string }>("select url, method from admin_log order by id desc limit 1")).rows[0]!;
    expect(log).toEqual({ url: "/admin/exam/room/regrade", method: "POST" });
    expect(await marksOf(ids)).toEqual(marks);
    const after = await Promise.all(members.map(async (x) => (JSON.parse(await recordText(x.m, x.uuid)) as { data: ExamRecordDetail }).data));
    expect(after.map((r) => [r.attempt.score, r.attempt.passed, r.attempt.regradedAt])).toEqual([
      [14, true, applied.data.regradedAt],
      [12, true, applied.data.regradedAt],
      [6, false, applied.data.regradedAt],
    ]);
    // The review shows the corrected key; the paper's points stay (4, not the question's 3); q2 was not chosen.
    const q1Shown = after[1]!.questions.find((q) => q.id === s.q1);
    expect(q1Shown).toMatchObject({ answer: "B", score: 4 });
    expect(after[1]!.results[s.q1]).toEqual({ correct: true, score: 4 });
    expect(after[1]!.questions.find((q) => q.id === s.q2)).toMatchObject({ analysis: "It is." });
    expect(after[0]!.reviews?.[s.q3]).toEqual({ score: 8, comment: "seen" });
    // The list of records says it too; the open attempt is untouched.
    const listed = (await memberCall<{ list: ExamRecordRow[] }>(s.bob.m, "GET", "/api/exam/records")).data.list;
    expect(listed.find((r) => r.uuid === s.bob.uuid)!.regradedAt).toBe(applied.data.regradedAt);
    expect((await db.query("select regraded_at from exam_attempt where id = $1", [s.dave.id])).rows[0]).toEqual({ regraded_at: null });
    // The room's results follow.
    const results = (await call<RoomResults>(root, "GET", `/admin/exam/room/results?id=${s.room}`)).data;
    expect(results.summary.passed).toBe(2);

    // q1 is no longer a candidate; q2 still is.
    expect((await call<RegradeCandidates>(root, "GET", `/admin/exam/room/regradeCandidates?id=${s.room}`)).data.candidates.map((c) => c.questionId)).toEqual([s.q2]);

    // A retried apply changes nothing and logs nothing.
    const recordsNow = await Promise.all(members.map((x) => recordText(x.m, x.uuid)));
    const retried = await call(root, "POST", "/admin/exam/room/regrade", { id: s.room, questionIds: [s.q1] });
    expect(retried.code).toBe(0);
    expect(retried.msg).toMatch(/nothing to regrade/);
    expect(await Promise.all(members.map((x) => recordText(x.m, x.uuid)))).toEqual(recordsNow);
    expect(await logCount()).toBe(logs + 1);
  });

  it("refuses bad input with a message and changes nothing", async () => {
    const s = await sitRoom();
    await t.database.db.query(`update exam_question set answer = '"B"' where id = $1`, [s.q1]);
    const logs = await logCount();
    const before = await recordText(s.bob.m, s.bob.uuid);
    for (const body of [{ id: s.room, questionIds: [] }, { id: s.room }, { id: s.room, questionIds: ["x"] }, { id: s.room, questionIds: Array.from({ length: 501 }, (_, i) => i + 1) }]) {
      const r = await call(root, "POST", "/admin/exam/room/regrade", body);
      expect(r.code, JSON.stringify(body)).toBe(0);
      expect(r.msg).toBeTruthy();
    }
    const gone = await call(root, "POST", "/admin/exam/room/regrade", { id: s.room, questionIds: [s.q1, 2_000_000_000] });
    expect(gone).toMatchObject({ code: 0, msg: expect.stringMatching(/no longer exist/) });
    const noRoom = await call(root, "POST", "/admin/exam/room/regrade", { id: 2_000_000_000, questionIds: [s.q1] });
    expect(noRoom.code).toBe(0);
    for (const q of ["", "1,,2", "abc", "0"]) {
      const r = await t.app.inject({ method: "GET", url: `/admin/exam/room/regradePreview?id=${s.room}&questionIds=${q}`, headers: root.headers });
      expect(r.statusCode).toBeLessThan(500);
      expect(r.json().code).toBe(0);
    }
    expect(await recordText(s.bob.m, s.bob.uuid)).toBe(before);
    expect(await logCount()).toBe(logs);
  });

  it("a company admin regrades only rooms of their companies", async () => {
    const db = t.database.db;
    const s = await sitRoom();
    await db.query(`update exam_question set answer = '"B"' where id = $1`, [s.q1]);
    const other = await createCompany(db, { name: "B" });
    const group = (await db.query<{ id: number }>("insert into admin_group (name, rules) values ('all', '*') returning id")).rows[0]!.id;
    const outsider = await createAdmin(db, { companyId: other });
    const insider = await createAdmin(db, { companyId: s.company });
    for (const a of [outsider, insider]) await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [a.id, group]);
    const before = await recordText(s.bob.m, s.bob.uuid);
    const logs = await logCount();
    expect((await call(outsider, "GET", `/admin/exam/room/regradeCandidates?id=${s.room}`)).code).toBe(0);
    expect((await call(outsider, "GET", `/admin/exam/room/regradePreview?id=${s.room}&questionIds=${s.q1}`)).code).toBe(0);
    expect((await call(outsider, "POST", "/admin/exam/room/regrade", { id: s.room, questionIds: [s.q1] })).code).toBe(0);
    expect(await recordText(s.bob.m, s.bob.uuid)).toBe(before);
    expect(await logCount()).toBe(logs);
    // Their own company's room: allowed.
    expect((await call<RegradeCandidates>(insider, "GET", `/admin/exam/room/regradeCandidates?id=${s.room}`)).data.candidates).toHaveLength(1);
    expect((await call(insider, "POST", "/admin/exam/room/regrade", { id: s.room, questionIds: [s.q1] })).code).toBe(1);
    expect((JSON.parse(await recordText(s.bob.m, s.bob.uuid)) as { data: ExamRecordDetail }).data.attempt).toMatchObject({ score: 12, passed: true });
  });

  it("seeds the regrade rules for groups that may edit rooms", async () => {
    const { rows } = await t.database.db.query<{ name: string }>("select name from admin_rule where name like 'exam/room/regrade%' order by name");
    expect(rows.map((r) => r.name)).toEqual(["exam/room/regrade", "exam/room/regradeCandidates"]);
  });
});
