import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RoomResults } from "../../src/shared/admin/rooms.ts";
import { snapshotsOf } from "../../src/server/modules/exam/attempts/snapshot.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createAttempt, createBank, createMember, createPaper, createQuestion, createRoom, type TestAdmin } from "../helpers/factories.ts";
import { referenceItems } from "../helpers/itemAnalysis.ts";

/**
 * A room's item analysis grades attempts that have no kept outcomes yet (made here by other means,
 * as those graded before migration 0059: modules/exam/attempts/outcomes.ts) from their snapshots grouped (attempts that
 * sat the same questions with the same keys and points are read once: gradingGroupsOf, issue 42) and each
 * question's stem from the first attempt that sat it. These check it against the reading it
 * replaced — every attempt's whole snapshot graded on its own, stems by `distinct on` over all of
 * them — on a room whose attempts sat different versions of a question, one with a question
 * deleted before its snapshot, and some with no snapshot yet.
 */

let t: TestApp;
let root: TestAdmin;
const { adminCall } = callers(() => t.app);

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

describe("a room's item analysis over grouped snapshots", () => {
  it("equals grading each attempt's whole snapshot, with versions, a deleted question and attempts without snapshots", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const q1 = await createQuestion(db, bank, { answer: "A", score: 2, stem: "First version" });
    const q2 = await createQuestion(db, bank, { type: "multiple", answer: ["A", "C"], score: 2, stem: "Multiple" });
    const q3 = await createQuestion(db, bank, { type: "judge", answer: "T", score: 2, stem: "Judge" });
    const paper = await createPaper(db, { rows: [{ fixed: q1, score: 4 }, { fixed: q2, score: 4 }, { fixed: q3, score: 2 }], partialCredit: true });
    const room = await createRoom(db, paper);
    const sit = async (answers: Record<number, unknown>, status: "submitted" | "open" = "submitted") => {
      const member = await createMember(db);
      const id = await createAttempt(db, room, member.id, { status });
      await db.query("update exam_attempt set answers = $2::jsonb, questions = $3::jsonb where id = $1", [
        id,
        JSON.stringify(answers),
        JSON.stringify([q1, q2, q3].map((q) => ({ id: q }))),
      ]);
      return { id, member: member.id };
    };
    // Sat the first version: snapshots made now (as the results would make them for attempts without one).
    const early = [await sit({ [q1]: "A", [q2]: ["A", "C"], [q3]: "T" }), await sit({ [q1]: "B", [q2]: ["A"], [q3]: "F" }), await sit({ [q1]: "A", [q2]: ["C"] })];
    await snapshotsOf(db, early.map((a) => a.id));
    // The key of q1 changes (B is right from now on): later attempts sat the second version.
    await db.query("update exam_question set answer = '\"B\"'::jsonb, stem = 'Second version', version = version + 1 where id = $1", [q1]);
    const late = [await sit({ [q1]: "B", [q2]: ["A", "C"], [q3]: "T" }), await sit({ [q1]: "A", [q2]: ["A", "C", "D"], [q3]: "T" })];
    // One attempt sat a question deleted before its snapshot was made (kept as `missing`).
    const gone = await sit({ [q1]: "B", [q3]: "T" });
    await db.query(
      `insert into exam_attempt_snapshot (attempt_id, paper, questions)
       select $1, s.paper, jsonb_build_array(s.questions -> 0, jsonb_build_object('id', 999999, 'score', 4, 'missing', true), s.questions -> 2)
       from exam_attempt_snapshot s where s.attempt_id = $2`,
      [gone.id, early[0]!.id],
    );
    // A member sits again (their best result counts), and an open attempt is left out.
    const again = await createAttempt(db, room, late[0]!.member);
    await db.query("update exam_attempt set answers = $2::jsonb, questions = $3::jsonb where id = $1", [again, JSON.stringify({ [q1]: "A" }), JSON.stringify([{ id: q1 }, { id: q2 }, { id: q3 }])]);
    await sit({ [q1]: "B" }, "open");

    // late[*] and `again` have no snapshot yet: the results make them, from the questions as they are now.
    const res = await adminCall<RoomResults>(root, "GET", `/admin/exam/room/results?id=${room}`);
    expect(res.code, res.msg).toBe(1);
    const finished = [...early, ...late, gone].map((a) => a.id).concat(again);
    const expected = await referenceItems(t.database.db, finished);
    expect(res.data.items).toEqual(expected);
    // The case is not trivial: two versions of q1 (its stem as first sat), partial credit on q2, a member counted once.
    expect(res.data.items.find((i) => i.questionId === q1)).toEqual({ questionId: q1, stem: "First version", type: "single", attempts: 6, correct: 3, share: 0.5 });
    expect(res.data.items.map((i) => i.questionId)).toEqual([q1, q2, q3]);
    expect(res.data.summary).toMatchObject({ attempts: 8, finished: 7 });
  });
});
