import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let fixedPaper = 0;
let drawnPaper = 0;
let roomId = 0;
beforeAll(async () => {
  t = await createTestApp({ config: { seedDemo: true } });
  const papers = await t.database.db.query<{ id: number; partial_credit: boolean }>("select id, partial_credit from exam_paper order by id");
  fixedPaper = papers.rows[0]!.id;
  drawnPaper = papers.rows[1]!.id;
  roomId = (await t.database.db.query<{ id: number }>("select id from exam_room order by id limit 1")).rows[0]!.id;
});
afterAll(() => t.close());

let n = 0;
async function member() {
  n++;
  const { rows } = await t.database.db.query<{ id: number }>("insert into member (username, password_hash) values ($1, $2) returning id", [`att_${n}`, await hashPassword("whatever1")]);
  return { id: rows[0]!.id, token: await issueToken(t.database.db, "user", rows[0]!.id, 3600) };
}
const api = (token: string, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { "ba-user-token": token, "think-lang": "en" }, ...(payload ? { payload } : {}) }).then((r) => r.json());

async function fixedQuestions() {
  const { rows } = await t.database.db.query<{ id: number; type: string; answer: unknown }>(
    "select q.id, q.type, q.answer from exam_paper_row r join exam_question q on q.id = r.question_id where r.paper_id = $1 order by r.weigh desc, r.id",
    [fixedPaper],
  );
  return rows;
}

describe("mock exams", () => {
  it("describes a paper: fixed and drawn rows and the banks they use", async () => {
    const m = await member();
    const fixed = (await api(m.token, "GET", `/api/exam/paper?id=${fixedPaper}`)).data;
    expect(fixed.paper).toMatchObject({ totalScore: 20, passScore: 12, duration: 900 });
    expect(fixed.rows).toHaveLength(10);
    expect(fixed.rows[0]).toMatchObject({ kind: "fixed", score: 2 });
    const drawn = (await api(m.token, "GET", `/api/exam/paper?id=${drawnPaper}`)).data;
    expect(drawn.rows.map((r: { kind: string; questionType: string }) => `${r.kind}:${r.questionType}`)).toEqual(["draw:single", "draw:judge"]);
    expect(drawn.banks).toHaveLength(1);
  });

  it("grades a mock attempt submitted through sync again on the server, once", async () => {
    const m = await member();
    const qs = await fixedQuestions();
    // Half right, half wrong: 5 x 2 points.
    const answers = Object.fromEntries(qs.map((q, i) => [String(q.id), i % 2 === 0 ? q.answer : "Z"]));
    const attemptId = randomUUID();
    const op = { id: randomUUID(), type: "attempt.submit", at: Date.now(), payload: { attemptId, paperId: fixedPaper, startedAt: Date.now() - 60_000, submittedAt: Date.now(), answers } };
    expect((await api(m.token, "POST", "/api/exam/sync", { ops: [op] })).data.results[0].status).toBe("applied");
    expect((await api(m.token, "POST", "/api/exam/sync", { ops: [op] })).data.results[0].status).toBe("duplicate");
    const records = (await api(m.token, "GET", "/api/exam/records")).data;
    expect(records.total).toBe(1);
    expect(records.list[0]).toMatchObject({ uuid: attemptId, kind: "mock", score: 10, passed: false, status: "submitted" });
    const detail = (await api(m.token, "GET", `/api/exam/record?uuid=${attemptId}`)).data;
    expect(detail.questions).toHaveLength(10);
    expect(detail.questions[0]).toHaveProperty("answer");
    expect(Object.values(detail.results).filter((r) => (r as { correct: boolean }).correct)).toHaveLength(5);
  });

  it("rejects an attempt for an unknown paper and ignores questions that are not in the paper", async () => {
    const m = await member();
    const bad = { id: randomUUID(), type: "attempt.submit", at: Date.now(), payload: { attemptId: randomUUID(), paperId: 99999, startedAt: Date.now() - 1000, submittedAt: Date.now(), answers: {} } };
    expect((await api(m.token, "POST", "/api/exam/sync", { ops: [bad] })).data.results[0]).toMatchObject({ status: "rejected", msg: "Unknown paper" });
    const outsider = (await t.database.db.query<{ id: number; answer: unknown }>("select id, answer from exam_question where type = 'single' order by id desc limit 1")).rows[0]!;
    const op = { id: randomUUID(), type: "attempt.submit", at: Date.now(), payload: { attemptId: randomUUID(), paperId: fixedPaper, startedAt: Date.now() - 1000, submittedAt: Date.now(), answers: { [outsider.id]: outsider.answer } } };
    await api(m.token, "POST", "/api/exam/sync", { ops: [op] });
    expect((await api(m.token, "GET", "/api/exam/records")).data.list[0].score).toBe(0);
  });
});

