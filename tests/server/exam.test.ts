import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createBank, createMember, createOfficialExam, createPaper, createQuestion, type QuestionSpec } from "../helpers/factories.ts";

let t: TestApp;
let rootId = 0;
const banks: { id: number; questions: { id: number; type: string; answer: unknown; score: number }[] }[] = [];
const BANK_TITLES = ["Basic maths", "China general knowledge", "English basics"];

/** `n` questions cycling through `types` (every type of the first bank, so its download carries all of them). */
function questionSpecs(n: number, types: string[]): QuestionSpec[] {
  const specs: Record<string, (i: number) => QuestionSpec> = {
    single: (i) => ({ type: "single", stem: `What is ${i} + ${i}?`, options: [String(2 * i), String(2 * i + 1), String(i), String(i * i + 3)], answer: "A" }),
    judge: (i) => ({ type: "judge", stem: `${i} is an even number.`, answer: i % 2 === 0 ? "T" : "F" }),
    multiple: (i) => ({ type: "multiple", stem: `Which of these are multiples of ${i}?`, options: [String(i), String(2 * i), String(i + 1), String(3 * i)], answer: ["A", "B", "D"], score: 2 }),
    fill: (i) => ({ type: "fill", stem: `${i} × 10 = ____`, options: [], answer: [String(i * 10)], score: 2 }),
    short: (i) => ({ type: "short", stem: `Explain why ${i} × 0 = 0.`, options: [], answer: { keywords: ["zero", "nothing"], reference: "Zero groups hold nothing." }, score: 5 }),
  };
  return Array.from({ length: n }, (_, i) => specs[types[i % types.length]!]!(i + 1));
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // A catalogue of the test's own: three practice banks under one root (every question type),
  // two mock papers, and an official exam whose exam-only bank and paper are never listed.
  rootId = await createBank(db, { title: "示例题库", titleEn: "Sample banks" });
  const contents = [questionSpecs(40, ["single", "single", "judge", "single", "multiple", "fill", "single", "short"]), questionSpecs(20, ["single", "judge"]), questionSpecs(10, ["single"])];
  for (const [i, specs] of contents.entries()) {
    const id = await createBank(db, { pid: rootId, title: `题库 ${i + 1}`, titleEn: BANK_TITLES[i] });
    for (const spec of specs) await createQuestion(db, id, spec);
    const q = await db.query<{ id: number; type: string; answer: unknown; score: number }>("select id, type, answer, score from exam_question where classify_id = $1 order by id", [id]);
    banks.push({ id, questions: q.rows });
  }
  await createPaper(db, { rows: banks[0]!.questions.slice(0, 10).map((q) => ({ fixed: q.id, score: 2 })) });
  await createPaper(db, { rows: [{ draw: banks[1]!.id, type: "single", count: 5 }] });
  await createOfficialExam(db, { singles: 6, judges: 6 });
});
afterAll(() => t.close());

async function newMember(): Promise<{ id: number; token: string }> {
  const m = await createMember(t.database.db);
  return { id: m.id, token: m.token };
}

const sync = (token: string, ops: unknown[]) =>
  t.app.inject({ method: "POST", url: "/api/exam/sync", headers: { "ba-user-token": token, "think-lang": "en" }, payload: { ops } });
const state = async (token: string) => (await t.app.inject({ method: "GET", url: "/api/exam/state", headers: { "ba-user-token": token } })).json().data;

const base = Date.UTC(2026, 0, 1);
const op = (type: string, payload: object, at: number, id = randomUUID()) => ({ id, type, at, payload });

