import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListAnswer } from "../../src/shared/admin/crud.ts";
import type { RoomResults } from "../../src/shared/admin/rooms.ts";
import type { ExamRecordDetail, ExamRecordRow } from "../../src/shared/exam/catalog.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createMember, createPaper, createQuestion, createRoom, type TestAdmin, type TestMember } from "../helpers/factories.ts";

/**
 * Attempts keep what was sat: an attempt holds a snapshot of each question as given
 * (exam_attempt_snapshot, migration 0038) with the paper's points, and the member's record, its
 * score and review, marking, the room's results, item analysis and export read only that — so
 * what staff do afterwards to the questions and the paper's rows changes none of them.
 */

let t: TestApp;
let root: TestAdmin;

const { adminCall: staffCall, memberCall } = callers(() => t.app);
const adminCall = <T = unknown,>(method: "GET" | "POST" | "DELETE", url: string, payload?: object) => staffCall<T>(root, method, url, payload);
/** A row of the marking queue, as far as these tests read it. */
type MarkRow = { id: number; attempt_id: number };

const opts = (...texts: string[]) => texts.map((text, i) => ({ key: "ABCDEFGH"[i]!, text }));

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

/** Every cell value of every sheet of the room's export. */
async function exportCells(roomId: number): Promise<unknown[][][]> {
  const file = await t.app.inject({ method: "GET", url: `/admin/exam/room/export?id=${roomId}`, headers: { ...root.headers, "think-lang": "en" } });
  expect(file.statusCode).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
  return book.worksheets.map((sheet) => {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push(JSON.parse(JSON.stringify(row.values)) as unknown[]));
    return rows;
  });
}

/** The paper row of `questionId` in `paperId`. */
const rowOf = async (paperId: number, questionId: number) =>
  (await t.database.db.query<{ id: number; weigh: number }>("select id, weigh from exam_paper_row where paper_id = $1 and question_id = $2", [paperId, questionId])).rows[0]!;

