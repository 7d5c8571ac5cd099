import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradeAnswer } from "../../src/shared/exam/grading.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, createBank, createMember, createQuestion, type TestAdmin, type TestMember } from "../helpers/factories.ts";

/**
 * The question back office: questions of every kind written as the grader reads them,
 * inconsistent questions refused with the field to blame, and every write (add, edit, disable,
 * move, delete) changing the bank's content version, so devices download the bank again.
 */

let t: TestApp;
let root: TestAdmin;
let member: TestMember;
let bank: number;

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
  member = await createMember(t.database.db);
  bank = await createBank(t.database.db);
});
afterAll(() => t.close());

const post = async (action: string, payload: unknown) =>
  (await t.app.inject({ method: "POST", url: `/admin/exam/question/${action}`, headers: root.headers, payload: payload as object })).json();
const opts = (...texts: string[]) => texts.map((text, i) => ({ key: "ABCDEFGH"[i]!, text }));
const base = () => ({ classify_id: bank, stem: "A question", score: 2, difficulty: 3 });

async function etag(id = bank): Promise<string> {
  const res = await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${id}`, headers: member.headers });
  expect(res.statusCode).toBe(200);
  return res.headers.etag as string;
}

async function stored(id: number) {
  const { rows } = await t.database.db.query<{ type: string; options: unknown; answer: unknown; score: string }>("select type, options, answer, score from exam_question where id = $1", [id]);
  return rows[0]!;
}

describe("per-kind questions", () => {
  it("stores each kind exactly as the grader reads it", async () => {
    const cases = [
      { body: { type: "single", options: opts("a", "b", "c"), answer: "C" }, right: "c", wrong: "A" },
      { body: { type: "multiple", options: opts("a", "b", "c", "d"), answer: ["D", "A"] }, right: ["A", "D"], wrong: ["A"] },
      { body: { type: "judge", answer: "F" }, right: "F", wrong: "T" },
      { body: { type: "fill", stem: "Founded in ____, capital ____", answer: [" 1949 | 一九四九 ", "Beijing"] }, right: ["一九四九", "beijing"], wrong: ["1950", "Beijing"] },
      { body: { type: "short", answer: { keywords: ["tilt", "orbit"], reference: "Because of the tilt." } }, right: "tilt and orbit", wrong: "no idea" },
    ];
    for (const c of cases) {
      const res = await post("add", { ...base(), ...c.body });
      expect(res, JSON.stringify(c.body)).toMatchObject({ code: 1 });
      const row = await stored(res.data.id);
      const q = { type: row.type as "single", answer: row.answer as string, score: 2 };
      expect(gradeAnswer(q, c.right).score, c.body.type).toBe(2);
      expect(gradeAnswer(q, c.wrong).score, c.body.type).toBeLessThan(2);
    }
    // Canonical forms: sorted keys, trimmed alternatives.
    const multiple = await post("add", { ...base(), type: "multiple", options: opts("a", "b", "c"), answer: ["C", "A"] });
    expect((await stored(multiple.data.id)).answer).toEqual(["A", "C"]);
    const fill = await post("add", { ...base(), type: "fill", stem: "Say ____", answer: [" x | y "] });
    expect((await stored(fill.data.id)).answer).toEqual(["x|y"]);
  });

  it("refuses inconsistent questions with a message beside the field, writing nothing", async () => {
    const { rows: before } = await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_question");
    const refused: [Record<string, unknown>, string, RegExp][] = [
      [{ type: "single", options: opts("a", "b", "c", "d"), answer: "E" }, "answer", /answer E is not among the options/],
      [{ type: "single", options: opts("a"), answer: "A" }, "options", /at least 2 options/],
      [{ type: "single", options: opts("a", "", "c"), answer: "A" }, "options", /Option B is empty/],
      [{ type: "single", options: [{ key: "A", text: "a" }, { key: "C", text: "c" }], answer: "A" }, "options", /keyed A, B, C/],
      [{ type: "multiple", options: opts("a"), answer: ["A"] }, "options", /at least 2 options/],
      [{ type: "multiple", options: opts("a", "b", "c"), answer: [] }, "answer", /Choose the correct options/],
      [{ type: "multiple", options: opts("a", "b", "c"), answer: ["A", "A"] }, "answer", /chosen twice/],
      [{ type: "multiple", options: opts("a", "b", "c"), answer: "A" }, "answer", /Choose the correct options/],
      [{ type: "judge", answer: "X" }, "answer", /true \(T\) or false \(F\)/],
      [{ type: "judge", options: opts("yes", "no"), answer: "T" }, "options", /no options/],
      [{ type: "fill", answer: [] }, "answer", /at least one blank/],
      [{ type: "fill", stem: "Say ____", answer: ["a||b"] }, "answer", /Blank 1 has an empty accepted answer/],
      // The blanks of the text and of the answer must match: both counts named.
      [{ type: "fill", stem: "No blank here", answer: ["a"] }, "answer", /text has 0 blanks .* answer has 1/],
      [{ type: "fill", stem: "One ____ only", answer: ["a", "b"] }, "answer", /text has 1 blanks .* answer has 2/],
      [{ type: "fill", stem: "Two ____ and ____ blanks", answer: ["a"] }, "answer", /text has 2 blanks .* answer has 1/],
      [{ type: "fill", stem: "An image is no blank ![](/storage/question/a__b.png) ____", answer: ["a", "b"] }, "answer", /text has 1 blanks .* answer has 2/],
      [{ type: "short", answer: { keywords: [], reference: "" } }, "answer", /at least one keyword/],
      [{ type: "short", answer: "just text" }, "answer", /keywords/],
      [{ type: "single", options: opts("a", "b"), answer: "A", classify_id: 2_000_000_000 }, "classify_id", /bank does not exist/],
      [{ type: "single", options: opts("a", "b"), answer: "A", difficulty: 6 }, "difficulty", /1 to 5/],
      [{ type: "single", options: opts("a", "b"), answer: "A", score: 1.234 }, "score", /2 decimals/],
      [{ type: "single", options: opts(..."abcdefghi".split("")), answer: "A" }, "options", /At most 8 options/],
    ];
    for (const [body, field, message] of refused) {
      const res = await t.app.inject({ method: "POST", url: "/admin/exam/question/add", headers: root.headers, payload: { ...base(), ...body } });
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      const json = res.json();
      expect(json.code, JSON.stringify(body)).toBe(0);
      expect(json, JSON.stringify(body)).toMatchObject({ data: { fields: { [field]: expect.stringMatching(message) } } });
    }
    // Text PostgreSQL cannot store is refused before validation (the envelope's own message).
    for (const stem of ["x\u0000y", "\ud800", "x".repeat(5001)]) {
      const res = await t.app.inject({ method: "POST", url: "/admin/exam/question/add", headers: root.headers, payload: { ...base(), type: "judge", answer: "T", stem } });
      expect(res.statusCode).toBe(200);
      expect(res.json().code).toBe(0);
    }
    const { rows: after } = await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_question");
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("answers a question's row with its options and answer for the editor", async () => {
    const res = await post("add", { ...base(), type: "multiple", options: opts("x", "y", "z"), answer: ["B", "C"], analysis: "why" });
    const row = (await t.app.inject({ method: "GET", url: `/admin/exam/question/edit?id=${res.data.id}`, headers: root.headers })).json();
    expect(row.data.row).toMatchObject({ type: "multiple", options: opts("x", "y", "z"), answer: ["B", "C"], analysis: "why", difficulty: 3 });
  });

  it("question types: names and default scores editable, the kind fixed, no add or delete", async () => {
    const { rows } = await t.database.db.query<{ id: number }>("select id from exam_question_type where type = 'fill'");
    const id = rows[0]!.id;
    const res = await t.app.inject({ method: "POST", url: "/admin/exam/questionType/edit", headers: root.headers, payload: { id, type: "short", title: "填空", title_en: "Blanks", default_score: 3.5 } });
    expect(res.json().code).toBe(1);
    const { rows: after } = await t.database.db.query("select type, title, title_en, default_score::float as s from exam_question_type where id = $1", [id]);
    expect(after[0]).toEqual({ type: "fill", title: "填空", title_en: "Blanks", s: 3.5 });
    expect((await t.app.inject({ method: "POST", url: "/admin/exam/questionType/add", headers: root.headers, payload: { title: "x" } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "DELETE", url: `/admin/exam/questionType/del?ids[]=${id}`, headers: root.headers })).statusCode).toBe(404);
  });

  it("a bank with sub-banks or used by a paper cannot be deleted", async () => {
    const parent = await createBank(t.database.db);
    await createBank(t.database.db, { pid: parent });
    const res = await t.app.inject({ method: "DELETE", url: `/admin/exam/classify/del?ids[]=${parent}`, headers: root.headers });
    expect(res.json()).toMatchObject({ code: 0, msg: expect.stringMatching(/sub-banks/) });
    const used = await createBank(t.database.db);
    await t.database.db.query("insert into exam_paper (title) values ('p')");
    await t.database.db.query("insert into exam_paper_row (paper_id, kind, classify_id, count, score) values ((select max(id) from exam_paper), 'draw', $1, 1, 1)", [used]);
    const refused = await t.app.inject({ method: "DELETE", url: `/admin/exam/classify/del?ids[]=${used}`, headers: root.headers });
    expect(refused.json()).toMatchObject({ code: 0, msg: expect.stringMatching(/paper/) });
    expect((await t.database.db.query("select 1 from exam_classify where id = $1", [used])).rows).toHaveLength(1);
  });

  it("a bank's kind is set by its form: exam-only on add, back to practice on edit, kept when left out", async () => {
    const write = async (action: "add" | "edit", payload: object) =>
      (await t.app.inject({ method: "POST", url: `/admin/exam/classify/${action}`, headers: root.headers, payload })).json();
    const kindOf = async (id: number) => (await t.database.db.query<{ kind: string }>("select kind from exam_classify where id = $1", [id])).rows[0]!.kind;
    const added = await write("add", { pid: 0, title: "Exam-only bank", kind: "exam" });
    expect(added.code).toBe(1);
    const id = (await t.database.db.query<{ id: number }>("select id from exam_classify where title = 'Exam-only bank'")).rows[0]!.id;
    expect(await kindOf(id)).toBe("exam");
    expect((await write("edit", { id, pid: 0, title: "Exam-only bank", kind: "practice" })).code).toBe(1);
    expect(await kindOf(id)).toBe("practice");
    expect((await write("edit", { id, pid: 0, title: "Renamed bank" })).code).toBe(1);
    expect(await kindOf(id)).toBe("practice");
    expect((await write("add", { pid: 0, title: "Odd bank", kind: "other" })).code).toBe(0);
  });
});

describe("the bank's content version", () => {
  it("changes on every add, edit (twice within a second too), disable, move, reorder, bank rename and delete, so devices download the bank again", async () => {
    const own = await createBank(t.database.db);
    const other = await createBank(t.database.db);
    await createQuestion(t.database.db, own);
    // Each write changes the version from the one before (a state seen before may come back only
    // with the same content: disabling the question just added leaves the bank as it was).
    let previous = await etag(own);
    const step = async (label: string, write: () => Promise<unknown>) => {
      await write();
      const tag = await etag(own);
      expect(tag, label).not.toBe(previous);
      previous = tag;
    };
    const body = { classify_id: own, type: "single", stem: "Capital of France?", options: opts("Paris", "Rome"), answer: "A", score: 2 };
    let id = 0;
    await step("add", async () => {
      id = (await post("add", body)).data.id;
    });
    // Two edits in the same second: the key changes both times (update_time moves past the bank's newest).
    await step("edit 1", async () => expect((await post("edit", { ...body, id, answer: "B" })).code).toBe(1));
    await step("edit 2", async () => expect((await post("edit", { ...body, id, answer: "A" })).code).toBe(1));
    await step("disable", async () => expect((await post("edit", { ...body, id, status: "disable" })).code).toBe(1));
    await step("enable", async () => expect((await post("edit", { ...body, id, status: "enable" })).code).toBe(1));
    const otherBefore = await etag(other);
    await step("move away", async () => expect((await post("edit", { ...body, id, classify_id: other })).code).toBe(1));
    expect(await etag(other)).not.toBe(otherBefore);
    await step("move back", async () => expect((await post("edit", { ...body, id })).code).toBe(1));
    // Members practise in the bank's order: a swap (twice within a second too) is a new version.
    const second = (await post("add", { ...body, stem: "Capital of Italy?" })).data.id;
    previous = await etag(own);
    await step("reorder 1", async () => expect((await post("sortable", { id, targetId: second })).code).toBe(1));
    await step("reorder 2", async () => expect((await post("sortable", { id: second, targetId: id })).code).toBe(1));
    // The bank's title travels with it: a rename (twice within a second too) is a new version.
    const bankBody = { id: own, pid: 0, title: "Renamed bank", title_en: "", kind: "practice", status: "enable" };
    const renameBank = async (title: string) =>
      expect((await t.app.inject({ method: "POST", url: "/admin/exam/classify/edit", headers: root.headers, payload: { ...bankBody, title } })).json().code).toBe(1);
    await step("rename 1", () => renameBank("Renamed bank"));
    await step("rename 2", () => renameBank("Renamed again"));
    expect((await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${own}`, headers: member.headers })).json().data.bank.title).toBe("Renamed again");
    await step("delete", async () => expect((await t.app.inject({ method: "DELETE", url: `/admin/exam/question/del?ids[]=${id}`, headers: root.headers })).json().code).toBe(1));
    // A refused edit changes nothing.
    const last = await etag(own);
    const [kept] = (await t.database.db.query<{ id: number }>("select id from exam_question where classify_id = $1", [own])).rows;
    expect((await post("edit", { ...body, id: kept!.id, answer: "Z" })).code).toBe(0);
    expect(await etag(own)).toBe(last);
  });

  it("a device holding the old ETag gets the new answer key after an edit", async () => {
    const own = await createBank(t.database.db);
    const body = { classify_id: own, type: "single", stem: "2 + 2?", options: opts("3", "4"), answer: "A", score: 1 };
    const id = (await post("add", body)).data.id;
    const first = await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${own}`, headers: member.headers });
    const old = first.headers.etag as string;
    expect((await post("edit", { ...body, id, answer: "B" })).code).toBe(1);
    const again = await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${own}`, headers: { ...member.headers, "if-none-match": old } });
    expect(again.statusCode).toBe(200);
    expect(JSON.stringify(again.json())).toContain('"answer":"B"');
  });
});
