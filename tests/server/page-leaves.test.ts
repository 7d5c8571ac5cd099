import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PAGE_LEAVES, PAGE_LEAVE_GRACE_MS } from "../../src/shared/exam/pageLeaves.ts";
import type { EditAnswer, ListAnswer } from "../../src/shared/admin/crud.ts";
import type { RoomResults } from "../../src/shared/admin/rooms.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createMember, createOfficialExam, createPaper, createQuestion, createRoom, type TestAdmin, type TestMember } from "../helpers/factories.ts";

/**
 * Page leaves of official exams: each time the exam page was hidden and shown again,
 * the device sends an `official.leave` sync op with when it left and came back (ms on the
 * server's clock); the server keeps them per attempt, within the attempt's time, once per
 * departure, at most MAX_PAGE_LEAVES, and markers see them (marking queue, room results).
 */

let t: TestApp;
let root: TestAdmin;
beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

const { adminCall, memberCall: api } = callers(() => t.app);

async function sitting() {
  const exam = await createOfficialExam(t.database.db, { singles: 3, judges: 0, draw: 2 });
  const m = await createMember(t.database.db);
  const started = await api<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId: exam.roomId });
  expect(started.code, started.msg).toBe(1);
  const { uuid, startedAt, deadline } = started.data.attempt;
  return { m, exam, uuid, startMs: startedAt * 1000, deadlineMs: deadline * 1000 };
}

const leaveOp = (uuid: string, leftAt: number, backAt: number) => ({ id: randomUUID(), type: "official.leave", at: Date.now(), payload: { uuid, leftAt, backAt } });

async function sync(m: TestMember, ops: object[]): Promise<{ id: string; status: string; msg?: string }[]> {
  const body = await api<{ results: { id: string; status: string; msg?: string }[] }>(m, "POST", "/api/exam/sync", { ops });
  expect(body.code, body.msg).toBe(1);
  return body.data.results;
}

async function stored(uuid: string): Promise<{ leftAt: number; backAt: number }[]> {
  const { rows } = await t.database.db.query<{ left_at: string; back_at: string }>(
    "select l.left_at, l.back_at from exam_attempt_leave l join exam_attempt a on a.id = l.attempt_id where a.uuid = $1 order by l.left_at",
    [uuid],
  );
  return rows.map((r) => ({ leftAt: Number(r.left_at), backAt: Number(r.back_at) }));
}

