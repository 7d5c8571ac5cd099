import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MessageSender, OutgoingMessage } from "../../src/server/auth/senders.ts";
import { runNotices, type NoticeRun } from "../../src/server/modules/notice/service.ts";
import { setSetting } from "../../src/server/settings.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { assign, createAdmin, createCompany, createMember, createOfficialExam, createRoom, type TestMember } from "../helpers/factories.ts";
import { browserSubscription, FakePushService } from "../helpers/push.ts";

/**
 * Notices to members (issue 41) on the real server and database: each trigger makes one notice
 * per member (even when the tick runs twice, or twice at once), only for members the room is
 * assigned to, never of a kind the member turned off; push only to a subscribed member with push
 * on, email only with a mail server and an address. The push service and the mail server are the
 * only fakes.
 */

class Outbox implements MessageSender {
  readonly name = "outbox-test";
  readonly sent: OutgoingMessage[] = [];
  async send(message: OutgoingMessage) {
    this.sent.push(message);
  }
}

let t: TestApp;
const push = new FakePushService();
const mail = new Outbox();

beforeAll(async () => {
  t = await createTestApp({ deps: { pushTransport: push, sender: mail } });
});
afterAll(() => t.close());
beforeEach(() => {
  push.requests.length = 0;
  mail.sent.length = 0;
});

const db = () => t.database.db;
const get = async (m: { headers: Record<string, string> }, url: string) => (await t.app.inject({ method: "GET", url, headers: m.headers })).json();
const post = async (m: { headers: Record<string, string> }, url: string, payload: object = {}) => (await t.app.inject({ method: "POST", url, headers: m.headers, payload })).json();
/** The member's notices a tick made (of one kind when told: rooms of other tests open to everyone may notify them too). */
const of = (run: NoticeRun, m: TestMember, kind?: string) =>
  run.made.filter((n) => n.userId === m.id && (kind === undefined || n.kind === kind)).map((n) => ({ kind: n.kind, channels: n.channels }));
const stored = async (m: TestMember) =>
  (await db().query<{ kind: string; ref: string }>("select kind, ref from notice where user_id = $1 order by id", [m.id])).rows.map((r) => `${r.kind}:${r.ref}`);
const group = async (name: string) => (await db().query<{ id: number }>("insert into user_group (name) values ($1) returning id", [name])).rows[0]!.id;
const nowS = () => Math.floor(Date.now() / 1000);
/** A paper with a room nobody may enter (a member-less group), so the tests' own rooms are the only ones their members see. */
const paper = async () => (await createOfficialExam(db(), { singles: 2, judges: 2, draw: 1, room: { userGroupId: await group("nobody") } })).paperId;

describe("room open", () => {
  it("once per assigned member when the room opens (ticks twice, and twice at once); a member assigned later gets it on the next tick", async () => {
    const paperId = await paper();
    const sitters = await group("sitters");
    const others = await group("others");
    const start = nowS() + 3600;
    const room = await createRoom(db(), paperId, { title: "Final", startTime: start, endTime: start + 3 * 86_400, userGroupId: sitters });
    const sitter = await createMember(db(), { groupId: sitters });
    const outsider = await createMember(db(), { groupId: others });

    // Before it opens: nothing.
    expect(of(await runNotices(t.app, (start - 60) * 1000), sitter)).toEqual([]);
    const [one, two] = await Promise.all([runNotices(t.app, start * 1000), runNotices(t.app, start * 1000)]);
    expect([...of(one, sitter), ...of(two, sitter)]).toEqual([{ kind: "room_open", channels: [] }]);
    expect(of(one, outsider)).toEqual([]);
    expect(of(await runNotices(t.app, (start + 60) * 1000), sitter)).toEqual([]);
    expect(await stored(sitter)).toEqual([`room_open:${room}`]);
    expect(await stored(outsider)).toEqual([]);

    // The outsider joins the room's group after it opened: the next tick tells them.
    await db().query("update member set group_id = $1 where id = $2", [sitters, outsider.id]);
    expect(of(await runNotices(t.app, (start + 120) * 1000), outsider)).toEqual([{ kind: "room_open", channels: [] }]);

    // The list renders from the stored facts; the bell's count.
    const list = await get(sitter, "/api/notice/list");
    expect(list).toMatchObject({ code: 1, data: { unread: 1, list: [{ kind: "room_open", data: { roomId: room, title: "Final", startTime: start, endTime: start + 3 * 86_400 }, readAt: null }] } });
  });

  it("respects the room's organisation assignment: a member of another company gets nothing", async () => {
    const paperId = await paper();
    const mine = await createCompany(db());
    const theirs = await createCompany(db());
    const start = nowS() + 2 * 3600;
    const room = await createRoom(db(), paperId, { startTime: start, endTime: start + 3 * 86_400 });
    await assign(db(), "room", room, { companies: [mine] });
    const inside = await createMember(db(), { companyId: mine });
    const outside = await createMember(db(), { companyId: theirs });
    const run = await runNotices(t.app, start * 1000);
    expect(of(run, inside)).toEqual([{ kind: "room_open", channels: [] }]);
    expect(of(run, outside)).toEqual([]);
  });
});

