import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.ts";
import { decideLateAnswer } from "../../src/server/modules/exam/attempts/index.ts";
import { createTestApp, testConfig, type TestApp } from "../helpers/app.ts";
import { createBank, createMember, createOfficialExam, createPaper, createQuestion } from "../helpers/factories.ts";

let t: TestApp;
let fixedPaper = 0;
let drawnPaper = 0;
let roomId = 0;
let roomPaper = 0;
let practiceBanks: number[] = [];
/** A single-choice question no paper holds. */
let outsider = { id: 0, answer: "C" };
const FIXED_TITLE = "数学基础测验（固定）";
beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // A fixed mock paper: ten single-choice questions of a practice bank, 2 points each.
  const maths = await createBank(db);
  const mathsIds: number[] = [];
  for (let i = 0; i < 10; i++) mathsIds.push(await createQuestion(db, maths, { answer: "ABCD"[i % 4] }));
  fixedPaper = await createPaper(db, { title: FIXED_TITLE, totalScore: 20, passScore: 12, duration: 900, rows: mathsIds.map((id) => ({ fixed: id, score: 2 })) });
  // A drawn mock paper: five single-choice and five true-or-false questions from one practice bank.
  const knowledge = await createBank(db);
  for (let i = 0; i < 6; i++) await createQuestion(db, knowledge, { answer: "B" });
  for (let i = 0; i < 6; i++) await createQuestion(db, knowledge, { type: "judge", answer: i % 2 ? "T" : "F" });
  drawnPaper = await createPaper(db, {
    totalScore: 15,
    passScore: 9,
    duration: 1200,
    partialCredit: true,
    rows: [
      { draw: knowledge, type: "single", count: 5, score: 2 },
      { draw: knowledge, type: "judge", count: 5, score: 1 },
    ],
  });
  const elsewhere = await createBank(db);
  outsider = { id: await createQuestion(db, elsewhere, { answer: "C" }), answer: "C" };
  practiceBanks = [maths, knowledge, elsewhere];
  // The official exam: its own exam-only bank, a paper drawing 5 + 5 questions at 2 points, a
  // room open now that shows answers after submission and allows three attempts.
  const now = Math.floor(Date.now() / 1000);
  const official = await createOfficialExam(db, {
    singles: 15,
    judges: 15,
    draw: 5,
    score: 2,
    paper: { totalScore: 20, passScore: 12, duration: 900 },
    room: { startTime: now - 3600, endTime: now + 90 * 86_400, duration: 900, attemptsAllowed: 3, passScore: 12, reviewPolicy: "submitted" },
  });
  roomId = official.roomId;
  roomPaper = official.paperId;
});
afterAll(() => t.close());

const member = () => createMember(t.database.db);
const api = (token: string, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { "ba-user-token": token, "think-lang": "en" }, ...(payload ? { payload } : {}) }).then((r) => r.json());

/** The correct answers of the given questions, by id. */
async function keysOf(ids: number[]): Promise<Map<number, unknown>> {
  const { rows } = await t.database.db.query<{ id: number; answer: unknown }>("select id, answer from exam_question where id = any($1::int[])", [ids]);
  return new Map(rows.map((r) => [r.id, r.answer]));
}
const wrongFor = (key: unknown) => (key === "A" ? "B" : key === "T" ? "F" : key === "F" ? "T" : "A");
const now = () => Math.floor(Date.now() / 1000);
const attemptRow = async (uuid: string) =>
  (
    await t.database.db.query<{ id: number; answers: Record<string, unknown>; late_answers: number; status: string; score: number; passed: boolean }>(
      "select id, answers, late_answers, status, score, passed from exam_attempt where uuid = $1",
      [uuid],
    )
  ).rows[0]!;
