import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EditAnswer, ListAnswer } from "../../src/shared/admin/crud.ts";
import type { RoomOverride } from "../../src/shared/admin/rooms.ts";
import type { Catalog, ExamRecordDetail } from "../../src/shared/exam/catalog.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createCompany, createMember, createPaper, createQuestion, createRoom, type TestAdmin, type TestMember } from "../helpers/factories.ts";

/**
 * Fairness, as rooms opt in, and room-side withholding: a room may shuffle each
 * attempt's questions (kept on resume and in the record), give a member or a member group extra
 * time and attempts (overrides, the most generous wins), says what it keeps from practice and
 * refuses a save that would make a mock paper unusable until the admin confirms, and an official
 * start of a paper that no longer adds up to its total is refused.
 */

let t: TestApp;
let root: TestAdmin;

const { adminCall, memberCall, send } = callers(() => t.app);
/** The back office as the super admin; a 5xx fails the test. */
const call = <T = unknown,>(method: "GET" | "POST", url: string, payload?: object) => adminCall<T>(root, method, url, payload, { refuse5xx: true });
const start = (m: TestMember, roomId: number) => memberCall<OfficialStart>(m, "POST", "/api/exam/official/start", { roomId });
/** A room's row on its form or in its list, read field by field. */
type RoomRow = Record<string, unknown>;
/** A refused add or edit: the message of each refused field. */
type Refused = { fields: Record<string, string> };
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

/** A fixed paper of `n` single questions (1 point each) in an exam-only bank. */
async function fixedPaper(n: number, bankKind: "exam" | "practice" = "exam") {
  const db = t.database.db;
  const bank = await createBank(db, { kind: bankKind });
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await createQuestion(db, bank, { stem: `Q${i + 1}`, answer: "A" }));
  const paper = await createPaper(db, { rows: ids.map((id) => ({ fixed: id, score: 1 })) });
  return { bank, ids, paper };
}

const groupOf = async (name: string) => (await t.database.db.query<{ id: number }>("insert into user_group (name) values ($1) returning id", [name])).rows[0]!.id;
const overrideCount = async (roomId: number) => (await t.database.db.query<{ n: number }>("select count(*)::int as n from exam_room_override where room_id = $1", [roomId])).rows[0]!.n;

