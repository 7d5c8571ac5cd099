import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EditAnswer, ListAnswer } from "../../src/shared/admin/crud.ts";
import type { RoomResults } from "../../src/shared/admin/rooms.ts";
import type { Envelope } from "../../src/shared/envelope.ts";
import type { ExamRecordDetail, ExamRecordRow } from "../../src/shared/exam/catalog.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createMember, createPaper, createQuestion, createRoom, type TestAdmin, type TestMember } from "../helpers/factories.ts";
import { secondServer } from "../helpers/second.ts";

/**
 * Papers, rooms, marking and results through the real back-office routes, and what
 * members then see through the real member routes.
 */

let t: TestApp;
let root: TestAdmin;

const { adminCall: staffCall, memberCall } = callers(() => t.app);
const adminCall = <T = unknown,>(method: "GET" | "POST" | "DELETE", url: string, payload?: object) => staffCall<T>(root, method, url, payload);
/** A back-office row, read field by field. */
type Row = Record<string, unknown>;
/** A refused add or edit: the message of each refused field. */
type Refused = { fields: Record<string, string> };
/** An add's answer: the new row's id. */
type Added = { id: number };
/** What each op of a sync batch came to. */
type SyncResults = { results: { status: string }[] };

/** A short-answer question (keywords graded provisionally, a marker decides). */
const shortQuestion = (bank: number, score: number) =>
  createQuestion(t.database.db, bank, { type: "short", options: [], answer: { keywords: ["photosynthesis", "light"], reference: "Plants turn light into sugar." } as never, score });

/** A member sits the room: starts, answers with `answers(questionId, type)`, submits. */
async function sit(m: TestMember, roomId: number, answer: (q: { id: number; type: string }) => unknown) {
  const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId });
  expect(start.code, start.msg).toBe(1);
  const uuid = start.data.attempt.uuid;
  const answers = Object.fromEntries(start.data.questions.map((q) => [String(q.id), answer(q)]).filter(([, a]) => a !== undefined));
  const submitted = await memberCall<{ score: number }>(m, "POST", "/api/exam/official/submit", { uuid, answers });
  expect(submitted.code, submitted.msg).toBe(1);
  return { uuid, questions: start.data.questions as { id: number; type: string }[], score: submitted.data.score };
}

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

