import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListAnswer } from "../../src/shared/admin/crud.ts";
import type { RoomResults } from "../../src/shared/admin/rooms.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createAttempt, createBank, createMember, createPaper, createQuestion, createRoom, type TestAdmin } from "../helpers/factories.ts";
import { referenceItems } from "../helpers/itemAnalysis.ts";

/**
 * A room's item analysis counts each attempt's per-question outcome kept when it is graded
 * (`exam_attempt.graded_questions` / `right_questions`, migration 0059; modules/exam/attempts/outcomes.ts)
 * instead of grading every attempt at every view. These check that it equals the grading it
 * replaced (every finished attempt's snapshot graded with its answers and marks: tests/helpers/itemAnalysis.ts)
 * after a submission, a marker's mark of a short answer and a regrade, and that an attempt graded
 * before the outcomes were kept gets the same outcomes from the results' first view.
 */

let t: TestApp;
let root: TestAdmin;
const { adminCall, memberCall } = callers(() => t.app);

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

type Outcomes = { id: number; graded_questions: number[] | null; right_questions: number[] | null };
const outcomesOf = async (ids: number[]) =>
  (await t.database.db.query<Outcomes>("select id, graded_questions, right_questions from exam_attempt where id = any($1::int[]) order by id", [ids])).rows;
const resultsOf = async (room: number) => {
  const res = await adminCall<RoomResults>(root, "GET", `/admin/exam/room/results?id=${room}`);
  expect(res.code, res.msg).toBe(1);
  return res.data;
};

describe("a room's item analysis from the outcomes kept at grading", () => {
  it("equals grading every attempt at the view, after submissions, a mark and a regrade, and fills attempts graded before", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const q1 = await createQuestion(db, bank, { answer: "A", score: 2, stem: "Pick one" });
    const q2 = await createQuestion(db, bank, { type: "multiple", answer: ["A", "C"], score: 2, stem: "Pick some" });
    const q3 = await createQuestion(db, bank, { type: "short", options: [], answer: { keywords: ["light"], reference: "Light." }, score: 2, stem: "Explain" });
    const paper = await createPaper(db, { rows: [{ fixed: q1, score: 4 }, { fixed: q2, score: 6 }, { fixed: q3, score: 10 }], totalScore: 20, passScore: 10, partialCredit: true });
    const room = await createRoom(db, paper, { passScore: 10, attemptsAllowed: 2 });
    const sit = async (answers: Record<number, unknown>, member?: Awaited<ReturnType<typeof createMember>>) => {
      const m = member ?? (await createMember(db));
      const start = await memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId: room });
      expect(start.code, start.msg).toBe(1);
      const submit = await memberCall(m, "POST", "/api/exam/official/submit", { uuid: start.data.attempt.uuid, answers });
      expect(submit.code, submit.msg).toBe(1);
      return { m, id: (await db.query<{ id: number }>("select id from exam_attempt where uuid = $1", [start.data.attempt.uuid])).rows[0]!.id };
    };
    const ann = await sit({ [q1]: "A", [q2]: ["A", "C"], [q3]: "light" });
    const bob = await sit({ [q1]: "B", [q2]: ["A"], [q3]: "dark" });
    const carl = await sit({ [q1]: "A" });
    // An attempt made by other means (no grading ran on it): the results grade it from its snapshot.
    const dora = await createMember(db);
    const made = await createAttempt(db, room, dora.id);
    await db.query("update exam_attempt set answers = $2::jsonb, questions = $3::jsonb where id = $1", [made, JSON.stringify({ [q1]: "B", [q2]: ["C"] }), JSON.stringify([{ id: q1 }, { id: q2 }, { id: q3 }])]);
    const finished = [ann.id, bob.id, carl.id, made];

    // Kept at submission, before any view: every question graded; right as grading decided (the short answers undecided).
    expect(await outcomesOf([ann.id, bob.id, carl.id])).toEqual([
      { id: ann.id, graded_questions: [q1, q2, q3], right_questions: [q1, q2] },
      { id: bob.id, graded_questions: [q1, q2, q3], right_questions: [] },
      { id: carl.id, graded_questions: [q1, q2, q3], right_questions: [q1] },
    ]);
    expect(await outcomesOf([made])).toEqual([{ id: made, graded_questions: null, right_questions: null }]);
    let results = await resultsOf(room);
    expect(results.items).toEqual(await referenceItems(db, finished));
    expect(results.items.map((i) => [i.questionId, i.attempts, i.correct])).toEqual([
      [q1, 4, 2],
      [q2, 4, 1],
      [q3, 4, 0],
    ]);
    // The attempt made by other means was graded once by the view and its outcomes kept.
    expect(await outcomesOf([made])).toEqual([{ id: made, graded_questions: [q1, q2, q3], right_questions: [] }]);

    // A marker gives Ann's short answer full marks and Bob's part: Ann's q3 counts as right, Bob's not.
    const queue = (await adminCall<ListAnswer<{ id: number; attempt_id: number; status: string }>>(root, "GET", "/admin/exam/marking/index?limit=100")).data.list;
    for (const [who, score] of [
      [ann, 10],
      [bob, 4],
    ] as const) {
      const mark = queue.find((r) => r.attempt_id === who.id && r.status === "pending")!;
      expect((await adminCall(root, "POST", "/admin/exam/marking/mark", { id: mark.id, score, comment: "seen" })).code).toBe(1);
    }
    expect((await outcomesOf([ann.id]))[0]!.right_questions).toEqual([q1, q2, q3]);
    results = await resultsOf(room);
    expect(results.items).toEqual(await referenceItems(db, finished));
    expect(results.items.find((i) => i.questionId === q3)).toMatchObject({ attempts: 4, correct: 1 });
    expect(results.attempts.find((a) => a.id === bob.id)).toMatchObject({ score: 7, pendingMarks: 0 }); // q2 half right (partial credit 3) + marked 4

    // Carl sits again and gets q2 right: a member counts once, with their best result.
    const again = await sit({ [q1]: "B", [q2]: ["A", "C"] }, carl.m);
    finished.push(again.id);
    results = await resultsOf(room);
    expect(results.items).toEqual(await referenceItems(db, finished));
    expect(results.items.find((i) => i.questionId === q2)).toMatchObject({ attempts: 4, correct: 2 });

    // Staff correct q1's key to B and regrade: the kept outcomes follow (marks kept).
    await db.query(`update exam_question set answer = '"B"' where id = $1`, [q1]);
    const regraded = await adminCall(root, "POST", "/admin/exam/room/regrade", { id: room, questionIds: [q1] });
    expect(regraded.code, regraded.msg).toBe(1);
    results = await resultsOf(room);
    expect(results.items).toEqual(await referenceItems(db, finished));
    // B is right now: Bob, Carl's second attempt and Dora's.
    expect(results.items.find((i) => i.questionId === q1)).toMatchObject({ attempts: 4, correct: 3 });
    expect(await outcomesOf([ann.id, bob.id])).toEqual([
      { id: ann.id, graded_questions: [q1, q2, q3], right_questions: [q2, q3] },
      { id: bob.id, graded_questions: [q1, q2, q3], right_questions: [q1] },
    ]);

    // Attempts graded before outcomes were kept (as after migration 0059): the view grades them
    // as before and keeps the same outcomes; the analysis does not change.
    const kept = await outcomesOf(finished);
    await db.query("update exam_attempt set graded_questions = null, right_questions = null where id = any($1::int[])", [finished]);
    const refilled = await resultsOf(room);
    expect(refilled.items).toEqual(results.items);
    expect(await outcomesOf(finished)).toEqual(kept);
  });
});