describe("shuffled questions per attempt", () => {
  it("gives each attempt its own order, the same on resume, in the attempt's record and snapshot; without the option, the paper's order", async () => {
    const db = t.database.db;
    const { ids, paper } = await fixedPaper(12);
    const shuffling = await createRoom(db, paper);
    await db.query("update exam_room set shuffle_questions = true where id = $1", [shuffling]);
    const plain = await createRoom(db, paper);

    const orders: number[][] = [];
    for (let i = 0; i < 6; i++) {
      const m = await createMember(db);
      const first = await start(m, shuffling);
      expect(first.code, first.msg).toBe(1);
      const order = (first.data.questions as { id: number }[]).map((q) => q.id);
      expect([...order].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      // Resume: the same attempt, the same order.
      const again = await start(m, shuffling);
      expect(again.data.attempt.uuid).toBe(first.data.attempt.uuid);
      expect((again.data.questions as { id: number }[]).map((q) => q.id)).toEqual(order);
      // What the attempt holds: its questions and its snapshot, in that order; the member's record too.
      const held = await db.query<{ questions: { id: number }[]; snap: { id: number }[] }>(
        "select a.questions, s.questions as snap from exam_attempt a join exam_attempt_snapshot s on s.attempt_id = a.id where a.uuid = $1",
        [first.data.attempt.uuid],
      );
      expect(held.rows[0]!.questions.map((q) => q.id)).toEqual(order);
      expect(held.rows[0]!.snap.map((q) => q.id)).toEqual(order);
      const record = await memberCall<ExamRecordDetail>(m, "GET", `/api/exam/record?uuid=${first.data.attempt.uuid}`);
      expect(record.code, record.msg).toBe(1);
      expect((record.data.questions as { id: number }[]).map((q) => q.id)).toEqual(order);
      orders.push(order);
    }
    // 6 orders of 12 questions all equal by chance: (1/12!)^5.
    expect(new Set(orders.map((o) => o.join(","))).size).toBeGreaterThan(1);
    expect(orders.some((o) => o.join(",") !== ids.join(","))).toBe(true);

    for (let i = 0; i < 3; i++) {
      const m = await createMember(db);
      const s = await start(m, plain);
      expect((s.data.questions as { id: number }[]).map((q) => q.id)).toEqual(ids);
    }
  });

  it("is a switch of the room form, saved and read back", async () => {
    const { paper } = await fixedPaper(2);
    const room = await createRoom(t.database.db, paper);
    const row = (await call<EditAnswer<RoomRow>>("GET", `/admin/exam/room/edit?id=${room}`)).data.row;
    expect(row.shuffle_questions).toBe(false);
    const saved = await call("POST", "/admin/exam/room/edit", { ...row, shuffle_questions: true });
    expect(saved.code, saved.msg).toBe(1);
    expect((await call<EditAnswer<RoomRow>>("GET", `/admin/exam/room/edit?id=${room}`)).data.row.shuffle_questions).toBe(true);
  });

  it("refuses an enabled room on a disabled paper (members would see an exam no start can load)", async () => {
    const { paper } = await fixedPaper(2);
    const room = await createRoom(t.database.db, paper);
    await t.database.db.query("update exam_paper set status = 'disable' where id = $1", [paper]);
    const row = (await call<EditAnswer<RoomRow>>("GET", `/admin/exam/room/edit?id=${room}`)).data.row;
    const refused = await call<Refused>("POST", "/admin/exam/room/edit", { ...row, title: "Renamed" });
    expect(refused.code).toBe(0);
    expect(refused.data.fields.paper_id).toBe("This paper is disabled: enable it, or disable the room, before saving");
    expect((await call<EditAnswer<RoomRow>>("GET", `/admin/exam/room/edit?id=${room}`)).data.row.title).toBe(row.title);
    // Disabling the room with it is allowed.
    expect((await call("POST", "/admin/exam/room/edit", { ...row, status: "disable" })).code).toBe(1);
  });
});

describe("overrides: extra time and attempts for a member or a group", () => {
  it("are listed, added and removed by the room's actions; bad input is refused with a reason and changes nothing", async () => {
    const db = t.database.db;
    const { paper } = await fixedPaper(2);
    const room = await createRoom(db, paper);
    const m = await createMember(db);
    const group = await groupOf("night shift");

    const bad: [object, RegExp][] = [
      [{ id: room, user_id: 999_999, extra_minutes: 10 }, /member does not exist/],
      [{ id: room, user_group_id: 999_999, extra_minutes: 10 }, /group does not exist/],
      [{ id: room, extra_minutes: 10 }, /Choose a member or a member group/],
      [{ id: room, user_id: m.id, user_group_id: group, extra_minutes: 10 }, /not both/],
      [{ id: room, user_id: m.id, extra_minutes: -5 }, /extra minutes, from 0 to 1440/],
      [{ id: room, user_id: m.id, extra_minutes: 100_000 }, /extra minutes, from 0 to 1440/],
      [{ id: room, user_id: m.id, extra_minutes: 1.5 }, /extra minutes, from 0 to 1440/],
      [{ id: room, user_id: m.id, extra_attempts: 101 }, /extra attempts, from 0 to 100/],
      [{ id: room, user_id: m.id, extra_attempts: -1 }, /extra attempts, from 0 to 100/],
      [{ id: room, user_id: m.id }, /extra minutes, extra attempts or both/],
      [{ id: 999_999, user_id: m.id, extra_minutes: 10 }, /does not exist/],
    ];
    for (const [body, message] of bad) {
      const r = await call("POST", "/admin/exam/room/overrideAdd", body);
      expect(r.code, JSON.stringify(body)).toBe(0);
      expect(r.msg).toMatch(message);
    }
    expect(await overrideCount(room)).toBe(0);

    const added = await call<{ id: number }>("POST", "/admin/exam/room/overrideAdd", { id: room, user_id: m.id, extra_minutes: 15, extra_attempts: 1 });
    expect(added.code, added.msg).toBe(1);
    const group1 = await call<{ id: number }>("POST", "/admin/exam/room/overrideAdd", { id: room, user_group_id: group, extra_minutes: 5 });
    expect(group1.code, group1.msg).toBe(1);
    // The same target twice is refused.
    const twice = await call("POST", "/admin/exam/room/overrideAdd", { id: room, user_id: m.id, extra_minutes: 30 });
    expect(twice.code).toBe(0);
    expect(twice.msg).toMatch(/already has an override/);
    const twiceGroup = await call("POST", "/admin/exam/room/overrideAdd", { id: room, user_group_id: group, extra_attempts: 2 });
    expect(twiceGroup.code).toBe(0);
    expect(await overrideCount(room)).toBe(2);

    const listed = await call<{ overrides: RoomOverride[] }>("GET", `/admin/exam/room/overrides?id=${room}`);
    expect(listed.code, listed.msg).toBe(1);
    expect(listed.data.overrides).toEqual([
      { id: added.data.id, member: { id: m.id, username: m.username, nickname: "" }, group: null, extraMinutes: 15, extraAttempts: 1 },
      { id: group1.data.id, member: null, group: { id: group, name: "night shift" }, extraMinutes: 5, extraAttempts: 0 },
    ]);
    // Shown on the room list.
    const list = await call<ListAnswer<RoomRow>>("GET", `/admin/exam/room/index?search[0][field]=id&search[0][val]=${room}&search[0][operator]=eq`);
    expect(list.data.list[0]!.overrides).toBe(2);

    // Removing: only an override of this room.
    const otherRoom = await createRoom(db, paper);
    expect((await call("POST", "/admin/exam/room/overrideDel", { id: otherRoom, override_id: added.data.id })).code).toBe(0);
    expect((await call("POST", "/admin/exam/room/overrideDel", { id: room, override_id: added.data.id })).code).toBe(1);
    expect(await overrideCount(room)).toBe(1);
  });

  it("a company admin names only members of their companies", async () => {
    const db = t.database.db;
    const { paper } = await fixedPaper(1);
    const room = await createRoom(db, paper);
    const mine = await createCompany(db, { name: "mine" });
    const theirs = await createCompany(db, { name: "theirs" });
    await db.query("update exam_room set company_id = $1 where id = $2", [mine, room]);
    const boss = await createAdmin(db, { companyId: mine });
    const group = (await db.query<{ id: number }>("insert into admin_group (name, rules) values ('rooms', '*') returning id")).rows[0]!.id;
    await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [boss.id, group]);
    const ours = await createMember(db, { companyId: mine });
    const other = await createMember(db, { companyId: theirs });
    const add = (userId: number) =>
      send(boss, "POST", "/admin/exam/room/overrideAdd", { id: room, user_id: userId, extra_minutes: 5 });
    const refused = await add(other.id);
    expect(refused.code).toBe(0);
    expect(refused.msg).toMatch(/member does not exist/);
    expect((await add(ours.id)).code).toBe(1);
    expect(await overrideCount(room)).toBe(1);
  });

  it("start applies them: the most generous of member and group overrides lengthens the attempt and adds attempts; the member's catalogue says so", async () => {
    const db = t.database.db;
    const { paper } = await fixedPaper(2);
    const room = await createRoom(db, paper, { duration: 600, attemptsAllowed: 1 });
    const group = await groupOf("extra time");
    const both = await createMember(db, { groupId: group });
    const plain = await createMember(db);
    expect((await call("POST", "/admin/exam/room/overrideAdd", { id: room, user_id: both.id, extra_minutes: 10, extra_attempts: 0 + 1 })).code).toBe(1);
    expect((await call("POST", "/admin/exam/room/overrideAdd", { id: room, user_group_id: group, extra_minutes: 20 })).code).toBe(1);

    const catalogRoom = async (m: TestMember) => (await memberCall<Catalog>(m, "GET", "/api/exam/catalog")).data.rooms.find((r) => r.id === room);
    expect(await catalogRoom(both)).toMatchObject({ duration: 600 + 1200, extraMinutes: 20, attemptsAllowed: 2, extraAttempts: 1, attemptsLeft: 2 });
    expect(await catalogRoom(plain)).toMatchObject({ duration: 600, extraMinutes: 0, attemptsAllowed: 1, extraAttempts: 0, attemptsLeft: 1 });

    const a = await start(both, room);
    expect(a.code, a.msg).toBe(1);
    expect(a.data.attempt.deadline - a.data.attempt.startedAt).toBe(600 + 1200);
    const p = await start(plain, room);
    expect(p.data.attempt.deadline - p.data.attempt.startedAt).toBe(600);

    // Attempts: the member's extra one is theirs, the plain member has only the room's.
    expect((await memberCall(both, "POST", "/api/exam/official/submit", { uuid: a.data.attempt.uuid, answers: {} })).code).toBe(1);
    expect((await memberCall(plain, "POST", "/api/exam/official/submit", { uuid: p.data.attempt.uuid, answers: {} })).code).toBe(1);
    expect(await catalogRoom(both)).toMatchObject({ attemptsLeft: 1 });
    const second = await start(both, room);
    expect(second.code, second.msg).toBe(1);
    expect(second.data.attempt.uuid).not.toBe(a.data.attempt.uuid);
    expect((await memberCall(both, "POST", "/api/exam/official/submit", { uuid: second.data.attempt.uuid, answers: {} })).code).toBe(1);
    const third = await start(both, room);
    expect(third.code).toBe(0);
    expect(third.msg).toMatch(/used all your attempts/);
    const again = await start(plain, room);
    expect(again.code).toBe(0);
    expect(again.msg).toMatch(/used all your attempts/);
  });

  it("extra time goes past the room's end: a late start still gets it, the attempt resumes after the end, and the room's questions stay withheld until the last extra minute", async () => {
    const db = t.database.db;
    const { ids, paper } = await fixedPaper(2, "practice");
    const room = await createRoom(db, paper, { duration: 600, endTime: now() + 120, reviewPolicy: "closed" });
    const slow = await createMember(db);
    const plain = await createMember(db);
    expect((await call("POST", "/admin/exam/room/overrideAdd", { id: room, user_id: slow.id, extra_minutes: 30 })).code).toBe(1);
    const end = Number((await db.query<{ end_time: string }>("select end_time from exam_room where id = $1", [room])).rows[0]!.end_time);

    const s = await start(slow, room);
    const p = await start(plain, room);
    // The plain member's attempt ends with the room; the slow member's 30 minutes later.
    expect(p.data.attempt.deadline).toBe(end);
    expect(s.data.attempt.deadline).toBe(end + 1800);

    // The room's end passes: a new start is refused, the slow member resumes their attempt.
    await db.query("update exam_room set end_time = $1 where id = $2", [now() - 10, room]);
    await db.query("update exam_attempt set deadline = $1 where uuid = $2", [now() - 10 + 1800, s.data.attempt.uuid]);
    const newcomer = await createMember(db);
    expect((await start(newcomer, room)).msg).toMatch(/has ended/);
    const resumed = await start(slow, room);
    expect(resumed.code, resumed.msg).toBe(1);
    expect(resumed.data.attempt.uuid).toBe(s.data.attempt.uuid);
    // Answers still count.
    const saved = await memberCall(slow, "POST", "/api/exam/official/save", { uuid: s.data.attempt.uuid, answers: { [ids[0]!]: "A" } });
    expect(saved.code, saved.msg).toBe(1);

    // The room has ended but a member may still be sitting it: its questions stay out of practice, its answers unrevealed.
    const withheld = await db.query("select question_id from exam_withheld_question where room_id = $1", [room]);
    expect(withheld.rows.map((r) => r.question_id).sort()).toEqual([...ids].sort());
    const finished = await memberCall(plain, "POST", "/api/exam/official/submit", { uuid: p.data.attempt.uuid, answers: {} });
    expect(finished.code, finished.msg).toBe(1);
    const record = await memberCall<ExamRecordDetail>(plain, "GET", `/api/exam/record?uuid=${p.data.attempt.uuid}`);
    expect(record.code, record.msg).toBe(1);
    for (const q of record.data.questions) expect(q.answer).toBeUndefined();
    // The member is told when: once the last extra minute has passed (the slow member's deadline).
    const lastDeadline = Number((await db.query<{ deadline: string }>("select deadline from exam_attempt where uuid = $1", [s.data.attempt.uuid])).rows[0]!.deadline);
    expect(lastDeadline).toBeGreaterThan(now());
    expect(record.data.attempt.answersShownAt).toBe(lastDeadline);

    // Once the last extra minute has passed too, the room is closed for everyone.
    await db.query("update exam_room set end_time = $1 where id = $2", [now() - 1800 - 10, room]);
    expect((await db.query("select 1 from exam_withheld_question where room_id = $1", [room])).rows).toEqual([]);
    const revealed = await memberCall<ExamRecordDetail>(plain, "GET", `/api/exam/record?uuid=${p.data.attempt.uuid}`);
    expect(revealed.data.questions.every((q) => q.answer !== undefined)).toBe(true);
    expect(revealed.data.attempt.answersShownAt).toBeNull();
  });
});