describe("papers and their rows", () => {
  it("keeps the paper's running total and refuses a draw rule the bank cannot fill", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const singles = [];
    for (let i = 0; i < 3; i++) singles.push(await createQuestion(db, bank, { score: 2 }));
    // A disabled question is not in the bank a draw can use.
    const off = await createQuestion(db, bank, { score: 2 });
    await db.query("update exam_question set status = 'disable' where id = $1", [off]);
    const short = await shortQuestion(bank, 10);

    const added = await adminCall<Added>("POST", "/admin/exam/paper/add", { title: "Biology final", total_score: 16, pass_score: 10, duration: 1800 });
    expect(added.code, added.msg).toBe(1);
    const paper = added.data.id;

    const fixed = await adminCall("POST", "/admin/exam/paperRow/add", { paper_id: paper, kind: "fixed", question_id: short, score: 10, weigh: 2 });
    expect(fixed.code, fixed.msg).toBe(1);
    // 4 singles asked, 3 enabled: refused beside the count, nothing written.
    const tooMany = await adminCall<Refused>("POST", "/admin/exam/paperRow/add", { paper_id: paper, kind: "draw", classify_id: bank, question_type: "single", count: 4, score: 2, weigh: 1 });
    expect(tooMany.code).toBe(0);
    expect(tooMany.data.fields.count).toMatch(/only 3 enabled questions of this type.*cannot take 4/);
    const none = await adminCall<Refused>("POST", "/admin/exam/paperRow/add", { paper_id: paper, kind: "draw", classify_id: bank, question_type: "judge", count: 1, score: 2 });
    expect(none.data.fields.count).toMatch(/only 0 enabled/);
    // A draw row without its type: a field message.
    const untyped = await adminCall<Refused>("POST", "/admin/exam/paperRow/add", { paper_id: paper, kind: "draw", classify_id: bank, count: 1, score: 2 });
    expect(untyped.code).toBe(0);
    expect(untyped.data.fields.question_type).toBe("Please choose a question type");
    const draw = await adminCall<Added>("POST", "/admin/exam/paperRow/add", { paper_id: paper, kind: "draw", classify_id: bank, question_type: "single", count: 3, score: 2, weigh: 1 });
    expect(draw.code, draw.msg).toBe(1);

    const rows = await adminCall<ListAnswer<Row>>("GET", `/admin/exam/paperRow/index?search[0][field]=paper_id&search[0][operator]=eq&search[0][val]=${paper}`);
    expect(rows.data.list.map((r) => [r.kind, r.subtotal, r.paper_rows_total, r.paper_total_score])).toEqual([
      ["fixed", 10, 16, 16],
      ["draw", 6, 16, 16],
    ]);
    const papers = await adminCall<ListAnswer<Row>>("GET", `/admin/exam/paper/index?search[0][field]=id&search[0][operator]=eq&search[0][val]=${paper}`);
    expect(papers.data.list[0]).toMatchObject({ total_score: 16, rows_total: 16 });
    // Editing the draw row beyond the bank is refused too; the row keeps its count.
    const grow = await adminCall<Refused>("POST", "/admin/exam/paperRow/edit", { id: draw.data.id, paper_id: paper, kind: "draw", classify_id: bank, question_type: "single", count: 5, score: 2 });
    expect(grow.data.fields.count).toMatch(/only 3/);
    expect((await db.query<{ count: number }>("select count from exam_paper_row where id = $1", [draw.data.id])).rows[0]!.count).toBe(3);
    // A pass score above the total is refused beside it.
    const bad = await adminCall<Refused>("POST", "/admin/exam/paper/edit", { id: paper, title: "Biology final", total_score: 16, pass_score: 20, duration: 1800 });
    expect(bad.data.fields.pass_score).toMatch(/cannot be above the total/);

    // What the composer wrote is what a member's attempt draws: 1 short + 3 singles, 16 points.
    const roomId = await createRoom(db, paper, { passScore: 10 });
    const m = await createMember(db);
    const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId });
    expect(start.code, start.msg).toBe(1);
    const got = start.data.questions as { id: number; score: number }[];
    expect(got[0]!.id).toBe(short);
    expect(got.slice(1).map((q) => q.id).sort()).toEqual([...singles].sort());
  });

  it("refuses a paper change for a room that has attempts, and allows it before", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const q = await createQuestion(db, bank);
    const a = await createPaper(db, { rows: [{ fixed: q, score: 1 }], totalScore: 1, passScore: 1 });
    const b = await createPaper(db, { rows: [{ fixed: q, score: 1 }], totalScore: 1, passScore: 1 });
    const now = Math.floor(Date.now() / 1000);
    const body = { title: "Room A", start_time: now - 60, end_time: now + 3600, duration: 600, attempts_allowed: 1, pass_score: 1, review_policy: "never" };
    const added = await adminCall<Added>("POST", "/admin/exam/room/add", { ...body, paper_id: a });
    expect(added.code, added.msg).toBe(1);
    const room = added.data.id;
    expect((await adminCall("POST", "/admin/exam/room/edit", { ...body, id: room, paper_id: b })).code).toBe(1);
    expect((await adminCall("POST", "/admin/exam/room/edit", { ...body, id: room, paper_id: a })).code).toBe(1);
    await sit(await createMember(db), room, () => "A");
    const refused = await adminCall<Refused>("POST", "/admin/exam/room/edit", { ...body, id: room, paper_id: b });
    expect(refused.code).toBe(0);
    expect(refused.data.fields.paper_id).toBe("Members have already sat this room: its paper cannot change");
    expect((await db.query<{ paper_id: number }>("select paper_id from exam_room where id = $1", [room])).rows[0]!.paper_id).toBe(a);
    // Other fields still change.
    expect((await adminCall("POST", "/admin/exam/room/edit", { ...body, id: room, paper_id: a, title: "Room A2" })).code).toBe(1);
    // An end before the start is refused beside the end.
    const backwards = await adminCall<Refused>("POST", "/admin/exam/room/add", { ...body, paper_id: a, end_time: now - 120 });
    expect(backwards.data.fields.end_time).toBeTruthy();
  });

  it("makes a new room show the answers once it has closed, unless told otherwise", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const q = await createQuestion(db, bank);
    const paper = await createPaper(db, { rows: [{ fixed: q, score: 1 }], totalScore: 1, passScore: 1 });
    const now = Math.floor(Date.now() / 1000);
    const body = { title: "Room D", paper_id: paper, start_time: now - 60, end_time: now + 3600, duration: 600, attempts_allowed: 1, pass_score: 1 };
    const policy = async (id: number) => (await db.query<{ review_policy: string }>("select review_policy from exam_room where id = $1", [id])).rows[0]!.review_policy;
    const added = await adminCall<Added>("POST", "/admin/exam/room/add", body);
    expect(added.code, added.msg).toBe(1);
    expect(await policy(added.data.id)).toBe("closed");
    const chosen = await adminCall<Added>("POST", "/admin/exam/room/add", { ...body, title: "Room S", review_policy: "submitted" });
    expect(await policy(chosen.data.id)).toBe("submitted");
    // A room made outside the back office (an import, the seed) gets the same default.
    const inserted = await db.query<{ review_policy: string }>(
      "insert into exam_room (paper_id, title, start_time, end_time, duration) values ($1, 'Room I', $2, $3, 600) returning review_policy",
      [paper, now - 60, now + 3600],
    );
    expect(inserted.rows[0]!.review_policy).toBe("closed");
  });

  it("refuses a room on a paper whose rows do not add up to its total, and a pass score above that total", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const q1 = await createQuestion(db, bank);
    const q2 = await createQuestion(db, bank);
    // Rows give 4 + 2.5 = 6.5 points; the paper promises 10.
    const short = await createPaper(db, { rows: [{ fixed: q1, score: 4 }, { fixed: q2, score: 2.5 }], totalScore: 10, passScore: 6 });
    const good = await createPaper(db, { rows: [{ fixed: q1, score: 4 }, { fixed: q2, score: 2.5 }], totalScore: 6.5, passScore: 4 });
    const now = Math.floor(Date.now() / 1000);
    const body = { title: "Room T", start_time: now - 60, end_time: now + 3600, duration: 600, attempts_allowed: 1, pass_score: 5, review_policy: "never" };
    const rooms = async () => (await db.query<{ n: number }>("select count(*)::int as n from exam_room")).rows[0]!.n;
    const before = await rooms();

    const refused = await adminCall<Refused>("POST", "/admin/exam/room/add", { ...body, paper_id: short });
    expect(refused.code).toBe(0);
    expect(refused.data.fields.paper_id).toBe("This paper's questions add up to 6.5 points, not its total of 10: correct the paper before a room uses it");
    expect(await rooms()).toBe(before);

    const over = await adminCall<Refused>("POST", "/admin/exam/room/add", { ...body, paper_id: good, pass_score: 6.51 });
    expect(over.code).toBe(0);
    expect(over.data.fields.pass_score).toBe("The pass score cannot be above the paper's total of 6.5 points");
    expect(await rooms()).toBe(before);

    // At the total exactly: allowed.
    const added = await adminCall<Added>("POST", "/admin/exam/room/add", { ...body, paper_id: good, pass_score: 6.5 });
    expect(added.code, added.msg).toBe(1);
    const room = added.data.id;
    // An edit is held to the same rules: moving to the paper that does not add up, or raising the pass score.
    const moved = await adminCall<Refused>("POST", "/admin/exam/room/edit", { ...body, id: room, paper_id: short });
    expect(moved.data.fields.paper_id).toMatch(/add up to 6.5 points, not its total of 10/);
    const raised = await adminCall<Refused>("POST", "/admin/exam/room/edit", { ...body, id: room, paper_id: good, pass_score: 7 });
    expect(raised.data.fields.pass_score).toMatch(/above the paper's total of 6.5/);
    expect((await db.query<{ paper_id: number; pass_score: string }>("select paper_id, pass_score from exam_room where id = $1", [room])).rows[0]).toMatchObject({ paper_id: good });
    expect(Number((await db.query<{ pass_score: string }>("select pass_score from exam_room where id = $1", [room])).rows[0]!.pass_score)).toBe(6.5);
    // Fixed: the paper's total now matches its rows, and the room may use it.
    await adminCall("POST", "/admin/exam/paper/edit", { id: short, title: "Fixed", total_score: 6.5, pass_score: 4, duration: 1800 });
    expect((await adminCall("POST", "/admin/exam/room/edit", { ...body, id: room, paper_id: short })).code).toBe(1);

    // The room form prefills from the paper it picks: a remote select carries its pass score and duration.
    const picked = await adminCall<ListAnswer<Row>>("GET", `/admin/exam/paper/index?select=1&initKey=id&initValue=${good}`);
    expect(picked.data.list[0]).toMatchObject({ id: good, total_score: 6.5, pass_score: 4, duration: 3600, rows_total: 6.5 });
  });
});