describe("attempts keep what was sat", () => {
  it("keeps the record, score, review, marking, item analysis and export as sat after staff edit, re-point, reorder and delete", async () => {
    const db = t.database.db;
    // An official exam: four questions worth 2 points each on their own, 4 + 8 + 10 + 8 = 30 in the paper.
    const bank = await createBank(db, { kind: "exam" });
    const q1 = await createQuestion(db, bank, { answer: "A", score: 2, stem: "Single", options: ["one", "two", "three"] });
    const q2 = await createQuestion(db, bank, { type: "multiple", answer: ["A", "C"], score: 2, stem: "Multiple" });
    const q3 = await createQuestion(db, bank, { type: "judge", answer: "T", score: 2, stem: "Judge" });
    const q4 = await createQuestion(db, bank, { type: "short", options: [], answer: { keywords: ["light"], reference: "Light." }, score: 2, stem: "Short" });
    const paper = await createPaper(db, {
      rows: [
        { fixed: q1, score: 4 },
        { fixed: q2, score: 8 },
        { fixed: q3, score: 10 },
        { fixed: q4, score: 8 },
      ],
      totalScore: 30,
      passScore: 18,
    });
    const room = await createRoom(db, paper, { passScore: 18, reviewPolicy: "submitted" });
    // A mock paper of a practice bank: 6 + 4 = 10.
    const practice = await createBank(db);
    const m1 = await createQuestion(db, practice, { answer: "A", score: 1, stem: "Mock single" });
    const m2 = await createQuestion(db, practice, { type: "judge", answer: "T", score: 1, stem: "Mock judge" });
    const mockPaper = await createPaper(db, { rows: [{ fixed: m1, score: 6 }, { fixed: m2, score: 4 }], totalScore: 10, passScore: 6 });

    const ann = await createMember(db);
    const bob = await createMember(db);
    const answersFor: Record<number, unknown> = { [q1]: "A", [q2]: ["A", "C"], [q3]: "F", [q4]: "light" };
    const sit = async (m: TestMember) => {
      const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId: room });
      expect(start.code, start.msg).toBe(1);
      // The exam screen gets each question's points in the paper.
      expect(start.data.questions.map((q) => [q.id, q.score])).toEqual([
        [q1, 4],
        [q2, 8],
        [q3, 10],
        [q4, 8],
      ]);
      const uuid = start.data.attempt.uuid;
      const submitted = await memberCall(m, "POST", "/api/exam/official/submit", { uuid, answers: answersFor });
      expect(submitted.code, submitted.msg).toBe(1);
      return uuid;
    };
    const annUuid = await sit(ann);
    const bobUuid = await sit(bob);
    // Ann's short answer is marked (6 of 8) before staff change anything; Bob's waits.
    const queue = (await adminCall<ListAnswer<MarkRow>>("GET", "/admin/exam/marking/index?limit=100")).data.list;
    const annAttempt = (await db.query<{ id: number }>("select id from exam_attempt where uuid = $1", [annUuid])).rows[0]!.id;
    const bobAttempt = (await db.query<{ id: number }>("select id from exam_attempt where uuid = $1", [bobUuid])).rows[0]!.id;
    const annMark = queue.find((r) => r.attempt_id === annAttempt)!;
    expect(annMark).toMatchObject({ stem: "Short", max_score: 8, reference: "Light.", keywords: ["light"] });
    expect((await adminCall("POST", "/admin/exam/marking/mark", { id: annMark.id, score: 6, comment: "ok" })).code).toBe(1);

    const mockUuid = randomUUID();
    const op = { id: randomUUID(), type: "attempt.submit", at: Date.now(), payload: { attemptId: mockUuid, paperId: mockPaper, startedAt: Date.now() - 60_000, submittedAt: Date.now(), answers: { [m1]: "A", [m2]: "F" } } };
    expect((await memberCall<{ results: { status: string }[] }>(ann, "POST", "/api/exam/sync", { ops: [op] })).data.results[0]!.status).toBe("applied");

    const snapshotNow = async () => ({
      official: (await memberCall<ExamRecordDetail>(ann, "GET", `/api/exam/record?uuid=${annUuid}`)).data,
      mock: (await memberCall<ExamRecordDetail>(ann, "GET", `/api/exam/record?uuid=${mockUuid}`)).data,
      records: (await memberCall<{ list: ExamRecordRow[] }>(ann, "GET", "/api/exam/records")).data,
      results: (await adminCall<RoomResults>("GET", `/admin/exam/room/results?id=${room}`)).data,
      export: await exportCells(room),
    });
    const before = await snapshotNow();
    expect(before.official.attempt).toMatchObject({ score: 18, passed: true, totalScore: 30, passScore: 18 });
    expect(before.official.questions.map((q) => q.score)).toEqual([4, 8, 10, 8]);
    expect(before.official.results[q4]).toEqual({ correct: false, score: 6 });
    expect(before.mock.attempt).toMatchObject({ score: 6, totalScore: 10 });
    expect(before.records.list.map((r) => [r.uuid, r.score, r.totalScore])).toEqual([
      [annUuid, 18, 30],
      [mockUuid, 6, 10],
    ]);
    expect(before.mock.questions.map((q) => [q.id, q.score])).toEqual([
      [m1, 6],
      [m2, 4],
    ]);
    expect(before.results.items.map((i) => i.stem)).toEqual(["Single", "Multiple", "Judge", "Short"]);

    // Staff: edit a question's stem, options, answer and score; re-point a row's score; reorder; delete questions (and so their rows).
    const edit = async (id: number, body: object) => {
      const res = await adminCall("POST", "/admin/exam/question/edit", { id, classify_id: bank, difficulty: 1, ...body });
      expect(res.code, res.msg).toBe(1);
    };
    await edit(q1, { type: "single", stem: "Edited", options: opts("x", "y"), answer: "B", analysis: "new", score: 9 });
    await edit(q2, { type: "multiple", stem: "Multiple", options: opts("one", "two", "three", "four"), answer: ["B"], score: 2 });
    const mockEdit = await adminCall("POST", "/admin/exam/question/edit", { id: m1, classify_id: practice, type: "single", stem: "Mock edited", options: opts("p", "q"), answer: "B", score: 3 });
    expect(mockEdit.code, mockEdit.msg).toBe(1);
    const r2 = await rowOf(paper, q2);
    expect((await adminCall("POST", "/admin/exam/paperRow/edit", { id: r2.id, paper_id: paper, kind: "fixed", question_id: q2, score: 1, weigh: 99 })).code).toBe(1);
    const r1 = await rowOf(paper, q1);
    expect((await adminCall("POST", "/admin/exam/paperRow/edit", { id: r1.id, paper_id: paper, kind: "fixed", question_id: q1, score: 2, weigh: -5 })).code).toBe(1);
    const rm2 = await rowOf(mockPaper, m2);
    expect((await adminCall("DELETE", `/admin/exam/paperRow/del?ids[]=${rm2.id}`)).code).toBe(1);
    for (const id of [q3, q4, m2]) {
      const del = await t.app.inject({ method: "DELETE", url: `/admin/exam/question/del?ids[]=${id}`, headers: root.headers });
      expect(del.json().code, del.json().msg).toBe(1);
    }
    // Questions in use are hidden by the delete, not removed; the records hold even when the rows really go.
    expect((await db.query("select status from exam_question where id = any($1::int[])", [[q3, q4, m2]])).rows).toEqual([{ status: "hidden" }, { status: "hidden" }, { status: "hidden" }]);
    await db.query("delete from exam_question where id = any($1::int[])", [[q3, q4, m2]]);

    expect(await snapshotNow()).toEqual(before);
    // A paper's total changed since: the records list keeps the totals as sat.
    await db.query("update exam_paper set total_score = 99 where id = any($1::int[])", [[paper, mockPaper]]);
    expect((await memberCall<{ list: ExamRecordRow[] }>(ann, "GET", "/api/exam/records")).data).toEqual(before.records);

    // Bob's short answer is still queued (its question is gone): marked against the points he sat (8), not the question's or the row's now.
    const bobMark = ((await adminCall<ListAnswer<MarkRow>>("GET", "/admin/exam/marking/index?limit=100")).data.list).find((r) => r.attempt_id === bobAttempt)!;
    expect(bobMark).toMatchObject({ stem: "Short", max_score: 8, status: "pending" });
    expect((await adminCall("POST", "/admin/exam/marking/mark", { id: bobMark.id, score: 8.5, comment: "" })).code).toBe(0);
    const marked = await adminCall<{ score: number; passed: boolean }>("POST", "/admin/exam/marking/mark", { id: bobMark.id, score: 8, comment: "" });
    expect(marked.code, marked.msg).toBe(1);
    expect(marked.data).toMatchObject({ score: 20, passed: true });
    const bobRecord = (await memberCall<ExamRecordDetail>(bob, "GET", `/api/exam/record?uuid=${bobUuid}`)).data;
    expect(bobRecord.questions.map((q) => [q.id, q.stem, q.score])).toEqual([
      [q1, "Single", 4],
      [q2, "Multiple", 8],
      [q3, "Judge", 10],
      [q4, "Short", 8],
    ]);
    expect(bobRecord.attempt.score).toBe(20);
  });

  it("gives each question the paper's points in the record, adding up to the paper's total", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await createQuestion(db, bank, { answer: "A", score: 2 }));
    const points = [4, 6, 5, 7, 8];
    const paper = await createPaper(db, { rows: ids.map((id, i) => ({ fixed: id, score: points[i] })), totalScore: 30, passScore: 18 });
    const room = await createRoom(db, paper, { passScore: 18, reviewPolicy: "submitted" });
    const m = await createMember(db);
    const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId: room });
    const uuid = start.data.attempt.uuid;
    expect((await memberCall(m, "POST", "/api/exam/official/submit", { uuid, answers: { [ids[0]!]: "A" } })).code).toBe(1);
    const record = (await memberCall<ExamRecordDetail>(m, "GET", `/api/exam/record?uuid=${uuid}`)).data;
    expect(record.questions.map((q) => q.score)).toEqual(points);
    expect(record.questions.reduce((s, q) => s + q.score, 0)).toBe(record.attempt.totalScore);
    expect(record.results[ids[0]!]).toEqual({ correct: true, score: 4 });
  });

  it("backfills an attempt without a snapshot from what is there, and a question already gone does not break its record", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const q1 = await createQuestion(db, bank, { answer: "A", score: 2, stem: "Kept" });
    const q2 = await createQuestion(db, bank, { answer: "A", score: 2, stem: "Gone" });
    const paper = await createPaper(db, { rows: [{ fixed: q1, score: 5 }, { fixed: q2, score: 5 }], totalScore: 10, passScore: 5 });
    const room = await createRoom(db, paper, { passScore: 5, reviewPolicy: "submitted" });
    const m = await createMember(db);
    const uuid = randomUUID();
    // As an attempt made before migration 0038: its questions (ids and points) only.
    const { rows } = await db.query<{ id: number }>(
      `insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, questions, answers, score, passed, started_at, submitted_at, status)
       values ($1, $2, 'official', $3, $4, $5, $6, 10, true, 1, 2, 'submitted') returning id`,
      [uuid, m.id, paper, room, JSON.stringify([{ id: q1, score: 5 }, { id: q2, score: 5 }]), JSON.stringify({ [q1]: "A", [q2]: "A" })],
    );
    await db.query("delete from exam_question where id = $1", [q2]);
    const record = await memberCall<ExamRecordDetail>(m, "GET", `/api/exam/record?uuid=${uuid}`);
    expect(record.code, record.msg).toBe(1);
    expect(record.data.questions.map((q) => [q.stem, q.score])).toEqual([["Kept", 5]]);
    expect(record.data.attempt.score).toBe(10);
    // Frozen now: a later edit does not reach it.
    await db.query("update exam_question set stem = 'Changed', answer = '\"B\"' where id = $1", [q1]);
    const again = (await memberCall<ExamRecordDetail>(m, "GET", `/api/exam/record?uuid=${uuid}`)).data;
    expect(again).toEqual(record.data);
    const stored = (await db.query<{ questions: unknown[] }>("select questions from exam_attempt_snapshot where attempt_id = $1", [rows[0]!.id])).rows[0]!;
    expect(stored.questions[1]).toEqual({ id: q2, score: 5, missing: true });
    const results = await adminCall<RoomResults>("GET", `/admin/exam/room/results?id=${room}`);
    expect(results.code, results.msg).toBe(1);
    expect(results.data.items).toEqual([{ questionId: q1, stem: "Kept", type: "single", attempts: 1, correct: 1, share: 1 }]);
  });
});