describe("room-side withholding made visible", () => {
  it("the room list says how many practice questions a room keeps out until when; a save that makes mock papers unusable is refused naming them until confirmed", async () => {
    const db = t.database.db;
    const { ids, paper } = await fixedPaper(3, "practice");
    // Another mock paper sharing a question: it too would be kept for the exam.
    const sharing = await createPaper(db, { title: "Shared mock", rows: [{ fixed: ids[0]!, score: 1 }] });
    const unrelated = await fixedPaper(1, "practice");
    await db.query("update exam_paper set title = 'Road mock' where id = $1", [paper]);
    const catalogPapers = async () => (await memberCall<Catalog>(await createMember(db), "GET", "/api/exam/catalog")).data.papers.map((p) => p.id);
    expect(await catalogPapers()).toEqual(expect.arrayContaining([paper, sharing, unrelated.paper]));

    const end = now() + 7200;
    const body = { paper_id: paper, title: "Road final", start_time: now() - 60, end_time: end, duration: 600, attempts_allowed: 1, pass_score: 1, status: "enable" };
    const preview = await call("GET", `/admin/exam/room/withholding?paper_id=${paper}&end_time=${end}`);
    expect(preview.code, preview.msg).toBe(1);
    expect(preview.data).toEqual({ closesAt: end, questions: 3, papers: [{ id: paper, title: "Road mock" }, { id: sharing, title: "Shared mock" }] });

    const refused = await call<Refused>("POST", "/admin/exam/room/add", body);
    expect(refused.code).toBe(0);
    expect(refused.data.fields.confirm_withhold).toMatch(/“Road mock”, “Shared mock”/);
    expect((await db.query("select 1 from exam_room where title = 'Road final'")).rows).toEqual([]);
    expect(await catalogPapers()).toEqual(expect.arrayContaining([paper, sharing]));

    const saved = await call("POST", "/admin/exam/room/add", { ...body, confirm_withhold: true });
    expect(saved.code, saved.msg).toBe(1);
    const papersNow = await catalogPapers();
    expect(papersNow).not.toContain(paper);
    expect(papersNow).not.toContain(sharing);
    expect(papersNow).toContain(unrelated.paper);

    const roomId = (await db.query<{ id: number }>("select id from exam_room where title = 'Road final'")).rows[0]!.id;
    const list = await call<ListAnswer<RoomRow>>("GET", `/admin/exam/room/index?search[0][field]=id&search[0][val]=${roomId}&search[0][operator]=eq`);
    expect(list.data.list[0]).toMatchObject({ withheld_questions: 3, closes_at: end, paper_total: 3, paper_rows_total: 3 });
    // Editing it again: nothing new is kept from mock exams, so no confirm is needed.
    const row = (await call<EditAnswer<RoomRow>>("GET", `/admin/exam/room/edit?id=${roomId}`)).data.row;
    const edited = await call("POST", "/admin/exam/room/edit", { ...row, title: "Road final (2)" });
    expect(edited.code, edited.msg).toBe(1);
    // A room that has closed keeps nothing.
    await db.query("update exam_room set end_time = $1 where id = $2", [now() - 10, roomId]);
    const closed = await call<ListAnswer<RoomRow>>("GET", `/admin/exam/room/index?search[0][field]=id&search[0][val]=${roomId}&search[0][operator]=eq`);
    expect(closed.data.list[0]!.withheld_questions).toBe(0);
  });
});

describe("a paper changed after a room uses it", () => {
  it("no longer adding up to its total: the list says so and an official start is refused, nothing written", async () => {
    const db = t.database.db;
    const { ids, paper } = await fixedPaper(3);
    const room = await createRoom(db, paper);
    const m = await createMember(db);
    // Staff raise one row's points after the room was saved: 4 of 3.
    await db.query("update exam_paper_row set score = 2 where paper_id = $1 and question_id = $2", [paper, ids[0]]);
    const list = await call<ListAnswer<RoomRow>>("GET", `/admin/exam/room/index?search[0][field]=id&search[0][val]=${room}&search[0][operator]=eq`);
    expect(list.data.list[0]).toMatchObject({ paper_total: 3, paper_rows_total: 4 });
    const refused = await start(m, room);
    expect(refused.code).toBe(0);
    expect(refused.msg).toMatch(/no longer add up to its total/);
    expect((await db.query("select 1 from exam_attempt where room_id = $1", [room])).rows).toEqual([]);
    // Corrected: the start goes ahead.
    await db.query("update exam_paper_row set score = 1 where paper_id = $1", [paper]);
    expect((await start(m, room)).code).toBe(1);
  });
});