describe("the composer's question suggestions", () => {
  it("carry each question's id, type and bank, so questions of the same text can be told apart", async () => {
    const stem = `Same text ${randomUUID()}`;
    const signs = await createBank(t.database.db, { title: "交通标志", titleEn: "Road signs" });
    const review = await createBank(t.database.db, { title: "复习", titleEn: "" });
    const first = await createQuestion(t.database.db, signs, { stem });
    const second = await createQuestion(t.database.db, review, { stem, type: "judge", answer: "T" });
    const picked = await adminCall<ListAnswer<Row>>("GET", `/admin/exam/question/index?select=1&quickSearch=${encodeURIComponent(stem)}&order=id,asc`);
    expect(picked.data.list).toEqual([
      expect.objectContaining({ id: first, type: "single", classify_id: signs, classify_title: "交通标志", classify_title_en: "Road signs", stem }),
      expect.objectContaining({ id: second, type: "judge", classify_id: review, classify_title: "复习", classify_title_en: "", stem }),
    ]);
  });
});

describe("draw rules with a difficulty", () => {
  it("stores and returns the difficulty, refuses a rule its bank cannot fill at that difficulty, and an official sitting draws only it", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    for (let i = 0; i < 3; i++) await createQuestion(db, bank, { difficulty: 1, score: 2 });
    const hard = [await createQuestion(db, bank, { difficulty: 4, score: 2 }), await createQuestion(db, bank, { difficulty: 4, score: 2 })];
    // Neither a disabled single nor a true-or-false question of difficulty 4 is a single a rule can draw.
    const off = await createQuestion(db, bank, { difficulty: 4 });
    await db.query("update exam_question set status = 'disable' where id = $1", [off]);
    await createQuestion(db, bank, { type: "judge", answer: "T", difficulty: 4 });
    const added = await adminCall<Added>("POST", "/admin/exam/paper/add", { title: "Hard singles", total_score: 4, pass_score: 2, duration: 600 });
    expect(added.code, added.msg).toBe(1);
    const paper = added.data.id;
    const rule = { paper_id: paper, kind: "draw", classify_id: bank, question_type: "single", score: 2 };

    // 5 enabled singles would fill 3 of any difficulty, but only 2 are of difficulty 4: refused beside the count, saying so.
    const tooMany = await adminCall<Refused>("POST", "/admin/exam/paperRow/add", { ...rule, difficulty: 4, count: 3 });
    expect(tooMany.code).toBe(0);
    expect(tooMany.data.fields.count).toBe("The bank has only 2 enabled questions of this type with difficulty 4: the draw rule cannot take 3");
    const none = await adminCall<Refused>("POST", "/admin/exam/paperRow/add", { ...rule, difficulty: 2, count: 1 });
    expect(none.data.fields.count).toMatch(/only 0 enabled questions of this type with difficulty 2/);
    const outOfRange = await adminCall<Refused>("POST", "/admin/exam/paperRow/add", { ...rule, difficulty: 6, count: 1 });
    expect(outOfRange.code).toBe(0);
    expect(outOfRange.data.fields.difficulty).toBe("Choose a difficulty from 1 to 5, or any");
    expect((await db.query("select id from exam_paper_row where paper_id = $1", [paper])).rows).toEqual([]);

    const draw = await adminCall<Added>("POST", "/admin/exam/paperRow/add", { ...rule, difficulty: 4, count: 2 });
    expect(draw.code, draw.msg).toBe(1);
    const id = draw.data.id;
    const stored = async () => (await db.query<{ difficulty: number | null; count: number }>("select difficulty, count from exam_paper_row where id = $1", [id])).rows[0];
    expect(await stored()).toEqual({ difficulty: 4, count: 2 });
    expect((await adminCall<EditAnswer<Row>>("GET", `/admin/exam/paperRow/edit?id=${id}`)).data.row).toMatchObject({ kind: "draw", question_type: "single", difficulty: 4, count: 2 });
    const listed = await adminCall<ListAnswer<Row>>("GET", `/admin/exam/paperRow/index?search[0][field]=paper_id&search[0][operator]=eq&search[0][val]=${paper}`);
    expect(listed.data.list).toHaveLength(1);
    expect(listed.data.list[0]).toMatchObject({ difficulty: 4, count: 2, subtotal: 4, paper_rows_total: 4 });
    // Any difficulty (null, or no difficulty sent at all, as an older back office does): the 5 singles fill 3.
    expect((await adminCall("POST", "/admin/exam/paperRow/edit", { ...rule, id, difficulty: null, count: 3 })).code).toBe(1);
    expect(await stored()).toEqual({ difficulty: null, count: 3 });
    expect((await adminCall("POST", "/admin/exam/paperRow/edit", { ...rule, id, count: 4 })).code).toBe(1);
    expect(await stored()).toEqual({ difficulty: null, count: 4 });
    expect((await adminCall<EditAnswer<Row>>("GET", `/admin/exam/paperRow/edit?id=${id}`)).data.row.difficulty).toBeNull();
    // Setting a difficulty the bank cannot fill is refused on edit too; the row keeps what it had.
    const narrow = await adminCall<Refused>("POST", "/admin/exam/paperRow/edit", { ...rule, id, difficulty: 4, count: 4 });
    expect(narrow.data.fields.count).toMatch(/only 2 enabled questions of this type with difficulty 4/);
    expect(await stored()).toEqual({ difficulty: null, count: 4 });
    expect((await adminCall("POST", "/admin/exam/paperRow/edit", { ...rule, id, difficulty: 4, count: 2 })).code).toBe(1);

    // Every sitting draws exactly the two enabled singles of difficulty 4.
    const roomId = await createRoom(db, paper, { passScore: 2, attemptsAllowed: 1 });
    for (let i = 0; i < 3; i++) {
      const start = await memberCall<OfficialStart>(await createMember(db), "POST", "/api/exam/official/start", { roomId });
      expect(start.code, start.msg).toBe(1);
      expect((start.data.questions as { id: number }[]).map((q) => q.id).sort()).toEqual([...hard].sort());
    }
  });

  it("never gives a sitting the same question twice when a rule of a difficulty and one of any difficulty share a bank", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await createQuestion(db, bank, { difficulty: 1 }));
    for (let i = 0; i < 2; i++) ids.push(await createQuestion(db, bank, { difficulty: 4 }));
    const paper = await createPaper(db, {
      totalScore: 5,
      passScore: 3,
      rows: [
        { fixed: ids[0]!, score: 1 },
        { draw: bank, type: "single", difficulty: 4, count: 2, score: 1 },
        { draw: bank, type: "single", count: 2, score: 1 },
      ],
    });
    const roomId = await createRoom(db, paper, { passScore: 3 });
    for (let i = 0; i < 6; i++) {
      const start = await memberCall<OfficialStart>(await createMember(db), "POST", "/api/exam/official/start", { roomId });
      expect(start.code, start.msg).toBe(1);
      // The fixed question, both of difficulty 4, then the two other singles: all five, once each.
      expect((start.data.questions as { id: number }[]).map((q) => q.id).sort()).toEqual([...ids].sort());
    }
  });

  it("tells the device a mock paper's difficulty and grades its mock attempts by the same rule", async () => {
    const db = t.database.db;
    const bank = await createBank(db);
    const easy = await createQuestion(db, bank, { difficulty: 1, answer: "A" });
    const hard = await createQuestion(db, bank, { difficulty: 5, answer: "A" });
    const paper = await createPaper(db, { totalScore: 3, passScore: 3, rows: [{ draw: bank, type: "single", difficulty: 5, count: 1, score: 3 }] });
    const m = await createMember(db);
    const described = await memberCall<{ rows: unknown }>(m, "GET", `/api/exam/paper?id=${paper}`);
    expect(described.code, described.msg).toBe(1);
    expect(described.data.rows).toEqual([{ kind: "draw", classifyId: bank, questionType: "single", difficulty: 5, count: 1, score: 3 }]);

    // A device that answered the easy question as well (drawn against the rule) has only the hard one counted.
    const attemptId = randomUUID();
    const payload = { attemptId, paperId: paper, startedAt: Date.now() - 60_000, submittedAt: Date.now(), answers: { [easy]: "A", [hard]: "A" } };
    const sync = await memberCall<SyncResults>(m, "POST", "/api/exam/sync", { ops: [{ id: randomUUID(), type: "attempt.submit", at: Date.now(), payload }] });
    expect(sync.data.results[0]!.status).toBe("applied");
    const record = await memberCall<ExamRecordDetail>(m, "GET", `/api/exam/record?uuid=${attemptId}`);
    expect(record.data.attempt).toMatchObject({ score: 3, passed: true });
    expect(Object.keys(record.data.results)).toEqual([String(hard)]);

    // An official room holding the easy question withholds it, yet this paper cannot draw it: still a mock paper.
    const easyPaper = await createPaper(db, { totalScore: 1, passScore: 1, rows: [{ fixed: easy, score: 1 }] });
    await createRoom(db, easyPaper);
    expect((await memberCall(m, "GET", `/api/exam/paper?id=${paper}`)).code).toBe(1);
    // Once a room holds the hard one, the paper could hand out a withheld question: no longer a mock paper.
    const hardPaper = await createPaper(db, { totalScore: 1, passScore: 1, rows: [{ fixed: hard, score: 1 }] });
    await createRoom(db, hardPaper);
    expect(await memberCall(m, "GET", `/api/exam/paper?id=${paper}`)).toMatchObject({ code: 0, msg: "This paper is kept for an official exam and cannot be taken as a mock exam" });
  });
});

