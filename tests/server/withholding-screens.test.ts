import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListAnswer } from "../../src/shared/admin/crud.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createPaper, createQuestion, createRoom, type TestAdmin } from "../helpers/factories.ts";

/**
 * Withholding made visible: the papers screen says whether each paper is a mock paper
 * now and why not (a room keeps it until it closes, exam-only questions, questions another exam
 * keeps); the banks screen how many of a practice bank's questions exams keep out, until when.
 */

let t: TestApp;
let root: TestAdmin;
const { memberCall: call } = callers(() => t.app);
/** A row of the papers or banks list: what exams keep from practice (the papers' `withholding`, the banks' `withheld`). */
type Row = { id: number; withholding?: unknown; withheld?: unknown };
const list = async (path: string, ids: number[]) => {
  const r = await call<ListAnswer<Row>>(root, "GET", `/admin/${path}/index?limit=100`);
  expect(r.code).toBe(1);
  return new Map(r.data.list.filter((row) => ids.includes(row.id)).map((row) => [row.id, row]));
};

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

describe("what exams keep from practice, on the papers and banks screens", () => {
  it("says which papers are mock papers and why not, and how many bank questions are kept until when", async () => {
    const db = t.database.db;
    const practice = await createBank(db);
    const exam = await createBank(db, { kind: "exam" });
    const [a, b, c] = [await createQuestion(db, practice), await createQuestion(db, practice), await createQuestion(db, practice)];
    const e = await createQuestion(db, exam);
    const kept = await createPaper(db, { rows: [{ fixed: a }, { fixed: b }] });
    const sharing = await createPaper(db, { rows: [{ fixed: b }, { fixed: c }] });
    const examOnly = await createPaper(db, { rows: [{ fixed: e }] });
    const papers = [kept, sharing, examOnly];

    const before = await list("exam/paper", papers);
    expect(papers.map((p) => before.get(p)!.withholding)).toEqual([
      { mock: true, rooms: [], examOnly: false },
      { mock: true, rooms: [], examOnly: false },
      { mock: false, rooms: [], examOnly: true },
    ]);
    expect((await list("exam/classify", [practice])).get(practice)!.withheld).toBeNull();

    const end = Math.floor(Date.now() / 1000) + 3600;
    await createRoom(db, kept, { title: "Final exam", endTime: end });
    // A room that has closed keeps nothing.
    await createRoom(db, sharing, { title: "Old exam", startTime: end - 90_000, endTime: Math.floor(Date.now() / 1000) - 10 });

    const after = await list("exam/paper", papers);
    expect(after.get(kept)!.withholding).toEqual({ mock: false, rooms: [{ title: "Final exam", until: end }], examOnly: false });
    // It shares question b with the kept paper: no room of its own keeps it, yet it is no mock paper now.
    expect(after.get(sharing)!.withholding).toEqual({ mock: false, rooms: [], examOnly: false });
    expect(after.get(examOnly)!.withholding).toEqual({ mock: false, rooms: [], examOnly: true });
    expect((await list("exam/classify", [practice])).get(practice)!.withheld).toEqual({ count: 2, until: end });
  });
});
