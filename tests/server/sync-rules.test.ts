import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradeAnswer } from "../../src/shared/exam/grading.ts";
import { applyOps, emptyState, toExamState } from "../../src/shared/exam/state.ts";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import type { Op } from "../../src/shared/sync/ops.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { hashPassword } from "../../src/server/auth/password.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createBank, createBankWithQuestions, createQuestion } from "../helpers/factories.ts";

/**
 * The order-independent state rules exist twice: in TypeScript (src/shared/exam/state.ts, which
 * the device applies to its own tables) and as SQL upserts on the server
 * (src/server/sync/handlers/exam.ts, atomic under concurrent syncs). This property runs both on
 * the same random op sequences — many ops at the same time (the op id breaks the tie), each op
 * delivered once or more, in any order, in batches of any size — and expects the same state.
 */

interface Question {
  id: number;
  type: ExamQuestion["type"];
  answer: unknown;
  score: number;
}

let t: TestApp;
let bankIds: number[] = [];
let questions: Question[] = [];
let questionBank = 0;
let passwordHash = "";

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // Two banks; the first with one question of each type.
  questionBank = await createBank(db);
  for (const spec of [
    { type: "fill", options: [], answer: ["4|four"], score: 2 },
    { type: "judge", answer: "T" },
    { type: "multiple", answer: ["A", "C"], score: 2 },
    { type: "short", options: [], answer: { keywords: ["school", "teacher"], reference: "My school has kind teachers." }, score: 5 },
    { type: "single", answer: "B" },
  ]) {
    await createQuestion(db, questionBank, spec);
  }
  bankIds = [questionBank, (await createBankWithQuestions(db, 4)).id];
  const rows = await db.query<Question>("select id, type, answer, score from exam_question where classify_id = $1 order by type, id", [questionBank]);
  questions = rows.rows;
  passwordHash = await hashPassword("irrelevant1");
});
afterAll(() => t.close());

let members = 0;
async function newMember(): Promise<string> {
  members++;
  const { rows } = await t.database.db.query<{ id: number }>("insert into member (username, password_hash) values ($1, $2) returning id", [
    `rules_${members}_${Date.now() % 100000}`,
    passwordHash,
  ]);
  return issueToken(t.database.db, "user", rows[0]!.id, 3600);
}

const base = Date.UTC(2026, 0, 1);
/** The key as a member would type it (a short answer's key is keywords and a reference: send the reference). */
const rightAnswer = (q: Question) => (q.type === "short" ? String((q.answer as { reference?: unknown }).reference ?? "") : q.answer);
const wrongAnswer = (q: Question) => (q.type === "multiple" ? ["H"] : q.type === "fill" ? ["zzz"] : q.type === "judge" ? (q.answer === "T" ? "F" : "T") : "H");

// Few questions, banks and times, so that ops often meet on one row at one time.
const opSpec = fc.oneof(
  fc.record({ kind: fc.constant("fav" as const), q: fc.nat(1), on: fc.boolean(), at: fc.nat(2) }),
  fc.record({ kind: fc.constant("answer" as const), q: fc.nat(9), right: fc.boolean(), at: fc.nat(4) }),
  fc.record({ kind: fc.constant("remove" as const), q: fc.nat(9), at: fc.nat(4) }),
  fc.record({ kind: fc.constant("progress" as const), bank: fc.nat(1), position: fc.nat(60), at: fc.nat(2) }),
);