describe("review policy", () => {
  it("shows answers after submission, after the room closes, or never", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const now = Math.floor(Date.now() / 1000);
    const seen: Record<string, unknown> = {};
    for (const policy of ["submitted", "closed", "never"] as const) {
      // A question of its own per room: another open room using it would keep it withheld.
      const q = await createQuestion(db, bank, { answer: "B", analysis: "B it is" });
      const paper = await createPaper(db, { rows: [{ fixed: q, score: 1 }], totalScore: 1, passScore: 1 });
      const room = await createRoom(db, paper, { reviewPolicy: policy, startTime: now - 60, endTime: now + 3600 });
      const m = await createMember(db);
      const { uuid } = await sit(m, room, () => "A");
      const record = await memberCall<ExamRecordDetail>(m, "GET", `/api/exam/record?uuid=${uuid}`);
      expect(record.code).toBe(1);
      seen[policy] = record.data.questions[0]!.answer ?? null;
      if (policy === "closed") {
        expect(record.data.results).toEqual({});
        // The room closes: now the member sees the answer and the result.
        await db.query("update exam_room set end_time = $1 where id = $2", [now - 1, room]);
        const after = await memberCall<ExamRecordDetail>(m, "GET", `/api/exam/record?uuid=${uuid}`);
        expect(after.data.questions[0]!.answer).toBe("B");
        expect(after.data.results[String(q)]).toEqual({ correct: false, score: 0 });
        await db.query("update exam_room set end_time = $1 where id = $2", [now + 3600, room]);
      }
    }
    expect(seen).toEqual({ submitted: "B", closed: null, never: null });
  });
});