describe("official exams", () => {
  it("starts on the server's clock, hides answers, resumes, saves and grades on submit", async () => {
    const m = await member();
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    expect(start.questions).toHaveLength(10);
    expect(start.questions[0]).not.toHaveProperty("answer");
    expect(start.questions[0]).not.toHaveProperty("analysis");
    expect(start.attempt.deadline - start.attempt.startedAt).toBe(900);
    const again = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    expect(again.attempt.uuid).toBe(start.attempt.uuid);

    const qs = await fixedQuestions();
    const answers = Object.fromEntries(qs.map((q) => [String(q.id), q.answer]));
    expect((await api(m.token, "POST", "/api/exam/official/save", { uuid: start.attempt.uuid, answers })).code).toBe(1);
    const done = await api(m.token, "POST", "/api/exam/official/submit", { uuid: start.attempt.uuid });
    expect(done).toMatchObject({ code: 1, data: { score: 20, passed: true } });
    expect((await api(m.token, "POST", "/api/exam/official/save", { uuid: start.attempt.uuid, answers })).msg).toBe("This exam has already been submitted");
    const detail = (await api(m.token, "GET", `/api/exam/record?uuid=${start.attempt.uuid}`)).data;
    expect(detail.questions[0]).toHaveProperty("answer"); // the demo room shows answers after submission
  });

  it("refuses answers after the deadline plus grace and closes the attempt with what was saved", async () => {
    const m = await member();
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    const qs = await fixedQuestions();
    await api(m.token, "POST", "/api/exam/official/save", { uuid: start.attempt.uuid, answers: { [qs[0]!.id]: qs[0]!.answer } });
    await t.database.db.query("update exam_attempt set deadline = $1 where uuid = $2", [Math.floor(Date.now() / 1000) - 61, start.attempt.uuid]);
    const late = await api(m.token, "POST", "/api/exam/official/submit", { uuid: start.attempt.uuid, answers: Object.fromEntries(qs.map((q) => [String(q.id), q.answer])) });
    expect(late).toMatchObject({ code: 0, msg: "The time for this exam is up: it was submitted with the answers saved before the deadline" });
    const record = (await api(m.token, "GET", "/api/exam/records")).data.list[0];
    expect(record).toMatchObject({ status: "expired", score: 2, passed: false });
  });

  it("takes answers made offline before the deadline when they arrive after it, and only those", async () => {
    const m = await member();
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    const uuid = start.attempt.uuid;
    const qs = await fixedQuestions();
    const ids = start.questions.map((q: { id: number }) => q.id);
    const keys = new Map(qs.map((q) => [q.id, q.answer]));
    // The exam's time runs out while the device is offline: the deadline is 5 minutes ago.
    const deadline = Math.floor(Date.now() / 1000) - 300;
    await t.database.db.query("update exam_attempt set started_at = $1, deadline = $2 where uuid = $3", [deadline - 600, deadline, uuid]);
    const [a, b, c] = ids as number[];
    const answers = { [a!]: keys.get(a!), [b!]: keys.get(b!), [c!]: keys.get(c!) };
    // a and b were made before the deadline; c after it (the device kept counting).
    const answeredAt = { [a!]: deadline * 1000 - 120_000, [b!]: deadline * 1000 - 1_000, [c!]: deadline * 1000 + 30_000 };
    const saved = await api(m.token, "POST", "/api/exam/official/save", { uuid, answers, answeredAt });
    expect(saved).toMatchObject({ code: 1, data: { saved: 2, refused: 1, late: true } });
    const rows = (await t.database.db.query<{ answers: Record<string, unknown>; late_answers: number; status: string; score: string }>(
      "select answers, late_answers, status, score from exam_attempt where uuid = $1",
      [uuid],
    )).rows[0]!;
    expect(Object.keys(rows.answers).sort()).toEqual([String(a), String(b)].sort());
    expect(rows).toMatchObject({ late_answers: 2, status: "expired" });
    expect(Number(rows.score)).toBeGreaterThan(0);
    // The same answers again change nothing; answers without a time are refused outright.
    await api(m.token, "POST", "/api/exam/official/save", { uuid, answers: { [a!]: keys.get(a!) }, answeredAt: { [a!]: answeredAt[a!] } });
    const refused = await api(m.token, "POST", "/api/exam/official/save", { uuid, answers: { [c!]: keys.get(c!) } });
    expect(refused).toMatchObject({ code: 0, msg: "The time for this exam is up: it was submitted with the answers saved before the deadline", data: { closed: true } });
    const after = (await t.database.db.query<{ answers: Record<string, unknown> }>("select answers from exam_attempt where uuid = $1", [uuid])).rows[0]!;
    expect(Object.keys(after.answers)).toHaveLength(2);
  });

  it("keeps the later of two answers to a question, whatever order they arrive in", async () => {
    const m = await member();
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    const uuid = start.attempt.uuid;
    const q = start.questions[0].id as number;
    const t0 = Date.now() - 10_000;
    await api(m.token, "POST", "/api/exam/official/save", { uuid, answers: { [q]: "B" }, answeredAt: { [q]: t0 + 5_000 } });
    // An older answer (sent late by a device that was offline) does not overwrite the newer one.
    expect((await api(m.token, "POST", "/api/exam/official/save", { uuid, answers: { [q]: "A" }, answeredAt: { [q]: t0 } })).data).toMatchObject({ saved: 1, late: false });
    const row = (await t.database.db.query<{ answers: Record<string, unknown> }>("select answers from exam_attempt where uuid = $1", [uuid])).rows[0]!;
    expect(row.answers[String(q)]).toBe("B");
  });

  it("refuses answers that arrive more than a day after the deadline", async () => {
    const m = await member();
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    const deadline = Math.floor(Date.now() / 1000) - 25 * 3600;
    await t.database.db.query("update exam_attempt set started_at = $1, deadline = $2 where uuid = $3", [deadline - 600, deadline, start.attempt.uuid]);
    const q = start.questions[0].id as number;
    const late = await api(m.token, "POST", "/api/exam/official/submit", { uuid: start.attempt.uuid, answers: { [q]: "A" }, answeredAt: { [q]: deadline * 1000 - 60_000 } });
    expect(late).toMatchObject({ code: 0, data: { closed: true } });
    const row = (await t.database.db.query<{ answers: Record<string, unknown>; status: string }>("select answers, status from exam_attempt where uuid = $1", [start.attempt.uuid])).rows[0]!;
    expect(row).toEqual({ answers: {}, status: "expired" });
  });

  it("closes an abandoned attempt when its time is up, and counts attempts", async () => {
    const m = await member();
    for (let i = 0; i < 3; i++) {
      const s = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
      await t.database.db.query("update exam_attempt set deadline = 1 where uuid = $1", [s.attempt.uuid]);
    }
    const records = (await api(m.token, "GET", "/api/exam/records")).data.list;
    expect(records.map((r: { status: string }) => r.status)).toEqual(["expired", "expired", "expired"]);
    expect((await api(m.token, "POST", "/api/exam/official/start", { roomId })).msg).toBe("You have used all your attempts at this exam");
  });

  it("refuses rooms that are closed or not open yet", async () => {
    const m = await member();
    await t.database.db.query("update exam_room set start_time = $1 where id = $2", [Math.floor(Date.now() / 1000) + 3600, roomId]);
    expect((await api(m.token, "POST", "/api/exam/official/start", { roomId })).msg).toBe("This exam has not started yet");
    await t.database.db.query("update exam_room set start_time = 0, end_time = 1 where id = $1", [roomId]);
    expect((await api(m.token, "POST", "/api/exam/official/start", { roomId })).msg).toBe("This exam has ended");
    expect((await api(m.token, "POST", "/api/exam/official/start", { roomId: 99999 })).msg).toBe("This exam is not open to you");
  });
});