describe("the server's SQL and the shared TypeScript rules", () => {
  it("end in the same state for the same ops, whatever the order, duplicates and batches (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opSpec, { minLength: 1, maxLength: 16 }),
        // Per op: how many extra deliveries (0-2); per delivery: a sort key (the order).
        fc.array(fc.nat(2), { minLength: 16, maxLength: 16 }),
        fc.array(fc.nat(), { minLength: 48, maxLength: 48 }),
        fc.integer({ min: 1, max: 8 }),
        async (specs, extra, keys, batchSize) => {
          const token = await newMember();
          const ops = specs.map((s): Op => {
            const at = base + s.at;
            const id = randomUUID();
            if (s.kind === "progress") return { id, at, type: "progress.set", payload: { bankId: bankIds[s.bank % bankIds.length]!, position: s.position } };
            const q = questions[s.q % questions.length]!;
            switch (s.kind) {
              case "fav":
                return { id, at, type: "favourite.set", payload: { questionId: q.id, on: s.on } };
              case "answer":
                return { id, at, type: "practice.answer", payload: { questionId: q.id, bankId: questionBank, answer: (s.right ? rightAnswer(q) : wrongAnswer(q)) as string } };
              case "remove":
                return { id, at, type: "wrong.remove", payload: { questionId: q.id } };
            }
          });
          const deliveries = ops.flatMap((o, i) => Array.from({ length: 1 + extra[i]! }, () => o));
          const order = deliveries.map((o, i) => ({ o, key: keys[i]!, i })).sort((a, b) => a.key - b.key || a.i - b.i);
          for (let i = 0; i < order.length; i += batchSize) {
            const res = await t.app.inject({
              method: "POST",
              url: "/api/exam/sync",
              headers: { "ba-user-token": token },
              payload: { ops: order.slice(i, i + batchSize).map((d) => d.o) },
            });
            const results = res.json().data.results as { status: string }[];
            expect(results.filter((r) => r.status !== "applied" && r.status !== "duplicate")).toEqual([]);
          }

          const graded = (o: Op) => {
            if (o.type !== "practice.answer") return undefined;
            const q = questions.find((x) => x.id === o.payload.questionId)!;
            return gradeAnswer({ type: q.type, answer: q.answer as never, score: Number(q.score) }, o.payload.answer);
          };
          const expected = toExamState(applyOps(emptyState(), ops, graded));
          // The shared rules themselves: the order the server saw them in (each once) gives the same.
          const seen = new Set<string>();
          const asDelivered = order.map((d) => d.o).filter((o) => !seen.has(o.id) && seen.add(o.id));
          expect(toExamState(applyOps(emptyState(), asDelivered, graded))).toEqual(expected);

          const actual = (await t.app.inject({ method: "GET", url: "/api/exam/state", headers: { "ba-user-token": token } })).json().data;
          expect(actual).toEqual(expected);
        },
      ),
      {
        numRuns: 40,
        // Always among them: several wrong answers to one question in one batch (the server
        // writes a batch's practice answers in one statement and must count each), with a
        // removal between them.
        examples: [
          [
            [
              { kind: "answer", q: 0, right: false, at: 1 },
              { kind: "answer", q: 0, right: false, at: 3 },
              { kind: "remove", q: 0, at: 2 },
              { kind: "answer", q: 0, right: true, at: 4 },
              { kind: "answer", q: 0, right: false, at: 2 },
              { kind: "answer", q: 1, right: false, at: 0 },
            ],
            Array<number>(16).fill(0),
            Array.from({ length: 48 }, (_, i) => i),
            8,
          ],
        ],
      },
    );
  }, 180_000);
});

describe("a rejected op sent again (its answer lost on the way)", () => {
  type Result = { id: string; status: string; msg?: string };
  const sync = async (token: string, ops: Op[], lang: string): Promise<Result[]> => {
    const res = await t.app.inject({ method: "POST", url: "/api/exam/sync", headers: { "ba-user-token": token, "think-lang": lang }, payload: { ops } });
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: { results: Result[] } }).data.results;
  };
  /** An answer to an official exam the member never started: refused by the rules (RejectOp). */
  const unknownExamAnswer = (): Op => ({
    id: randomUUID(),
    type: "official.answer",
    at: base,
    payload: { uuid: randomUUID(), questionId: questions[0]!.id, answer: "A", answeredAt: base },
  });
  const favourite = (): Op => ({ id: randomUUID(), type: "favourite.set", at: base, payload: { questionId: questions[0]!.id, on: true } });

  it.each([
    ["zh-cn", "该考试记录不存在"],
    ["en", "This exam record does not exist"],
  ])("is answered rejected with the same reason again, not duplicate (%s)", async (lang, reason) => {
    const token = await newMember();
    const refused = unknownExamAnswer();
    const applied = favourite();
    const first = await sync(token, [refused, applied], lang);
    expect(first).toEqual([
      { id: refused.id, status: "rejected", msg: reason },
      { id: applied.id, status: "applied" },
    ]);
    // Replayed, alone and with the applied op (which stays a duplicate), twice over.
    expect(await sync(token, [refused], lang)).toEqual([{ id: refused.id, status: "rejected", msg: reason }]);
    expect(await sync(token, [applied, refused], lang)).toEqual([
      { id: applied.id, status: "duplicate" },
      { id: refused.id, status: "rejected", msg: reason },
    ]);
  });

  it("keeps the reason's key, not its text: a replay asked in another language is answered in that one", async () => {
    const token = await newMember();
    const refused = unknownExamAnswer();
    expect((await sync(token, [refused], "zh-cn"))[0]).toEqual({ id: refused.id, status: "rejected", msg: "该考试记录不存在" });
    expect((await sync(token, [refused], "en"))[0]).toEqual({ id: refused.id, status: "rejected", msg: "This exam record does not exist" });
    const stored = await t.database.db.query<{ rejected_msg: unknown }>("select rejected_msg from sync_op where op_id = $1", [refused.id]);
    expect(stored.rows[0]!.rejected_msg).toMatchObject({ id: expect.any(String) });
  });

  it("answers an op twice in one batch the same both times, and is applied nowhere", async () => {
    const token = await newMember();
    const refused = unknownExamAnswer();
    const results = await sync(token, [refused, favourite(), refused], "en");
    expect(results.map((r) => [r.status, r.msg])).toEqual([
      ["rejected", "This exam record does not exist"],
      ["applied", undefined],
      ["rejected", "This exam record does not exist"],
    ]);
  });
});