describe("room closing", () => {
  it("once, a day before the end (or in a short room's second half), only to members who have not submitted an attempt", async () => {
    const exam = await createOfficialExam(db(), { singles: 2, judges: 2, draw: 1, room: { startTime: nowS() - 3 * 86_400, endTime: nowS() + 20 * 3600, userGroupId: await group("closing") } });
    await db().query("update exam_room set user_group_id = null where id = $1", [exam.roomId]);
    const idle = await createMember(db());
    const done = await createMember(db());
    await post(idle, "/api/notice/preference", { room_open: false, room_closing: true, result: false, push: true, email: true });
    await post(done, "/api/notice/preference", { room_open: false, room_closing: true, result: false, push: true, email: true });
    const started = await post(done, "/api/exam/official/start", { roomId: exam.roomId });
    expect(started.code).toBe(1);
    expect((await post(done, "/api/exam/official/submit", { uuid: started.data.attempt.uuid })).code).toBe(1);

    const run = await runNotices(t.app, Date.now());
    expect(of(run, idle, "room_closing")).toEqual([{ kind: "room_closing", channels: [] }]);
    expect(of(run, done, "room_closing")).toEqual([]);
    expect(of(await runNotices(t.app, Date.now() + 60_000), idle, "room_closing")).toEqual([]);
    expect(await stored(idle)).toEqual([`room_closing:${exam.roomId}`]);

    // A three-hour room: its closing notice comes in its second half, not with its opening one.
    const short = await createRoom(db(), exam.paperId, { startTime: nowS() + 86_400, endTime: nowS() + 86_400 + 3 * 3600 });
    const other = await createMember(db());
    const open = await runNotices(t.app, (nowS() + 86_400) * 1000);
    expect(of(open, other).filter((n) => n.kind === "room_closing")).toEqual([]);
    const late = await runNotices(t.app, (nowS() + 86_400 + 2 * 3600) * 1000);
    expect(of(late, other).filter((n) => n.kind === "room_closing")).toEqual([{ kind: "room_closing", channels: [] }]);
    expect(await stored(other)).toContain(`room_closing:${short}`);
  });
});

