import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EditAnswer, ListAnswer } from "../../src/shared/admin/crud.ts";
import type { QuestionVersion } from "../../src/shared/admin/questions.ts";
import type { RegradeCandidates } from "../../src/shared/admin/regrade.ts";
import type { BankDownload, ExamRecordDetail } from "../../src/shared/exam/catalog.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createMember, createPaper, createQuestion, createRoom, type TestAdmin } from "../helpers/factories.ts";

/**
 * Question versions (migration 0042): each change to what members read or how it is
 * graded makes a new version, kept with who made it; papers follow the latest unless a row pins a
 * version; attempts note the version they sat; a device that practised or sat a mock paper on
 * an older version is graded by that version when its answers arrive.
 */

let t: TestApp;
let root: TestAdmin;

const { adminCall: staffCall, memberCall } = callers(() => t.app);
const adminCall = <T = unknown,>(method: "GET" | "POST" | "DELETE", url: string, payload?: object) => staffCall<T>(root, method, url, payload);
/** A question's row on its form, as far as these tests read it. */
type QuestionRow = { classify_id: number; stem: string; answer: string; options: unknown; analysis: string; version: number };
/** What each op of a sync batch came to. */
type SyncResults = { results: { status: string }[] };
/** The copy of each question an attempt sat, as stored. */
type SatQuestion = { id: number; version: number; stem: string };

const opts = (...texts: string[]) => texts.map((text, i) => ({ key: "ABCDEFGH"[i]!, text }));
const single = (bank: number, stem: string, answer: string) => ({
  classify_id: bank,
  type: "single",
  stem,
  options: opts("one", "two", "three"),
  answer,
  analysis: "why",
  difficulty: 2,
  score: 2,
  weigh: 0,
  status: "enable",
});

/** Edits question `id` through the back office, as the form sends it. */
async function editQuestion(id: number, changes: Record<string, unknown>) {
  const current = (await adminCall<EditAnswer<QuestionRow>>("GET", `/admin/exam/question/edit?id=${id}`)).data.row;
  const body = { ...single(current.classify_id, current.stem, current.answer), options: current.options, analysis: current.analysis, ...changes, id };
  return adminCall("POST", "/admin/exam/question/edit", body);
}

const versionsOf = async (id: number) => (await adminCall<{ list: QuestionVersion[] }>("GET", `/admin/exam/question/versions?id=${id}`)).data.list;

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db, { username: "versioner" });
});
afterAll(() => t.close());