describe("marking", () => {
  let paper: number;
  let room: number;
  let bank: number;
  let shortId: number;
  beforeAll(async () => {
    const db = t.database.db;
    bank = await createBank(db, { kind: "exam" });
    shortId = await shortQuestion(bank, 10);
    const single = await createQuestion(db, bank, { answer: "A", score: 5 });
    paper = await createPaper(db, { rows: [{ fixed: single, score: 5 }, { fixed: shortId, score: 10 }], totalScore: 15, passScore: 12 });
    room = await createRoom(db, paper, { passScore: 12, attemptsAllowed: 1, reviewPolicy: "never" });
  });

  async function queued(m: TestMember) {
    const list = await adminCall<ListAnswer<{ id: number }>>("GET", `/admin/exam/marking/index?search[0][field]=user_id&search[0][operator]=eq&search[0][val]=${m.id}`);
    expect(list.code, list.msg).toBe(1);
    return list.data.list;
  }

  it("queues the short answer; the mark updates the attempt once and the member sees score and comment", async () => {
    const m = await createMember(t.database.db);
    const { uuid, score } = await sit(m, room, (q) => (q.type === "short" ? "Light makes sugar" : "A"));
    // Provisional: 5 + keywords (1 of 2) = 10, not passed.
    expect(score).toBe(10);
    const item = (await queued(m))[0]!;
    expect(item).toMatchObject({ status: "pending", answer: "Light makes sugar", max_score: 10, question_id: shortId, reference: "Plants turn light into sugar." });

    const over = await adminCall<Refused>("POST", "/admin/exam/marking/mark", { id: item.id, score: 10.5, comment: "" });
    expect(over.code).toBe(0);
    expect(over.data.fields.score).toMatch(/from 0 to 10/);
    const marked = await adminCall<Row>("POST", "/admin/exam/marking/mark", { id: item.id, score: 8, comment: "Say where it happens." });
    expect(marked.code, marked.msg).toBe(1);
    expect(marked.data).toMatchObject({ score: 13, passed: true, needsReview: false });
    // A retried mark is refused and changes nothing.
    const again = await adminCall("POST", "/admin/exam/marking/mark", { id: item.id, score: 2, comment: "again" });
    expect(again).toMatchObject({ code: 0, msg: "This answer has already been marked" });
    const row = (await t.database.db.query<{ score: string; passed: boolean; needs_review: boolean }>("select score, passed, needs_review from exam_attempt where uuid = $1", [uuid])).rows[0]!;
    expect([Number(row.score), row.passed, row.needs_review]).toEqual([13, true, false]);

    const record = await memberCall<ExamRecordDetail>(m, "GET", `/api/exam/record?uuid=${uuid}`);
    expect(record.data.attempt).toMatchObject({ score: 13, passed: true });
    expect(record.data.reviews).toEqual({ [String(shortId)]: { score: 8, comment: "Say where it happens." } });
    // The review policy "never" still hides the answer key.
    expect(record.data.results).toEqual({});
    const list = await memberCall<{ list: ExamRecordRow[] }>(m, "GET", "/api/exam/records");
    expect(list.data.list.find((r) => r.uuid === uuid)).toMatchObject({ score: 13, passed: true });
  });

  it("counts one of many concurrent marks, from two servers", async () => {
    const second = await secondServer(t);
    try {
      const m = await createMember(t.database.db);
      const { uuid } = await sit(m, room, (q) => (q.type === "short" ? "nothing relevant" : "A"));
      const item = (await queued(m))[0]!;
      const fire = (app: typeof t.app, n: number) =>
        app.inject({ method: "POST", url: "/admin/exam/marking/mark", headers: { ...root.headers, "think-lang": "en" }, payload: { id: item.id, score: 7, comment: `c${n}` } }).then((r) => r.json<Envelope>());
      const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => fire(n % 2 ? second.app : t.app, n)));
      expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
      for (const a of answers.filter((x) => x.code !== 1)) expect(a.msg).toBe("This answer has already been marked");
      const row = (await t.database.db.query<{ score: string; passed: boolean }>("select score, passed from exam_attempt where uuid = $1", [uuid])).rows[0]!;
      expect([Number(row.score), row.passed]).toEqual([12, true]);
      const logs = (await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_mark where attempt_id = (select id from exam_attempt where uuid = $1) and status = 'marked'", [uuid])).rows[0]!.n;
      expect(logs).toBe(1);
    } finally {
      await second.close();
    }
  });

  it("keeps the mark when a late answer is accepted later (graded from what the attempt holds)", async () => {
    const db = t.database.db;
    const m = await createMember(db);
    const { uuid } = await sit(m, room, (q) => (q.type === "short" ? "light" : undefined));
    const item = (await queued(m))[0]!;
    expect((await adminCall("POST", "/admin/exam/marking/mark", { id: item.id, score: 6, comment: "" })).code).toBe(1);
    const attempt = (await db.query<{ id: number; questions: { id: number }[] }>("select id, questions from exam_attempt where uuid = $1", [uuid])).rows[0]!;
    const single = attempt.questions.find((q) => q.id !== shortId)!.id;
    const late = await db.query<{ id: number }>("insert into exam_late_answer (attempt_id, question_id, answer, received_at) values ($1, $2, '\"A\"', $3) returning id", [attempt.id, single, Date.now()]);
    const decided = await adminCall<Row>("POST", "/admin/exam/lateAnswer/decide", { id: late.rows[0]!.id, decision: "accepted" });
    expect(decided.code, decided.msg).toBe(1);
    expect(decided.data).toMatchObject({ score: 11, passed: false });
    expect((await adminCall("POST", "/admin/exam/lateAnswer/decide", { id: late.rows[0]!.id, decision: "rejected" })).msg).toBe("This late answer has already been decided");
  });

  it("refuses hostile marking input cleanly", async () => {
    for (const payload of [{ id: 2_147_483_647, score: 1 }, { id: "1", score: 1 }, { id: 1, score: -1 }, { id: 1, score: 1, comment: "a\u0000b" }, { id: 1, score: 1, comment: "x".repeat(3000) }]) {
      const res = await t.app.inject({ method: "POST", url: "/admin/exam/marking/mark", headers: root.headers, payload });
      expect(res.statusCode).toBe(200);
      expect(res.json().code).toBe(0);
    }
  });
});

