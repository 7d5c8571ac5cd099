import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createMember, createOfficialExam, type TestMember } from "../helpers/factories.ts";

/**
 * Official-exam answers made on the device travel as `official.answer` sync ops (the device's one
 * outbox): taken by the same rules as `POST /api/exam/official/save` (in time, or kept for a
 * marker when late), once per op id, and in any order: of two answers to a question the later
 * made wins.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const api = (m: TestMember, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: m.headers, ...(payload ? { payload } : {}) }).then((r) => r.json());

type Started = { attempt: { uuid: string; answers: Record<string, unknown> }; questions: { id: number; type: string }[] };

async function sitting(room: { latePolicy?: "review" | "refuse" } = {}) {
  const exam = await createOfficialExam(t.database.db, { singles: 4, judges: 0, draw: 3, room });
  const m = await createMember(t.database.db);
  const start = async (): Promise<Started> => (await api(m, "POST", "/api/exam/official/start", { roomId: exam.roomId })).data;
  const started = await start();
  return { m, exam, start, uuid: started.attempt.uuid, questionIds: started.questions.map((q) => q.id) };
}

const answerOp = (uuid: string, questionId: number, answer: unknown, answeredAt: number) => ({
  id: randomUUID(),
  type: "official.answer",
  at: Date.now(),
  payload: { uuid, questionId, answer, answeredAt },
});

async function sync(m: TestMember, ops: object[]): Promise<{ id: string; status: string; msg?: string }[]> {
  const body = await api(m, "POST", "/api/exam/sync", { ops });
  expect(body.code).toBe(1);
  return body.data.results;
}

describe("official answers as sync ops", () => {
  it("are saved into the attempt once and graded with it on submission", async () => {
    const s = await sitting();
    const [q1, q2] = s.questionIds;
    const now = Date.now();
    const a = answerOp(s.uuid, q1!, "A", now - 5000);
    const b = answerOp(s.uuid, q2!, "B", now - 4000);
    expect((await sync(s.m, [a, b])).map((r) => r.status)).toEqual(["applied", "applied"]);
    // A replay (the answer to the first request was lost) changes nothing.
    expect((await sync(s.m, [a, b])).map((r) => r.status)).toEqual(["duplicate", "duplicate"]);
    // Entering again shows what the server holds.
    expect((await s.start()).attempt.answers).toEqual({ [String(q1)]: "A", [String(q2)]: "B" });
    // The submission (with nothing more) grades what the ops brought (2 points a question).
    const keys = await t.database.db.query<{ id: number; answer: unknown }>("select id, answer from exam_question where id = any($1::int[])", [[q1, q2]]);
    const expected = keys.rows.reduce((sum, k) => sum + ((k.id === q1 ? "A" : "B") === k.answer ? 2 : 0), 0);
    const submitted = await api(s.m, "POST", "/api/exam/official/submit", { uuid: s.uuid });
    expect(submitted).toMatchObject({ code: 1, data: { score: expected } });
    const record = (await api(s.m, "GET", `/api/exam/record?uuid=${s.uuid}`)).data;
    expect(record.attempt).toMatchObject({ status: "submitted", score: expected });
  });

  it("end with the answer made last, whatever order they arrive in", async () => {
    const s = await sitting();
    const q = String(s.questionIds[0]);
    const t0 = Date.now() - 60_000;
    // A, then B, then A again: the ops arrive newest first.
    const ops = [answerOp(s.uuid, Number(q), "A", t0 + 3000), answerOp(s.uuid, Number(q), "B", t0 + 2000), answerOp(s.uuid, Number(q), "A", t0 + 1000)];
    expect((await sync(s.m, ops)).map((r) => r.status)).toEqual(["applied", "applied", "applied"]);
    expect((await s.start()).attempt.answers[q]).toBe("A");
    const times = (await t.database.db.query<{ answer_times: Record<string, number> }>("select answer_times from exam_attempt where uuid = $1", [s.uuid])).rows[0]!.answer_times;
    expect(times[q]).toBe(t0 + 3000);
    // One at a time, oldest last, in separate requests: the same end.
    const s2 = await sitting();
    const q2 = s2.questionIds[0]!;
    for (const op of [answerOp(s2.uuid, q2, "B", t0 + 2000), answerOp(s2.uuid, q2, "A", t0 + 3000), answerOp(s2.uuid, q2, "C", t0 + 1000)]) await sync(s2.m, [op]);
    expect((await s2.start()).attempt.answers[String(q2)]).toBe("A");
  });

  it("refuse an attempt that is not the member's, and a question that is not in it, changing nothing", async () => {
    const s = await sitting();
    const other = await createMember(t.database.db);
    const q = s.questionIds[0]!;
    const notMine = await sync(other, [answerOp(s.uuid, q, "A", Date.now())]);
    expect(notMine[0]).toMatchObject({ status: "rejected", msg: "This exam record does not exist" });
    const unknown = await sync(s.m, [answerOp(randomUUID(), q, "A", Date.now())]);
    expect(unknown[0]).toMatchObject({ status: "rejected", msg: "This exam record does not exist" });
    const outside = s.exam.questionIds.find((id) => !s.questionIds.includes(id))!;
    const stray = await sync(s.m, [answerOp(s.uuid, outside, "A", Date.now())]);
    expect(stray[0]).toMatchObject({ status: "rejected", msg: "This question is not part of this exam" });
    // Hostile values are refused by the op schema, one op at a time; the good op goes through.
    const results = await sync(s.m, [
      answerOp(s.uuid, q, "A\u0000", Date.now()),
      answerOp(s.uuid, 2 ** 31, "A", Date.now()),
      answerOp(s.uuid, q, "A", 1_000),
      answerOp(s.uuid, q, "B", Date.now()),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected", "applied"]);
    expect((await s.start()).attempt.answers).toEqual({ [String(q)]: "B" });
  });

  it("after submission: an answer the submission carried, or an older one, is no refusal; a newer different one is", async () => {
    const s = await sitting();
    const q = String(s.questionIds[0]);
    const t0 = Date.now() - 10_000;
    // The device submits with its answer while the op carrying it is still on its way.
    const carried = answerOp(s.uuid, Number(q), "B", t0 + 1000);
    expect((await api(s.m, "POST", "/api/exam/official/submit", { uuid: s.uuid, answers: { [q]: "B" }, answeredAt: { [q]: t0 + 1000 } })).code).toBe(1);
    const results = await sync(s.m, [carried, answerOp(s.uuid, Number(q), "C", t0 + 500), answerOp(s.uuid, Number(q), "D", t0 + 5000)]);
    expect(results.map((r) => r.status)).toEqual(["applied", "applied", "rejected"]);
    expect(results[2]!.msg).toBe("This exam has already been submitted");
    // What the server holds is what was submitted (entering again is refused: one attempt).
    const held = await t.database.db.query<{ answers: unknown }>("select answers from exam_attempt where uuid = $1", [s.uuid]);
    expect(held.rows[0]!.answers).toEqual({ [q]: "B" });
  });

  it("after the deadline: kept for a marker (room policy review) or refused (policy refuse)", async () => {
    const review = await sitting();
    const refuse = await sitting({ latePolicy: "refuse" });
    const past = Math.floor(Date.now() / 1000) - 3600;
    await t.database.db.query("update exam_attempt set deadline = $1 where uuid = any($2::text[])", [past, [review.uuid, refuse.uuid]]);
    const claimed = (past - 10) * 1000;

    const kept = await sync(review.m, [answerOp(review.uuid, review.questionIds[0]!, "A", claimed)]);
    expect(kept[0]!.status).toBe("applied");
    const late = await t.database.db.query<{ question_id: number; answer: unknown; claimed_at: string; status: string }>(
      "select l.question_id, l.answer, l.claimed_at, l.status from exam_late_answer l join exam_attempt a on a.id = l.attempt_id where a.uuid = $1",
      [review.uuid],
    );
    expect(late.rows.map((r) => ({ ...r, claimed_at: Number(r.claimed_at) }))).toEqual([{ question_id: review.questionIds[0], answer: "A", claimed_at: claimed, status: "pending" }]);
    const record = (await api(review.m, "GET", `/api/exam/record?uuid=${review.uuid}`)).data;
    expect(record.attempt).toMatchObject({ status: "expired", pendingReview: 1 });

    const refused = await sync(refuse.m, [answerOp(refuse.uuid, refuse.questionIds[0]!, "A", claimed)]);
    expect(refused[0]).toMatchObject({ status: "rejected", msg: "The time for this exam is up: answers that reached the server after the deadline were not accepted." });
    const none = await t.database.db.query("select 1 from exam_late_answer l join exam_attempt a on a.id = l.attempt_id where a.uuid = $1", [refuse.uuid]);
    expect(none.rows).toEqual([]);
  });

  it("alone in a batch (the app's way), are taken once when the same op arrives twice at the same moment, and a refused one is answered the same when sent again", async () => {
    const s = await sitting();
    const [q1] = s.questionIds;
    const a = answerOp(s.uuid, q1!, "A", Date.now() - 1000);
    // Two processes (or a retry racing its original) with the same op: one applies it, the other says duplicate.
    const [x, y] = await Promise.all([sync(s.m, [a]), sync(s.m, [a])]);
    expect([x[0]!.status, y[0]!.status].sort()).toEqual(["applied", "duplicate"]);
    const recorded = await t.database.db.query("select op_id, rejected_msg from sync_op where user_id = $1", [s.m.id]);
    expect(recorded.rows).toEqual([{ op_id: a.id, rejected_msg: null }]);
    // A question not in the attempt: refused, its reason kept, and a replay is answered the same (never applied later).
    const foreign = answerOp(s.uuid, 999_999, "A", Date.now());
    const refused = await sync(s.m, [foreign]);
    expect(refused[0]).toMatchObject({ status: "rejected", msg: "This question is not part of this exam" });
    expect(await sync(s.m, [foreign])).toEqual(refused);
    // Submitted: a newer, different answer alone is refused and recorded as such.
    expect((await api(s.m, "POST", "/api/exam/official/submit", { uuid: s.uuid })).code).toBe(1);
    const late = answerOp(s.uuid, q1!, "B", Date.now());
    const after = await sync(s.m, [late]);
    expect(after[0]).toMatchObject({ status: "rejected", msg: "This exam has already been submitted" });
    expect(await sync(s.m, [late])).toEqual(after);
    const held = await t.database.db.query("select answers from exam_attempt where uuid = $1", [s.uuid]);
    expect(held.rows).toEqual([{ answers: { [String(q1)]: "A" } }]);
  });
});