describe("results", () => {
  it("once when an auto-graded result is submitted, once again when regraded; not while a marker has still to mark it; never to a member who turned results off", async () => {
    const exam = await createOfficialExam(db(), { singles: 2, judges: 2, draw: 1, room: { title: "Quiz" } });
    const sitter = await createMember(db());
    const quiet = await createMember(db());
    await post(quiet, "/api/notice/preference", { room_open: true, room_closing: true, result: false, push: true, email: true });
    const uuids: string[] = [];
    for (const m of [sitter, quiet]) {
      const started = await post(m, "/api/exam/official/start", { roomId: exam.roomId });
      uuids.push(started.data.attempt.uuid);
      expect((await post(m, "/api/exam/official/submit", { uuid: started.data.attempt.uuid })).code).toBe(1);
    }
    const { rows } = await db().query<{ id: number; score: string }>("select id, score from exam_attempt where uuid = $1", [uuids[0]]);
    const attempt = rows[0]!;

    // Pending marking holds the result back.
    await db().query("update exam_attempt set needs_review = true where id = $1", [attempt.id]);
    expect(of(await runNotices(t.app, Date.now()), sitter, "result")).toEqual([]);
    await db().query("update exam_attempt set needs_review = false where id = $1", [attempt.id]);
    const [a, b] = await Promise.all([runNotices(t.app, Date.now()), runNotices(t.app, Date.now())]);
    expect([...of(a, sitter, "result"), ...of(b, sitter, "result")]).toEqual([{ kind: "result", channels: [] }]);
    expect([...of(a, quiet, "result"), ...of(b, quiet, "result")]).toEqual([]);
    expect((await get(sitter, "/api/notice/list")).data.list[0]).toMatchObject({ kind: "result", data: { attemptId: attempt.id, title: "Quiz", score: Number(attempt.score), passed: false, regraded: false } });
    expect((await stored(quiet)).filter((r) => r.startsWith("result:"))).toEqual([]);

    // A regrade publishes the result again, once.
    const regradedAt = nowS();
    await db().query("update exam_attempt set regraded_at = $1 where id = $2", [regradedAt, attempt.id]);
    expect(of(await runNotices(t.app, Date.now()), sitter, "result")).toEqual([{ kind: "result", channels: [] }]);
    expect(of(await runNotices(t.app, Date.now()), sitter, "result")).toEqual([]);
    expect((await stored(sitter)).filter((r) => r.startsWith("result:"))).toEqual([`result:${attempt.id}`, `result:${attempt.id}@${regradedAt}`]);
  });
});

describe("channels", () => {
  it("push only to a subscribed member with push on; email only with a mail server, an address and email on", async () => {
    const paperId = await paper();
    const g = await group("channels");
    const start = nowS() + 5 * 86_400;
    await createRoom(db(), paperId, { title: "Mock final", startTime: start, endTime: start + 3 * 86_400, userGroupId: g });
    const subscribed = await createMember(db(), { groupId: g, email: "sub@example.com" });
    const pushOff = await createMember(db(), { groupId: g, email: "off@example.com" });
    const plain = await createMember(db(), { groupId: g });
    const subSub = browserSubscription();
    const offSub = browserSubscription();
    for (const [m, sub] of [[subscribed, subSub], [pushOff, offSub]] as const) {
      const res = await post(m, "/api/push/subscribe", { device: `dev-${m.id}-abcdef`, subscription: { endpoint: sub.endpoint, keys: sub.keys }, hour: 9, timeZone: "UTC" });
      expect(res.code).toBe(1);
    }
    await post(pushOff, "/api/notice/preference", { room_open: true, room_closing: true, result: true, push: false, email: false });

    // No mail server: push only.
    const run = await runNotices(t.app, start * 1000);
    expect(of(run, subscribed)).toEqual([{ kind: "room_open", channels: ["push"] }]);
    expect(of(run, pushOff)).toEqual([{ kind: "room_open", channels: [] }]);
    expect(of(run, plain)).toEqual([{ kind: "room_open", channels: [] }]);
    expect(push.to(offSub.endpoint)).toHaveLength(0);
    // In the language the member subscribed with (the test's requests say English).
    expect(subSub.decrypt(push.to(subSub.endpoint)[0]!.body!)).toMatchObject({ body: "Exam room “Mock final” is open: you can sit it now.", url: "/exam/examTab/officialTest" });
    expect(mail.sent).toEqual([]);

    // A mail server in the settings: email to members with an address and email on.
    await setSetting(db(), "mail_host", "smtp.example.com");
    try {
      const later = start + 86_400;
      await createRoom(db(), paperId, { title: "Resit", startTime: later, endTime: later + 3 * 86_400, userGroupId: g });
      const run2 = await runNotices(t.app, later * 1000);
      expect(of(run2, subscribed)).toEqual([{ kind: "room_open", channels: ["push", "email"] }]);
      expect(of(run2, pushOff)).toEqual([{ kind: "room_open", channels: [] }]);
      expect(of(run2, plain)).toEqual([{ kind: "room_open", channels: [] }]);
      expect(mail.sent.map((m) => [m.target, m.subject, m.body])).toEqual([["sub@example.com", "ExamHub: Exam room open", "Exam room “Resit” is open: you can sit it now."]]);
      const { rows } = await db().query<{ channels: string }>("select channels from notice where user_id = $1 order by id", [subscribed.id]);
      expect(rows.map((r) => r.channels)).toEqual(["app,push", "app,push,email"]);
    } finally {
      await setSetting(db(), "mail_host", "");
    }
  });
});