describe("results per room", () => {
  it("lists attempts with score, time used and status, the distribution and item analysis, and exports .xlsx", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const q1 = await createQuestion(db, bank, { answer: "A", score: 5, stem: "First" });
    const q2 = await createQuestion(db, bank, { answer: "B", score: 5, stem: "=SUM(A1)" });
    const paper = await createPaper(db, { rows: [{ fixed: q1, score: 5 }, { fixed: q2, score: 5 }], totalScore: 10, passScore: 5 });
    const room = await createRoom(db, paper, { passScore: 5, attemptsAllowed: 2 });
    const ann = await createMember(db, { username: "=ann" });
    const bob = await createMember(db);
    const cid = await createMember(db);
    await sit(ann, room, (q) => (q.id === q1 ? "A" : "B")); // 10
    await sit(bob, room, (q) => (q.id === q1 ? "A" : "C")); // 5
    await sit(cid, room, () => "C"); // 0
    await sit(cid, room, (q) => (q.id === q1 ? "C" : "B")); // 5, second attempt
    await db.query("update exam_attempt set started_at = submitted_at - 95 where room_id = $1", [room]);

    const res = await adminCall<RoomResults>("GET", `/admin/exam/room/results?id=${room}`);
    expect(res.code, res.msg).toBe(1);
    const r = res.data;
    expect(r.attempts).toHaveLength(4);
    expect(r.attempts.map((a) => [a.username, a.score, a.passed, a.status, a.timeUsed])).toEqual([
      ["=ann", 10, true, "submitted", 95],
      [bob.username, 5, true, "submitted", 95],
      [cid.username, 0, false, "submitted", 95],
      [cid.username, 5, true, "submitted", 95],
    ]);
    expect(r.summary).toMatchObject({ attempts: 4, members: 3, finished: 4, passed: 3, average: 5, highest: 10, lowest: 0 });
    const counts = r.distribution.map((d) => d.count);
    expect(counts).toEqual([1, 0, 0, 0, 0, 2, 0, 0, 0, 1]);
    // q1: ann and bob right, cid never (3 members, 2 right); q2: ann and cid (on the second try).
    expect(r.items).toEqual([
      { questionId: q1, stem: "First", type: "single", attempts: 3, correct: 2, share: 0.6667 },
      { questionId: q2, stem: "=SUM(A1)", type: "single", attempts: 3, correct: 2, share: 0.6667 },
    ]);

    const file = await t.app.inject({ method: "GET", url: `/admin/exam/room/export?id=${room}`, headers: { ...root.headers, "think-lang": "en" } });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toMatch(/spreadsheetml/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet("Attempts")!;
    expect(sheet.getRow(1).values).toContain("Username");
    const rows = [2, 3, 4, 5].map((n) => [sheet.getRow(n).getCell(2).value, sheet.getRow(n).getCell(4).value, sheet.getRow(n).getCell(9).value]);
    expect(rows).toEqual([
      ["=ann", 10, 95],
      [bob.username, 5, 95],
      [cid.username, 0, 95],
      [cid.username, 5, 95],
    ]);
    // A member's "=..." is text, never a formula.
    expect(sheet.getRow(2).getCell(2).type).toBe(ExcelJS.ValueType.String);
    // Times are date cells showing the reader's clock as the back office writes them (2026-11-27 17:45:46).
    expect(sheet.getRow(1).getCell(8).value).toBe("Submitted at");
    const zoned = await t.app.inject({ method: "GET", url: `/admin/exam/room/export?id=${room}&tz=Asia/Kathmandu`, headers: { ...root.headers, "think-lang": "en" } });
    const zonedBook = new ExcelJS.Workbook();
    await zonedBook.xlsx.load(zoned.rawPayload as unknown as ArrayBuffer);
    const started = zonedBook.getWorksheet("Attempts")!.getRow(2).getCell(7);
    expect(started.type).toBe(ExcelJS.ValueType.Date);
    expect(started.numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    // Kathmandu is UTC+05:45 all year: the cell reads the moment 5 h 45 min on from UTC.
    expect((started.value as Date).getTime() / 1000).toBe(r.attempts[0]!.startedAt + 5 * 3600 + 45 * 60);
    const unknownZone = await t.app.inject({ method: "GET", url: `/admin/exam/room/export?id=${room}&tz=Mars/Olympus`, headers: { ...root.headers, "think-lang": "en" } });
    expect(unknownZone.json()).toMatchObject({ code: 0, msg: "Unknown time zone" });
    const items = book.getWorksheet("Item analysis")!;
    expect(items.getRow(1).getCell(3).value).toBe("Members answering");
    expect(items.getRow(3).getCell(2).value).toBe("=SUM(A1)");
    expect(items.getRow(3).getCell(5).value).toBe(0.6667);

    // An unknown room: a clear refusal, not a broken file.
    expect((await adminCall("GET", "/admin/exam/room/results?id=2147483647")).msg).toBe("This exam room does not exist");
    const missing = await t.app.inject({ method: "GET", url: "/admin/exam/room/export?id=2147483647", headers: root.headers });
    expect(missing.json().code).toBe(0);
  });
});

describe("rooms and papers are history once used", () => {
  it("keeps a room members have sat, and a paper rooms use, from deletion; unused ones go", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const q = await createQuestion(db, bank);
    const paper = await createPaper(db, { rows: [{ fixed: q, score: 1 }] });
    const sat = await createRoom(db, paper, { title: "Sat room" });
    const unsat = await createRoom(db, paper, { title: "Empty room" });
    const m = await createMember(db);
    expect((await memberCall(m, "POST", "/api/exam/official/start", { roomId: sat })).code).toBe(1);

    const refused = await adminCall("DELETE", `/admin/exam/room/del?ids=${sat},${unsat}`);
    expect(refused.code).toBe(0);
    expect(refused.msg).toBe("Members have sat this room: it cannot be deleted; disable it instead");
    expect((await db.query("select id from exam_room where id = any($1::int[])", [[sat, unsat]])).rows).toHaveLength(2);

    // A paper only rooms use (no attempt yet): deleting it would take the rooms with it.
    const spare = await createPaper(db, { rows: [{ fixed: q, score: 1 }] });
    await createRoom(db, spare, { title: "Planned room" });
    const kept = await adminCall("DELETE", `/admin/exam/paper/del?ids=${spare}`);
    expect(kept.code).toBe(0);
    expect(kept.msg).toBe("Exam rooms use this paper (“Planned room”): give them another paper or delete them first");
    expect((await db.query("select id from exam_room where paper_id = $1", [spare])).rows).toHaveLength(1);

    expect((await adminCall("DELETE", `/admin/exam/room/del?ids=${unsat}`)).code).toBe(1);
    const unused = await createPaper(db, { rows: [{ fixed: q, score: 1 }] });
    expect((await adminCall("DELETE", `/admin/exam/paper/del?ids=${unused}`)).code).toBe(1);
  });
});