describe("page leaves of an official attempt", () => {
  it("are stored per attempt, once however often they are sent", async () => {
    const s = await sitting();
    const t0 = Math.max(s.startMs, Date.now() - 30_000);
    const first = leaveOp(s.uuid, t0 + 1000, t0 + 4000);
    const second = leaveOp(s.uuid, t0 + 6000, t0 + 6500);
    expect((await sync(s.m, [first, second])).map((r) => r.status)).toEqual(["applied", "applied"]);
    // The answer was lost: the device sends the same ops again.
    expect((await sync(s.m, [first, second])).map((r) => r.status)).toEqual(["duplicate", "duplicate"]);
    // The same departure in a new op (the device queued it again): no second row.
    expect((await sync(s.m, [leaveOp(s.uuid, t0 + 1000, t0 + 4000)]))[0]!.status).toBe("applied");
    expect(await stored(s.uuid)).toEqual([
      { leftAt: t0 + 1000, backAt: t0 + 4000 },
      { leftAt: t0 + 6000, backAt: t0 + 6500 },
    ]);
  });

  it("refuse another member's attempt and an unknown one, changing nothing", async () => {
    const s = await sitting();
    const other = await createMember(t.database.db);
    const now = Date.now();
    const notMine = await sync(other, [leaveOp(s.uuid, now - 2000, now - 1000)]);
    expect(notMine[0]).toMatchObject({ status: "rejected", msg: "This exam record does not exist" });
    const unknown = await sync(s.m, [leaveOp(randomUUID(), now - 2000, now - 1000)]);
    expect(unknown[0]).toMatchObject({ status: "rejected", msg: "This exam record does not exist" });
    expect(await stored(s.uuid)).toEqual([]);
  });

  it("refuse hostile values and leaves outside the attempt's time; the good op goes through", async () => {
    const s = await sitting();
    const now = Date.now();
    const results = await sync(s.m, [
      // Schema: back before it left, not integers, a time before 2020, not a uuid.
      leaveOp(s.uuid, now - 1000, now - 2000),
      { ...leaveOp(s.uuid, now - 2000, now - 1000), payload: { uuid: s.uuid, leftAt: "1", backAt: now } },
      leaveOp(s.uuid, 1000, now),
      leaveOp("not-a-uuid", now - 2000, now - 1000),
      // Before the attempt started (grace past), after its deadline, in the server's future.
      leaveOp(s.uuid, s.startMs - PAGE_LEAVE_GRACE_MS - 1, s.startMs),
      leaveOp(s.uuid, now - 1000, s.deadlineMs + PAGE_LEAVE_GRACE_MS + 1),
      leaveOp(s.uuid, now - 1000, now + PAGE_LEAVE_GRACE_MS + 60_000),
      leaveOp(s.uuid, now - 2000, now - 1000),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected", "rejected", "rejected", "rejected", "rejected", "applied"]);
    expect(results[4]!.msg).toBe("This page leave is outside the exam's time");
    expect(results[6]!.msg).toBe("This page leave is outside the exam's time");
    expect(await stored(s.uuid)).toEqual([{ leftAt: now - 2000, backAt: now - 1000 }]);
  });

  it(`keep at most ${MAX_PAGE_LEAVES} per attempt; a leave already kept is still taken`, async () => {
    const s = await sitting();
    const base = s.startMs;
    const id = (await t.database.db.query<{ id: number }>("select id from exam_attempt where uuid = $1", [s.uuid])).rows[0]!.id;
    await t.database.db.query(
      "insert into exam_attempt_leave (attempt_id, left_at, back_at, received_at) select $1, $2::bigint + g, $2::bigint + g, 0 from generate_series(0, $3 - 2) g",
      [id, base, MAX_PAGE_LEAVES],
    );
    // The last one that fits.
    expect((await sync(s.m, [leaveOp(s.uuid, base + 5000, base + 6000)]))[0]!.status).toBe("applied");
    const over = await sync(s.m, [leaveOp(s.uuid, base + 7000, base + 8000), leaveOp(s.uuid, base + 5000, base + 6000)]);
    expect(over[0]).toMatchObject({ status: "rejected", msg: `This exam already records ${MAX_PAGE_LEAVES} page leaves, the most it keeps` });
    expect(over[1]!.status).toBe("applied");
    expect((await stored(s.uuid)).length).toBe(MAX_PAGE_LEAVES);
  });

  it("after submission: a leave within the attempt's time is still taken (it was on its way); one after it is refused", async () => {
    const s = await sitting();
    const now = Date.now();
    const before = leaveOp(s.uuid, now - 3000, now - 2000);
    expect((await api(s.m, "POST", "/api/exam/official/submit", { uuid: s.uuid })).code).toBe(1);
    // Set the submission a little in the past so that "after it" is still before the server's now.
    const submittedAt = Math.floor(now / 1000) - 1;
    await t.database.db.query("update exam_attempt set submitted_at = $1 where uuid = $2", [submittedAt, s.uuid]);
    const after = leaveOp(s.uuid, submittedAt * 1000 + PAGE_LEAVE_GRACE_MS + 1, submittedAt * 1000 + PAGE_LEAVE_GRACE_MS + 2);
    // Within the grace of the server's now but after the submission's: refused.
    const results = await sync(s.m, [before, after]);
    expect(results.map((r) => r.status)).toEqual(["applied", "rejected"]);
    expect(await stored(s.uuid)).toEqual([{ leftAt: now - 3000, backAt: now - 2000 }]);
  });

  it("after the deadline (expired): a leave before it is taken, one past it refused", async () => {
    const s = await sitting();
    const past = Math.floor(Date.now() / 1000) - 3600;
    await t.database.db.query("update exam_attempt set started_at = $1, deadline = $2 where uuid = $3", [past - 600, past, s.uuid]);
    const ok = leaveOp(s.uuid, (past - 300) * 1000, (past - 200) * 1000);
    const late = leaveOp(s.uuid, (past - 10) * 1000, past * 1000 + PAGE_LEAVE_GRACE_MS + 1);
    expect((await sync(s.m, [ok, late])).map((r) => r.status)).toEqual(["applied", "rejected"]);
    expect(await stored(s.uuid)).toEqual([{ leftAt: (past - 300) * 1000, backAt: (past - 200) * 1000 }]);
  });
});

describe("markers see the page leaves", () => {
  it("in the marking queue (count and time away), the mark dialog's row (each leave) and the room results", async () => {
    const db = t.database.db;
    const bank = await createBank(db, { kind: "exam" });
    const short = await createQuestion(db, bank, { type: "short", options: [], answer: { keywords: ["light"], reference: "Light." } as never, score: 10 });
    const paper = await createPaper(db, { rows: [{ fixed: short, score: 10 }], totalScore: 10, passScore: 6 });
    const room = await createRoom(db, paper, { passScore: 6 });
    const m = await createMember(db);
    const quiet = await createMember(db);
    const start = async (who: TestMember) => (await api<OfficialStart>(who, "POST", "/api/exam/official/start", { roomId: room })).data.attempt.uuid;
    const uuid = await start(m);
    const quietUuid = await start(quiet);
    const now = Date.now();
    // Both started ten minutes ago.
    await db.query("update exam_attempt set started_at = started_at - 600 where uuid = any($1::text[])", [[uuid, quietUuid]]);
    const leaves = [
      { leftAt: now - 200_000, backAt: now - 130_000 },
      { leftAt: now - 100_000, backAt: now - 40_000 },
      { leftAt: now - 20_000, backAt: now - 10_000 },
    ];
    const results = await sync(m, leaves.map((l) => leaveOp(uuid, l.leftAt, l.backAt)));
    expect(results.map((r) => r.status)).toEqual(["applied", "applied", "applied"]);
    for (const [who, id] of [
      [m, uuid],
      [quiet, quietUuid],
    ] as const) {
      expect((await api(who, "POST", "/api/exam/official/submit", { uuid: id, answers: { [String(short)]: "light" } })).code).toBe(1);
    }

    const queue = await adminCall<ListAnswer<{ id: number; user_id: number }>>(root, "GET", `/admin/exam/marking/index?search[0][field]=room_id&search[0][operator]=eq&search[0][val]=${room}`);
    expect(queue.code, queue.msg).toBe(1);
    const rows = queue.data.list;
    const mine = rows.find((r) => r.user_id === m.id);
    expect(mine).toMatchObject({ page_leaves: 3, page_leave_ms: 140_000 });
    expect(rows.find((r) => r.user_id === quiet.id)).toMatchObject({ page_leaves: 0, page_leave_ms: 0 });
    const row = await adminCall<EditAnswer<{ page_leave_list: unknown }>>(root, "GET", `/admin/exam/marking/edit?id=${mine!.id}`);
    expect(row.code, row.msg).toBe(1);
    expect(row.data.row.page_leave_list).toEqual(leaves);

    const res = await adminCall<RoomResults>(root, "GET", `/admin/exam/room/results?id=${room}`);
    expect(res.code, res.msg).toBe(1);
    const byUser = new Map(res.data.attempts.map((a) => [a.userId, a.pageLeaves]));
    expect(byUser.get(m.id)).toEqual({ count: 3, totalMs: 140_000 });
    expect(byUser.get(quiet.id)).toEqual({ count: 0, totalMs: 0 });
  });
});