describe("the member's endpoints", () => {
  it("list, mark one read (only their own), mark all read; preferences; bad input in the envelope", async () => {
    const paperId = await paper();
    const g = await group("reader");
    const start = nowS() + 10 * 86_400;
    for (const title of ["A", "B"]) await createRoom(db(), paperId, { title, startTime: start, endTime: start + 3 * 86_400, userGroupId: g });
    const m = await createMember(db(), { groupId: g });
    const stranger = await createMember(db());
    await runNotices(t.app, start * 1000);
    const list = (await get(m, "/api/notice/list")).data;
    expect(list.unread).toBe(2);
    const [first, second] = list.list as { id: number }[];

    expect(await post(stranger, "/api/notice/read", { id: first!.id })).toMatchObject({ code: 1, data: { changed: 0 } });
    expect(await post(m, "/api/notice/read", { id: first!.id })).toMatchObject({ code: 1, data: { changed: 1, unread: 1 } });
    expect(await post(m, "/api/notice/read", { id: first!.id })).toMatchObject({ code: 1, data: { changed: 0, unread: 1 } });
    expect(await post(m, "/api/notice/readAll")).toMatchObject({ code: 1, data: { changed: 1, unread: 0 } });
    const after = (await get(m, "/api/notice/list")).data;
    expect(after.unread).toBe(0);
    expect(after.list.find((n: { id: number }) => n.id === second!.id).readAt).toEqual(expect.any(Number));

    expect(await get(m, "/api/notice/preference")).toMatchObject({ code: 1, data: { room_open: true, room_closing: true, result: true, push: true, email: true } });
    expect(await post(m, "/api/notice/preference", { room_open: false, room_closing: true, result: true, push: false, email: true })).toMatchObject({ code: 1 });
    expect((await get(m, "/api/notice/preference")).data).toEqual({ room_open: false, room_closing: true, result: true, push: false, email: true });
    expect(await post(m, "/api/notice/preference", { room_open: "yes" })).toMatchObject({ code: 0 });
    expect(await post(m, "/api/notice/read", { id: "x" })).toMatchObject({ code: 0 });
    expect((await t.app.inject({ method: "GET", url: "/api/notice/list" })).json().code).not.toBe(1);

    // Turned off: the next room opening makes nothing for them.
    await createRoom(db(), paperId, { title: "C", startTime: start + 3600, endTime: start + 3 * 86_400, userGroupId: g });
    expect(of(await runNotices(t.app, (start + 3600) * 1000), m)).toEqual([]);
  });
});

describe("the staff's log", () => {
  it("lists sent notices with member and channels, searchable; a company admin sees only their company's members'", async () => {
    const paperId = await paper();
    const mine = await createCompany(db());
    const theirs = await createCompany(db());
    const start = nowS() + 20 * 86_400;
    await createRoom(db(), paperId, { startTime: start, endTime: start + 3 * 86_400 });
    const a = await createMember(db(), { companyId: mine });
    const b = await createMember(db(), { companyId: theirs });
    await runNotices(t.app, start * 1000);

    const list = async (admin: { headers: Record<string, string> }, ids: number[]) =>
      (await get(admin, `/admin/user/notice/index?search[0][field]=user_id&search[0][operator]=IN&search[0][val]=${ids.join(",")}`)) as { code: number; data: { list: { user_id: number; username: string; kind: string }[] } };
    const superAdmin = await createAdmin(db());
    const all = await list(superAdmin, [a.id, b.id]);
    expect(all.code).toBe(1);
    expect(all.data.list.map((r) => [r.user_id, r.username, r.kind]).sort()).toEqual(
      [
        [a.id, a.username, "room_open"],
        [b.id, b.username, "room_open"],
      ].sort(),
    );
    const companyAdmin = await createAdmin(db(), { companyId: mine });
    const everything = (await db().query<{ id: number }>("insert into admin_group (name, rules) values ('notices all', '*') returning id")).rows[0]!.id;
    await db().query("insert into admin_group_access (uid, group_id) values ($1, $2)", [companyAdmin.id, everything]);
    expect((await list(companyAdmin, [a.id, b.id])).data.list.map((r) => r.user_id)).toEqual([a.id]);
  });
});