describe("catalog and banks", () => {
  it("lists the practice banks (questions of every type) with versions, the mock papers and the open room", async () => {
    const m = await newMember();
    const res = await t.app.inject({ method: "GET", url: "/api/exam/catalog", headers: { "ba-user-token": m.token, "think-lang": "en" } });
    const data = res.json().data;
    const root = data.classify[0];
    expect(root).toMatchObject({ id: rootId, title: "Sample banks" });
    expect(root.children.map((c: { title: string }) => c.title)).toEqual(BANK_TITLES);
    const total = root.children.reduce((n: number, c: { questionCount: number }) => n + c.questionCount, 0);
    expect(total).toBe(70);
    const types = await t.database.db.query<{ type: string }>("select distinct type from exam_question order by type");
    expect(types.rows.map((r) => r.type)).toEqual(["fill", "judge", "multiple", "short", "single"]);
    expect(data.papers).toHaveLength(2);
    // Each paper names the banks its questions come from (a bank's mock tab lists only its own).
    expect(data.papers.map((p: { banks: number[] }) => p.banks)).toEqual([[banks[0]!.id], [banks[1]!.id]]);
    expect(data.rooms).toHaveLength(1);
    expect((await t.app.inject({ method: "GET", url: "/api/exam/catalog" })).json().code).toBe(303);
  });

  it("downloads a bank with its answers and answers 304 when it has not changed", async () => {
    const m = await newMember();
    const bank = banks[0]!;
    const first = await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${bank.id}`, headers: { "ba-user-token": m.token } });
    expect(first.json().data.questions).toHaveLength(bank.questions.length);
    expect(first.json().data.questions[0]).toHaveProperty("answer");
    const etag = first.headers.etag as string;
    const again = await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${bank.id}`, headers: { "ba-user-token": m.token, "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    // An edit makes its question the bank's newest (as every question write does), even within the same second.
    await t.database.db.query("update exam_question set update_time = (select max(update_time) + 1 from exam_question where classify_id = $2) where id = $1", [bank.questions[0]!.id, bank.id]);
    const changed = await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${bank.id}`, headers: { "ba-user-token": m.token, "if-none-match": etag } });
    expect(changed.statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/exam/bank?id=999999", headers: { "ba-user-token": m.token, "think-lang": "en" } })).json().msg).toBe(
      "This question bank does not exist",
    );
  });

  it("sends a bank gzipped to a client that accepts it, small answers as they are", async () => {
    const m = await newMember();
    const bank = banks[0]!;
    const zipped = await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${bank.id}`, headers: { "ba-user-token": m.token, "accept-encoding": "gzip" } });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    const json = JSON.parse(gunzipSync(zipped.rawPayload).toString("utf8"));
    expect(json.data.questions).toHaveLength(bank.questions.length);
    expect(zipped.rawPayload.length).toBeLessThan(JSON.stringify(json).length / 3);
    const small = await t.app.inject({ method: "GET", url: "/api/exam/state", headers: { "ba-user-token": m.token, "accept-encoding": "gzip" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json().code).toBe(1);
  });
});

// The property "any order, duplicates and batching end in one state" (server SQL against the
// shared rules) is tests/server/sync-rules.test.ts.
describe("POST /api/exam/sync", () => {
  it("applies an op once: the same op again is a duplicate", async () => {
    const m = await newMember();
    const q = banks[0]!.questions[0]!;
    const o = op("favourite.set", { questionId: q.id, on: true }, base);
    expect((await sync(m.token, [o])).json().data.results).toEqual([{ id: o.id, status: "applied" }]);
    expect((await sync(m.token, [o])).json().data.results).toEqual([{ id: o.id, status: "duplicate" }]);
    expect((await state(m.token)).favourites).toEqual([q.id]);
  });

  it("rejects an invalid op and applies the rest of the batch", async () => {
    const m = await newMember();
    const [q1, q2] = banks[1]!.questions;
    const good1 = op("favourite.set", { questionId: q1!.id, on: true }, base);
    const bad = op("favourite.set", { questionId: "nope", on: true }, base);
    const unknown = op("favourite.set", { questionId: 99999999, on: true }, base);
    const good2 = op("progress.set", { bankId: banks[1]!.id, position: 7 }, base);
    const results = (await sync(m.token, [good1, bad, unknown, good2, { nonsense: true }])).json().data.results;
    expect(results.map((r: { status: string }) => r.status)).toEqual(["applied", "rejected", "rejected", "applied", "rejected"]);
    expect(results[1].msg).toBeTruthy();
    const s = await state(m.token);
    expect(s.favourites).toEqual([q1!.id]);
    expect(s.progress).toEqual([{ bankId: banks[1]!.id, position: 7, updatedAt: base }]);
    void q2;
  });

  it("counts two wrong answers twice, a replayed one once", async () => {
    const m = await newMember();
    const bank = banks[0]!;
    const q = bank.questions.find((x) => x.type === "single")!;
    const a1 = op("practice.answer", { questionId: q.id, bankId: bank.id, answer: "H" }, base + 1);
    const a2 = op("practice.answer", { questionId: q.id, bankId: bank.id, answer: "H" }, base + 2);
    await sync(m.token, [a1, a2]);
    await sync(m.token, [a1]);
    expect((await state(m.token)).wrong).toEqual([{ questionId: q.id, count: 2, lastTime: base + 2 }]);
    const right = op("practice.answer", { questionId: q.id, bankId: bank.id, answer: q.answer }, base + 3);
    await sync(m.token, [right]);
    expect((await state(m.token)).wrong[0].count).toBe(2);
    const answers = await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_practice_answer where user_id = $1", [m.id]);
    expect(answers.rows[0]!.n).toBe(3);
    // The member's own figures: three answers to one question, two wrong, one right.
    const stats = await t.app.inject({ method: "GET", url: "/api/exam/practiceStats", headers: { "ba-user-token": m.token } });
    expect(stats.json().data.banks).toEqual([{ bankId: bank.id, answers: 3, questions: 1, correct: 1, wrong: 2, lastAnsweredAt: Math.floor((base + 3) / 1000) }]);
  });

  it("decides favourites by op time, not arrival order", async () => {
    const m = await newMember();
    const q = banks[2]!.questions[0]!;
    await sync(m.token, [op("favourite.set", { questionId: q.id, on: false }, base + 20)]);
    await sync(m.token, [op("favourite.set", { questionId: q.id, on: true }, base + 10)]);
    expect((await state(m.token)).favourites).toEqual([]);
    await sync(m.token, [op("favourite.set", { questionId: q.id, on: true }, base + 30)]);
    expect((await state(m.token)).favourites).toEqual([q.id]);
  });

  it("keeps a question out of the wrong book until it is answered wrong after the removal", async () => {
    const m = await newMember();
    const bank = banks[0]!;
    const q = bank.questions.find((x) => x.type === "judge")!;
    const wrong = q.answer === "T" ? "F" : "T";
    await sync(m.token, [op("practice.answer", { questionId: q.id, bankId: bank.id, answer: wrong }, base + 10), op("wrong.remove", { questionId: q.id }, base + 20)]);
    expect((await state(m.token)).wrong).toEqual([]);
    await sync(m.token, [op("practice.answer", { questionId: q.id, bankId: bank.id, answer: wrong }, base + 15)]);
    expect((await state(m.token)).wrong).toEqual([]);
    await sync(m.token, [op("practice.answer", { questionId: q.id, bankId: bank.id, answer: wrong }, base + 25)]);
    expect((await state(m.token)).wrong).toEqual([{ questionId: q.id, count: 3, lastTime: base + 25 }]);
  });

  it("refuses more than 200 ops, and anyone without a member token", async () => {
    const m = await newMember();
    const many = Array.from({ length: 201 }, (_, i) => op("progress.set", { bankId: banks[0]!.id, position: i }, base + i));
    expect((await sync(m.token, many)).json()).toMatchObject({ code: 0, msg: "Send between 1 and 200 operations at a time" });
    expect((await t.app.inject({ method: "POST", url: "/api/exam/sync", payload: { ops: [] } })).json().code).toBe(303);
  });
});