describe("question versions", () => {
  it("makes a new version for each change to what members read or how it is graded, with who and when, and none for the rest", async () => {
    const bank = await createBank(t.database.db);
    const added = await adminCall("POST", "/admin/exam/question/add", single(bank, "Capital of France?", "A"));
    expect(added.code, added.msg).toBe(1);
    const id = (await t.database.db.query<{ id: number }>("select id from exam_question where stem = 'Capital of France?'")).rows[0]!.id;
    expect(await versionsOf(id)).toMatchObject([{ version: 1, stem: "Capital of France?", answer: "A", admin: "versioner", latest: true, pinnedRows: 0 }]);

    // Difficulty, default score, order and status are not what a member reads: no new version.
    expect((await editQuestion(id, { difficulty: 4, score: 3, weigh: 7, status: "disable" })).code).toBe(1);
    expect((await versionsOf(id)).map((v) => v.version)).toEqual([1]);

    expect((await editQuestion(id, { answer: "B", status: "enable" })).code).toBe(1);
    expect((await editQuestion(id, { stem: "The capital of France?" })).code).toBe(1);
    const history = await versionsOf(id);
    expect(history.map((v) => [v.version, v.stem, v.answer, v.latest])).toEqual([
      [3, "The capital of France?", "B", true],
      [2, "Capital of France?", "B", false],
      [1, "Capital of France?", "A", false],
    ]);
    expect(history.every((v) => v.admin === "versioner" && v.createTime > 0)).toBe(true);
    expect((await adminCall<EditAnswer<QuestionRow>>("GET", `/admin/exam/question/edit?id=${id}`)).data.row.version).toBe(3);
    // A question written outside the back office (a module, a seed) is versioned too, with no admin.
    const direct = await createQuestion(t.database.db, bank, { stem: "Direct" });
    expect(await versionsOf(direct)).toMatchObject([{ version: 1, admin: null }]);
    // Hostile ids: a clear refusal, never a 500.
    for (const bad of ["0", "abc", "99999999999", "2147483647"]) {
      const r = await t.app.inject({ method: "GET", url: `/admin/exam/question/versions?id=${bad}`, headers: root.headers });
      expect(r.statusCode).toBe(200);
      expect(r.json().code).toBe(0);
    }
  });

  it("gives a pinned paper row its version and a following row the latest; the attempt notes the version it sat", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const pinnedQ = await createQuestion(db, bank, { stem: "Pinned v1", answer: "A", score: 2 });
    const latestQ = await createQuestion(db, bank, { stem: "Latest v1", answer: "A", score: 2 });
    const paper = await createPaper(db, { rows: [{ fixed: pinnedQ, score: 5 }, { fixed: latestQ, score: 5 }], totalScore: 10, passScore: 5 });
    const row = (await db.query<{ id: number; weigh: number }>("select id, weigh from exam_paper_row where question_id = $1", [pinnedQ])).rows[0]!;
    const rowBody = { id: row.id, paper_id: paper, kind: "fixed", question_id: pinnedQ, score: 5, weigh: row.weigh };

    // Only versions the question has had can be pinned; a hostile value is refused beside the field.
    const missing = await adminCall<{ fields: Record<string, string> }>("POST", "/admin/exam/paperRow/edit", { ...rowBody, question_version: 2 });
    expect(missing.code).toBe(0);
    expect(missing.data.fields.question_version).toBe("This question has no version 2");
    for (const bad of [0, -1, 1.5, "x", 2 ** 40]) expect((await adminCall("POST", "/admin/exam/paperRow/edit", { ...rowBody, question_version: bad })).code).toBe(0);
    expect((await adminCall("POST", "/admin/exam/paperRow/edit", { ...rowBody, question_version: 1 })).code).toBe(1);
    // A draw row has no version to pin (the database refuses one too).
    await expect(db.query("update exam_paper_row set question_version = 1, kind = 'draw', classify_id = $2, question_type = 'single' where id = $1", [row.id, bank])).rejects.toThrow();

    expect((await editQuestion(pinnedQ, { stem: "Pinned v2", answer: "B", classify_id: bank })).code).toBe(1);
    expect((await editQuestion(latestQ, { stem: "Latest v2", answer: "B", classify_id: bank })).code).toBe(1);
    expect((await adminCall<ListAnswer<{ question_id: number; question_version: number | null; question_latest_version: number }>>("GET", `/admin/exam/paperRow/index?limit=10&search[0][field]=paper_id&search[0][val]=${paper}&search[0][operator]=eq`)).data.list.map((r) => [r.question_id, r.question_version, r.question_latest_version])).toEqual([
      [pinnedQ, 1, 2],
      [latestQ, null, 2],
    ]);
    expect((await versionsOf(pinnedQ)).find((v) => v.version === 1)!.pinnedRows).toBe(1);

    const room = await createRoom(db, paper, { passScore: 5, reviewPolicy: "submitted" });
    const member = await createMember(db);
    const start = await memberCall<OfficialStart>(member, "POST", "/api/exam/official/start", { roomId: room });
    expect(start.code, start.msg).toBe(1);
    expect(start.data.questions.map((q) => [q.id, q.stem, q.score])).toEqual([
      [pinnedQ, "Pinned v1", 5],
      [latestQ, "Latest v2", 5],
    ]);
    // Graded by what was given: the pinned version's key A, the latest's key B.
    const uuid = start.data.attempt.uuid;
    expect((await memberCall(member, "POST", "/api/exam/official/submit", { uuid, answers: { [pinnedQ]: "A", [latestQ]: "B" } })).code).toBe(1);
    const record = (await memberCall<ExamRecordDetail>(member, "GET", `/api/exam/record?uuid=${uuid}`)).data;
    expect(record.attempt.score).toBe(10);
    const sat = (await db.query<{ questions: SatQuestion[] }>("select s.questions from exam_attempt_snapshot s join exam_attempt a on a.id = s.attempt_id where a.uuid = $1", [uuid])).rows[0]!.questions;
    expect(sat.map((q) => [q.id, q.version])).toEqual([
      [pinnedQ, 1],
      [latestQ, 2],
    ]);

    // A regrade offers the pinned question's newer version; applied, the snapshot notes it.
    const candidates = (await adminCall<RegradeCandidates>("GET", `/admin/exam/room/regradeCandidates?id=${room}`)).data.candidates;
    expect(candidates.map((c) => c.questionId)).toEqual([pinnedQ]);
    expect((await adminCall("POST", "/admin/exam/room/regrade", { id: room, questionIds: [pinnedQ] })).code).toBe(1);
    const after = (await db.query<{ questions: SatQuestion[] }>("select s.questions from exam_attempt_snapshot s join exam_attempt a on a.id = s.attempt_id where a.uuid = $1", [uuid])).rows[0]!.questions;
    expect(after.map((q) => [q.id, q.version, q.stem])).toEqual([
      [pinnedQ, 2, "Pinned v2"],
      [latestQ, 2, "Latest v2"],
    ]);
  });

  it("sends a mock paper's pinned version with the paper, and grades a device's mock attempt by the versions it sat", async () => {
    const db = t.database.db;
    const bank = await createBank(db);
    const a = await createQuestion(db, bank, { stem: "Mock A v1", answer: "A" });
    const b = await createQuestion(db, bank, { stem: "Mock B v1", answer: "A" });
    const paper = await createPaper(db, { rows: [{ fixed: a, score: 6 }, { fixed: b, score: 4 }], totalScore: 10, passScore: 6 });
    await db.query("update exam_paper_row set question_version = 1 where paper_id = $1 and question_id = $2", [paper, a]);
    const member = await createMember(db);
    // The device saved the bank (version 1 of both) and then went offline; staff change both keys.
    const bankNow = (await memberCall<BankDownload>(member, "GET", `/api/exam/bank?id=${bank}`)).data;
    expect(bankNow.questions.map((q) => [q.id, q.version])).toEqual([
      [a, 1],
      [b, 1],
    ]);
    expect((await editQuestion(a, { stem: "Mock A v2", answer: "C", classify_id: bank })).code).toBe(1);
    expect((await editQuestion(b, { stem: "Mock B v2", answer: "C", classify_id: bank })).code).toBe(1);

    const detail = (await memberCall<{ rows: { questionId: number; version: number | null; question?: { stem: string; answer: unknown } }[] }>(member, "GET", `/api/exam/paper?id=${paper}`)).data;
    expect(detail.rows.map((r) => [r.questionId, r.version, r.question?.stem ?? null, r.question?.answer ?? null])).toEqual([
      [a, 1, "Mock A v1", "A"],
      [b, null, null, null],
    ]);

    const submit = async (versions: Record<string, number> | undefined) => {
      const attemptId = randomUUID();
      const payload = { attemptId, paperId: paper, startedAt: Date.now() - 60_000, submittedAt: Date.now(), answers: { [a]: "A", [b]: "A" }, ...(versions ? { versions } : {}) };
      const r = await memberCall<SyncResults>(member, "POST", "/api/exam/sync", { ops: [{ id: randomUUID(), type: "attempt.submit", at: Date.now(), payload }] });
      expect(r.data.results[0]!.status, JSON.stringify(r.data.results[0])).toBe("applied");
      return (await memberCall<ExamRecordDetail>(member, "GET", `/api/exam/record?uuid=${attemptId}`)).data;
    };
    // The device's copy: both at version 1 (A pinned, B as saved before the edit): both right.
    const offline = await submit({ [a]: 1, [b]: 1 });
    expect(offline.attempt.score).toBe(10);
    expect(offline.questions.map((q) => q.stem)).toEqual(["Mock A v1", "Mock B v1"]);
    // Without versions (an older device): the pinned one as pinned, the other as it is now.
    const plain = await submit(undefined);
    expect(plain.attempt.score).toBe(6);
    expect(plain.questions.map((q) => q.stem)).toEqual(["Mock A v1", "Mock B v2"]);
    // A version a question never had counts as nothing: the question as the paper gives it.
    expect((await submit({ [b]: 9 })).attempt.score).toBe(6);
  });

  it("grades a practice answer by the version the device showed, and keeps answers to a question hidden since", async () => {
    const db = t.database.db;
    const bank = await createBank(db);
    const q = await createQuestion(db, bank, { stem: "Practice v1", answer: "A" });
    const other = await createQuestion(db, bank, { stem: "Soon hidden", answer: "A" });
    const member = await createMember(db);
    expect((await editQuestion(q, { answer: "B", classify_id: bank })).code).toBe(1);
    // `other` is in a paper, then deleted (the device saved it before): it is hidden, not gone.
    await createPaper(db, { rows: [{ fixed: other, score: 1 }] });
    expect((await adminCall("DELETE", `/admin/exam/question/del?ids=${other}`)).code).toBe(1);
    expect((await db.query<{ status: string }>("select status from exam_question where id = $1", [other])).rows[0]!.status).toBe("hidden");

    const at = Date.now();
    const op = (questionId: number, answer: string, version?: number) => ({
      id: randomUUID(),
      type: "practice.answer",
      at,
      payload: { questionId, answer, bankId: bank, ...(version ? { version } : {}) },
    });
    const ops = [op(q, "A", 1), op(q, "A"), op(q, "B", 2), op(other, "A", 1), op(q, "A", 77)];
    // One at a time and as one batch: the same judgement.
    for (const batch of [ops.map((o) => [o]), [ops.map((o) => ({ ...o, id: randomUUID() }))]]) {
      for (const part of batch) {
        const r = await memberCall<SyncResults>(member, "POST", "/api/exam/sync", { ops: part });
        expect(r.data.results.map((x) => x.status)).toEqual(part.map(() => "applied"));
      }
    }
    const { rows } = await db.query<{ question_id: number; correct: boolean }>("select question_id, correct from exam_practice_answer where user_id = $1 order by id", [member.id]);
    const once = [
      [q, true], // version 1: key A
      [q, false], // no version: the latest, key B
      [q, true],
      [other, true],
      [q, false], // a version it never had: the latest
    ];
    expect(rows.map((r) => [r.question_id, r.correct])).toEqual([...once, ...once]);
    // A review of the hidden question, made offline, arrives too (its card is kept).
    const review = { id: randomUUID(), type: "review.answer", at, payload: { questionId: other, correct: true, grade: null, retention: 0.9 } };
    expect((await memberCall<SyncResults>(member, "POST", "/api/exam/sync", { ops: [review] })).data.results[0]!.status).toBe("applied");
    // The wrong book counts the wrong ones only.
    const state = (await memberCall<{ wrong: unknown }>(member, "GET", "/api/exam/state")).data;
    expect(state.wrong).toMatchObject([{ questionId: q, count: 4 }]);
  });
});