const lateRows = async (attemptId: number) =>
  (
    await t.database.db.query<{ id: number; question_id: number; answer: unknown; claimed_at: number | null; received_at: number; last_heard_at: number; away_ms: number; status: string }>(
      "select * from exam_late_answer where attempt_id = $1 order by question_id",
      [attemptId],
    )
  ).rows;

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
    const op = { id: randomUUID(), type: "attempt.submit", at: Date.now(), payload: { attemptId: randomUUID(), paperId: fixedPaper, startedAt: Date.now() - 1000, submittedAt: Date.now(), answers: { [outsider.id]: outsider.answer } } };
    await api(m.token, "POST", "/api/exam/sync", { ops: [op] });
    expect((await api(m.token, "GET", "/api/exam/records")).data.list[0].score).toBe(0);
  });
});

describe("official exams", () => {
  it("gives each room the figures of its introduction, never a key, and the attempts left count down", async () => {
    const m = await member();
    const before = (await api(m.token, "GET", "/api/exam/catalog")).data.rooms.find((r: { id: number }) => r.id === roomId);
    expect(before).toMatchObject({ duration: 900, questionCount: 10, totalScore: 20, passScore: 12, attemptsAllowed: 3, attemptsLeft: 3, faceCheck: false });
    expect(Object.keys(before).sort()).toEqual(
      ["attemptsAllowed", "attemptsLeft", "duration", "endTime", "extraAttempts", "extraMinutes", "faceCheck", "id", "paperId", "passScore", "questionCount", "startTime", "title", "totalScore"].sort(),
    );
    const started = await api(m.token, "POST", "/api/exam/official/start", { roomId });
    expect(started.code).toBe(1);
    const after = (await api(m.token, "GET", "/api/exam/catalog")).data.rooms.find((r: { id: number }) => r.id === roomId);
    expect(after.attemptsLeft).toBe(2);
    // Another member's attempts are not this member's.
    const other = await member();
    expect((await api(other.token, "GET", "/api/exam/catalog")).data.rooms.find((r: { id: number }) => r.id === roomId).attemptsLeft).toBe(3);
  });

  it("keeps the official exam's key out of mock papers and practice banks", async () => {
    const m = await member();
    const catalog = (await api(m.token, "GET", "/api/exam/catalog")).data;
    expect(catalog.rooms[0].paperId).toBe(roomPaper);
    expect(catalog.papers.map((p: { id: number }) => p.id)).toEqual([fixedPaper, drawnPaper]);
    expect(await api(m.token, "GET", `/api/exam/paper?id=${roomPaper}`)).toMatchObject({ code: 0, msg: "This paper is kept for an official exam and cannot be taken as a mock exam" });
    const examBank = (await t.database.db.query<{ id: number }>("select classify_id as id from exam_paper_row where paper_id = $1 limit 1", [roomPaper])).rows[0]!.id;
    expect(await api(m.token, "GET", `/api/exam/bank?id=${examBank}`)).toMatchObject({ code: 0, msg: "This question bank is kept for exams and cannot be practised" });
    const attemptId = randomUUID();
    const op = { id: randomUUID(), type: "attempt.submit", at: Date.now(), payload: { attemptId, paperId: roomPaper, startedAt: Date.now() - 1000, submittedAt: Date.now(), answers: {} } };
    expect((await api(m.token, "POST", "/api/exam/sync", { ops: [op] })).data.results[0]).toMatchObject({ status: "rejected" });
    expect(await api(m.token, "GET", `/api/exam/record?uuid=${attemptId}`)).toMatchObject({ code: 0, msg: "This exam record does not exist" });
    // The practice banks keep every question: the official exam has its own.
    const practice = (await t.database.db.query<{ id: number }>("select id from exam_classify where kind = 'practice' order by id")).rows;
    expect(practice.map((r) => r.id)).toEqual(practiceBanks);
    for (const { id } of practice) {
      const bank = (await api(m.token, "GET", `/api/exam/bank?id=${id}`)).data;
      const all = (await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_question where classify_id = $1", [id])).rows[0]!.n;
      expect(bank.questions).toHaveLength(all);
    }
  });

  it("starts on the server's clock, hides answers, resumes, saves and grades on submit", async () => {
    const m = await member();
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    expect(start.questions).toHaveLength(10);
    expect(start.questions[0]).not.toHaveProperty("answer");
    expect(start.questions[0]).not.toHaveProperty("analysis");
    expect(start.attempt.deadline - start.attempt.startedAt).toBe(900);
    const again = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    expect(again.attempt.uuid).toBe(start.attempt.uuid);

    const ids = start.questions.map((q: { id: number }) => q.id as number);
    const keys = await keysOf(ids);
    const answers = Object.fromEntries(ids.map((id: number) => [String(id), keys.get(id)]));
    expect((await api(m.token, "POST", "/api/exam/official/save", { uuid: start.attempt.uuid, answers })).code).toBe(1);
    const done = await api(m.token, "POST", "/api/exam/official/submit", { uuid: start.attempt.uuid });
    expect(done).toMatchObject({ code: 1, data: { score: 20, passed: true } });
    // Sent again (a lost answer, a second device): closed, so the device stops sending it.
    expect(await api(m.token, "POST", "/api/exam/official/save", { uuid: start.attempt.uuid, answers })).toMatchObject({
      code: 0,
      msg: "This exam has already been submitted",
      data: { closed: true },
    });
    const detail = (await api(m.token, "GET", `/api/exam/record?uuid=${start.attempt.uuid}`)).data;
    expect(detail.questions[0]).toHaveProperty("answer"); // the room shows answers after submission
    expect(detail.attempt.pendingReview).toBe(0);
  });

  it("keeps answers that reach the server after the deadline + grace for review, whatever time they claim, and grades only those that came in time", async () => {
    const m = await member();
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    const uuid = start.attempt.uuid as string;
    const ids = start.questions.map((q: { id: number }) => q.id as number) as number[];
    const keys = await keysOf(ids);
    const [q0, q1, q2] = ids as [number, number, number];
    // The story, on the server's clock: the deadline was 10 minutes ago; 5 minutes before it the
    // device saved q0 right, q1 wrong and q2 right, then lost its connection.
    const deadline = now() - 600;
    const t0 = (deadline - 300) * 1000;
    await api(m.token, "POST", "/api/exam/official/save", {
      uuid,
      answers: { [q0]: keys.get(q0), [q1]: wrongFor(keys.get(q1)), [q2]: keys.get(q2) },
      answeredAt: { [q0]: t0, [q1]: t0, [q2]: t0 },
    });
    // The server noted when it last heard from the device (that save).
    const seen = (await t.database.db.query<{ last_seen_at: number }>("select last_seen_at from exam_attempt where uuid = $1", [uuid])).rows[0]!.last_seen_at;
    expect(Math.abs(Number(seen) - Date.now())).toBeLessThan(10_000);
    const heard = t0;
    await t.database.db.query("update exam_attempt set started_at = $1, deadline = $2, last_seen_at = $3 where uuid = $4", [deadline - 800, deadline, heard, uuid]);
    // The device sends everything it has, each answer claiming a time just before the deadline;
    // q2 claims an older time than the server's copy, so the server's copy stands.
    const answers = Object.fromEntries(ids.map((id) => [String(id), keys.get(id)]));
    const answeredAt = Object.fromEntries(ids.map((id) => [String(id), id === q2 ? t0 - 50_000 : deadline * 1000 - 1_000]));
    answers[String(q2)] = wrongFor(keys.get(q2));
    const late = await api(m.token, "POST", "/api/exam/official/submit", { uuid, answers, answeredAt });
    expect(late).toMatchObject({
      code: 0,
      msg: "The time for this exam is up. Answers that reached the server after the deadline wait for a marker's review; until then your score counts only the answers that arrived in time.",
      data: { closed: true, pendingReview: 8 },
    });
    // Graded with what arrived in time: q0 and q2 right, 2 points each.
    const row = await attemptRow(uuid);
    expect(row).toMatchObject({ status: "expired", score: 4, passed: false, late_answers: 8 });
    expect(Object.keys(row.answers).sort()).toEqual([q0, q1, q2].map(String).sort());
    const queue = await lateRows(row.id);
    expect(queue.map((r) => r.question_id).sort()).toEqual(ids.filter((id) => id !== q0 && id !== q2).sort());
    for (const r of queue) {
      expect(r).toMatchObject({ status: "pending", claimed_at: deadline * 1000 - 1_000 });
      expect(Number(r.received_at)).toBeGreaterThan(deadline * 1000);
      expect(Number(r.last_heard_at)).toBe(heard);
      expect(Number(r.away_ms)).toBe(Number(r.received_at) - heard);
      expect(Number(r.away_ms)).toBeGreaterThanOrEqual(900_000);
    }
    // The member sees that answers wait for review.
    const record = (await api(m.token, "GET", `/api/exam/record?uuid=${uuid}`)).data;
    expect(record.attempt).toMatchObject({ status: "expired", score: 4, pendingReview: 8 });
    expect(Object.keys(record.answers)).toHaveLength(3);
    const list = (await api(m.token, "GET", "/api/exam/records")).data.list;
    expect(list[0]).toMatchObject({ uuid, pendingReview: 8 });
    // The same answers again (the device did not hear back) add nothing and stay closed.
    expect((await api(m.token, "POST", "/api/exam/official/save", { uuid, answers, answeredAt })).data).toMatchObject({ closed: true, pendingReview: 8 });
    expect(await lateRows(row.id)).toEqual(queue);
    expect((await attemptRow(uuid)).late_answers).toBe(8);
  });

  it("keeps answers that arrive a day late too (never lost), graded on a marker's decision only", async () => {
    const m = await member();
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    const uuid = start.attempt.uuid as string;
    const ids = start.questions.map((q: { id: number }) => q.id as number) as number[];
    const keys = await keysOf(ids);
    // Cut off at the start, answers looked up, sent 23 hours after the deadline.
    const deadline = now() - 23 * 3600;
    await t.database.db.query("update exam_attempt set started_at = $1, deadline = $2, last_seen_at = $3 where uuid = $4", [deadline - 900, deadline, (deadline - 900) * 1000, uuid]);
    const answers = Object.fromEntries(ids.map((id) => [String(id), keys.get(id)]));
    const answeredAt = Object.fromEntries(ids.map((id) => [String(id), deadline * 1000 - 5_000]));
    expect((await api(m.token, "POST", "/api/exam/official/save", { uuid, answers, answeredAt })).data).toMatchObject({ closed: true, pendingReview: 10 });
    const row = await attemptRow(uuid);
    expect(row).toMatchObject({ status: "expired", score: 0, passed: false, answers: {} });
    const queue = await lateRows(row.id);
    expect(queue).toHaveLength(10);
    expect(Number(queue[0]!.away_ms)).toBeGreaterThan(23 * 3600 * 1000);

    // A marker accepts two and rejects one: the attempt is graded again with the accepted ones.
    expect(await decideLateAnswer(t.database.db, queue[0]!.id, "accepted")).toEqual({ outcome: "decided", score: 2, passed: false });
    expect(await decideLateAnswer(t.database.db, queue[1]!.id, "accepted")).toEqual({ outcome: "decided", score: 4, passed: false });
    expect(await decideLateAnswer(t.database.db, queue[2]!.id, "rejected")).toEqual({ outcome: "decided", score: 4, passed: false });
    expect(await decideLateAnswer(t.database.db, queue[2]!.id, "accepted")).toEqual({ outcome: "already-decided" });
    expect(await decideLateAnswer(t.database.db, 2_000_000_000, "accepted")).toEqual({ outcome: "unknown" });
    const after = await attemptRow(uuid);
    expect(after).toMatchObject({ status: "expired", score: 4 });
    expect(Object.keys(after.answers).sort()).toEqual([queue[0]!.question_id, queue[1]!.question_id].map(String).sort());
    expect((await lateRows(row.id)).map((r) => r.status)).toEqual(["accepted", "accepted", "rejected", ...Array(7).fill("pending")]);
    expect((await api(m.token, "GET", `/api/exam/record?uuid=${uuid}`)).data.attempt).toMatchObject({ score: 4, pendingReview: 7 });
    // A rejected answer sent again stays out.
    await api(m.token, "POST", "/api/exam/official/save", { uuid, answers: { [queue[2]!.question_id]: keys.get(queue[2]!.question_id) }, answeredAt: { [queue[2]!.question_id]: deadline * 1000 } });
    expect((await lateRows(row.id))[2]).toMatchObject({ status: "rejected" });
    // Accepting the rest grades the whole attempt.
    for (const r of queue.slice(3)) await decideLateAnswer(t.database.db, r.id, "accepted");
    expect(await attemptRow(uuid)).toMatchObject({ score: 18, passed: true });
  });

  it("refuses late answers in a room whose policy says so", async () => {
    const m = await member();
    const strict = (
      await t.database.db.query<{ id: number }>(
        `insert into exam_room (paper_id, title, start_time, end_time, duration, attempts_allowed, pass_score, late_policy)
         values ($1, 'strict', $2, $3, 600, 1, 12, 'refuse') returning id`,
        [roomPaper, now() - 60, now() + 3600],
      )
    ).rows[0]!.id;
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId: strict })).data;
    const q = start.questions[0].id as number;
    await t.database.db.query("update exam_attempt set deadline = $1 where uuid = $2", [now() - 61, start.attempt.uuid]);
    const res = await api(m.token, "POST", "/api/exam/official/save", { uuid: start.attempt.uuid, answers: { [q]: "A" }, answeredAt: { [q]: Date.now() - 120_000 } });
    expect(res).toMatchObject({ code: 0, msg: "The time for this exam is up: answers that reached the server after the deadline were not accepted.", data: { closed: true, refused: 1, pendingReview: 0 } });
    const row = await attemptRow(start.attempt.uuid);
    expect(row).toMatchObject({ status: "expired", answers: {}, late_answers: 1 });
    expect(await lateRows(row.id)).toEqual([]);
  });

  it("names an official attempt by its room (start, records, record) and shows the room's pass mark; a mock attempt has no room", async () => {
    const m = await member();
    // A room of its own: its title and pass mark differ from its paper's.
    const paper = (await t.database.db.query<{ title: string; pass_score: string }>("select title, pass_score from exam_paper where id = $1", [roomPaper])).rows[0]!;
    expect(Number(paper.pass_score)).not.toBe(16);
    const named = (
      await t.database.db.query<{ id: number }>(
        `insert into exam_room (paper_id, title, start_time, end_time, duration, attempts_allowed, pass_score, review_policy)
         values ($1, 'Spring finals (room)', $2, $3, 600, 1, 16, 'submitted') returning id`,
        [roomPaper, now() - 60, now() + 3600],
      )
    ).rows[0]!.id;
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId: named })).data;
    expect(start.attempt).toMatchObject({ roomId: named, roomTitle: "Spring finals (room)" });
    const ids = start.questions.map((q: { id: number }) => q.id as number) as number[];
    const keys = await keysOf(ids);
    // 14 of 20 points: passes the paper's 12, not the room's 16 — the room decides.
    const answers = Object.fromEntries(ids.map((id, i) => [String(id), i < 7 ? keys.get(id) : wrongFor(keys.get(id))]));
    expect(await api(m.token, "POST", "/api/exam/official/submit", { uuid: start.attempt.uuid, answers })).toMatchObject({ code: 1, data: { score: 14, passed: false } });

    const mockId = randomUUID();
    const op = { id: randomUUID(), type: "attempt.submit", at: Date.now(), payload: { attemptId: mockId, paperId: fixedPaper, startedAt: Date.now() - 1000, submittedAt: Date.now(), answers: {} } };
    expect((await api(m.token, "POST", "/api/exam/sync", { ops: [op] })).data.results[0].status).toBe("applied");

    const list = (await api(m.token, "GET", "/api/exam/records")).data.list as { uuid: string; kind: string; paperTitle: string; roomTitle: string | null }[];
    expect(list.find((r) => r.uuid === start.attempt.uuid)).toMatchObject({ kind: "official", paperTitle: paper.title, roomTitle: "Spring finals (room)", passed: false });
    expect(list.find((r) => r.uuid === mockId)).toMatchObject({ kind: "mock", paperTitle: FIXED_TITLE, roomTitle: null });
    const official = (await api(m.token, "GET", `/api/exam/record?uuid=${start.attempt.uuid}`)).data.attempt;
    expect(official).toMatchObject({ paperTitle: paper.title, roomTitle: "Spring finals (room)", passScore: 16, passed: false, score: 14 });
    const mock = (await api(m.token, "GET", `/api/exam/record?uuid=${mockId}`)).data.attempt;
    expect(mock).toMatchObject({ roomTitle: null, passScore: 12 });

    // The room deleted later: the attempt keeps its paper's name and the pass mark it was graded
    // by (the room's, kept with what it sat), so "not passed" still agrees with it.
    await t.database.db.query("delete from exam_room where id = $1", [named]);
    expect((await api(m.token, "GET", `/api/exam/record?uuid=${start.attempt.uuid}`)).data.attempt).toMatchObject({ roomTitle: null, paperTitle: paper.title, passScore: 16, passed: false });
  });

  it("keeps a hostile claimed time within bounds, never a server error", async () => {
    const m = await member();
    const start = (await api(m.token, "POST", "/api/exam/official/start", { roomId })).data;
    const q = start.questions[0].id as number;
    await t.database.db.query("update exam_attempt set deadline = $1 where uuid = $2", [now() - 61, start.attempt.uuid]);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/exam/official/save",
      headers: { "ba-user-token": m.token, "think-lang": "en" },
      payload: { uuid: start.attempt.uuid, answers: { [q]: "A" }, answeredAt: { [q]: 9_000_000_000_000_000 } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 0, data: { closed: true, pendingReview: 1 } });
    const row = await attemptRow(start.attempt.uuid);
    expect((await lateRows(row.id))[0]).toMatchObject({ claimed_at: 8_640_000_000_000_000 });
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

  it("holds the attempt limit and one open attempt when starts arrive at once (two servers on PostgreSQL)", async () => {
    const m = await member();
    const other = await t.database.openAnother();
    const second = other ? await buildApp(testConfig(), { db: other }) : null;
    try {
      const apps = second ? [t.app, second] : [t.app];
      const burst = () =>
        Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            apps[i % apps.length]!.inject({ method: "POST", url: "/api/exam/official/start", headers: { "ba-user-token": m.token, "think-lang": "en" }, payload: { roomId } }).then((r) => r.json()),
          ),
        );
      for (let round = 0; round < 3; round++) {
        const answers = await burst();
        expect(answers.map((a) => a.code)).toEqual(Array(6).fill(1));
        expect(new Set(answers.map((a) => a.data.attempt.uuid)).size).toBe(1);
        const open = await t.database.db.query<{ uuid: string }>("select uuid from exam_attempt where user_id = $1 and room_id = $2 and status = 'open'", [m.id, roomId]);
        expect(open.rows).toHaveLength(1);
        // The constraint holds too: a second open attempt for the member and room cannot exist.
        await expect(
          t.database.db.query(
            "insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, started_at, deadline, status) values ($1, $2, 'official', $3, $4, 0, 0, 'open')",
            [randomUUID(), m.id, roomPaper, roomId],
          ),
        ).rejects.toThrow();
        await t.database.db.query("update exam_attempt set deadline = 1 where uuid = $1", [open.rows[0]!.uuid]);
      }
      const refused = await burst();
      expect(refused.map((a) => a.msg)).toEqual(Array(6).fill("You have used all your attempts at this exam"));
      const total = await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_attempt where user_id = $1 and room_id = $2", [m.id, roomId]);
      expect(total.rows[0]!.n).toBe(3);
    } finally {
      await second?.close();
    }
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
