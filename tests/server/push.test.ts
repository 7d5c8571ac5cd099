import { createCipheriv, createECDH, randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runReminders } from "../../src/server/modules/push/reminders.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { browserSubscription, FakePushService, type BrowserSubscription } from "../helpers/push.ts";
import { createBankWithQuestions, createMember, createPaper, createRoom, type TestMember } from "../helpers/factories.ts";

/**
 * Web Push reminders on the real server and database. The push service is the only
 * fake: its HTTP answer (201, 410...) per endpoint. What the server sends is real web-push output
 * (VAPID-signed, aes128gcm-encrypted), decrypted here with the subscriber's keys.
 */

let t: TestApp;
const push = new FakePushService();
let bank: { id: number; questionIds: number[] };

beforeAll(async () => {
  t = await createTestApp({ deps: { pushTransport: push } });
  bank = await createBankWithQuestions(t.database.db, 5);
});
afterAll(() => t.close());
beforeEach(() => {
  push.requests.length = 0;
});

const post = async (m: TestMember, url: string, payload: object = {}) => (await t.app.inject({ method: "POST", url, headers: m.headers, payload })).json();
const config = async (m: TestMember, device: string) => (await t.app.inject({ method: "GET", url: `/api/push/config?device=${device}`, headers: m.headers })).json();
const subscribe = (m: TestMember, device: string, sub: BrowserSubscription, hour = 20, timeZone = "Asia/Shanghai") =>
  post(m, "/api/push/subscribe", { device, subscription: { endpoint: sub.endpoint, keys: sub.keys }, hour, timeZone });
const subscriptions = async (userId: number) =>
  (await t.database.db.query<{ device: string; endpoint: string }>("select device, endpoint from push_subscription where user_id = $1 order by id", [userId])).rows;

/** Answers `count` questions wrong (sync ops): they enter the wrong book, so they are due for review. */
async function answerWrong(m: TestMember, count: number) {
  const ops = bank.questionIds.slice(0, count).map((questionId) => ({ id: randomUUID(), type: "practice.answer", at: Date.now(), payload: { questionId, answer: "B", bankId: bank.id } }));
  const res = await post(m, "/api/exam/sync", { ops });
  expect(res.data.results.map((r: { status: string }) => r.status)).toEqual(ops.map(() => "applied"));
}

describe("VAPID keys", () => {
  it("are made on the first start, kept in the database, served as the public key, never logged", async () => {
    const { rows } = await t.database.db.query<{ public_key: string; private_key: string }>("select public_key, private_key from push_vapid");
    expect(rows).toHaveLength(1);
    const m = await createMember(t.database.db);
    const res = await config(m, "device-aaaa");
    expect(res).toMatchObject({ code: 1, data: { publicKey: rows[0]!.public_key, subscribed: false, devices: 0, hour: 20, timeZone: null } });
    // A P-256 public key, uncompressed: 65 bytes.
    expect(Buffer.from(res.data.publicKey, "base64url")).toHaveLength(65);
    expect(t.logs.text).not.toContain(rows[0]!.private_key);
  });
});

describe("subscriptions", () => {
  it("are stored per member and device (idempotent), and removed on unsubscribe", async () => {
    const m = await createMember(t.database.db);
    const first = browserSubscription();
    expect(await subscribe(m, "phone-1234", first, 7, "Europe/Paris")).toMatchObject({ code: 1, data: { subscribed: true } });
    expect(await subscribe(m, "phone-1234", first, 7, "Europe/Paris")).toMatchObject({ code: 1 });
    expect(await subscriptions(m.id)).toEqual([{ device: "phone-1234", endpoint: first.endpoint }]);
    // The same device subscribing again (a new endpoint after the browser renewed it) replaces it.
    const renewed = browserSubscription();
    await subscribe(m, "phone-1234", renewed, 8, "Europe/Paris");
    const laptop = browserSubscription();
    await subscribe(m, "laptop-1234", laptop, 8, "Europe/Paris");
    expect(await subscriptions(m.id)).toEqual([
      { device: "phone-1234", endpoint: renewed.endpoint },
      { device: "laptop-1234", endpoint: laptop.endpoint },
    ]);
    expect((await config(m, "phone-1234")).data).toMatchObject({ subscribed: true, devices: 2, hour: 8, timeZone: "Europe/Paris" });
    expect((await config(m, "other-1234")).data).toMatchObject({ subscribed: false, devices: 2 });

    expect(await post(m, "/api/push/unsubscribe", { device: "phone-1234" })).toMatchObject({ code: 1, data: { removed: 1 } });
    expect(await post(m, "/api/push/unsubscribe", { device: "phone-1234" })).toMatchObject({ code: 1, data: { removed: 0 } });
    expect(await subscriptions(m.id)).toEqual([{ device: "laptop-1234", endpoint: laptop.endpoint }]);
  });

  it("an endpoint belongs to the member who subscribed with it last (one browser, two members in turn)", async () => {
    const a = await createMember(t.database.db);
    const b = await createMember(t.database.db);
    const shared = browserSubscription();
    await subscribe(a, "shared-pc-1", shared);
    await subscribe(b, "shared-pc-1", shared);
    expect(await subscriptions(a.id)).toEqual([]);
    expect(await subscriptions(b.id)).toEqual([{ device: "shared-pc-1", endpoint: shared.endpoint }]);
  });

  it("refuses bad input in the envelope and changes nothing; nobody signed in is refused", async () => {
    const m = await createMember(t.database.db);
    const good = browserSubscription();
    const cases: [object, string][] = [
      [{ device: "dev-12345", subscription: { endpoint: "http://push.example.net/x", keys: good.keys }, hour: 20, timeZone: "UTC" }, "This push subscription is not valid"],
      [{ device: "dev-12345", subscription: { endpoint: good.endpoint, keys: { p256dh: "short", auth: good.keys.auth } }, hour: 20, timeZone: "UTC" }, "This push subscription is not valid"],
      [{ device: "dev-12345", subscription: { endpoint: good.endpoint, keys: good.keys }, hour: 24, timeZone: "UTC" }, "Please choose an hour between 0 and 23"],
      [{ device: "dev-12345", subscription: { endpoint: good.endpoint, keys: good.keys }, hour: 20, timeZone: "Mars/Olympus" }, "Unknown time zone"],
      [{ device: "../x", subscription: { endpoint: good.endpoint, keys: good.keys }, hour: 20, timeZone: "UTC" }, "Unknown device"],
    ];
    for (const [payload, message] of cases) {
      const res = await t.app.inject({ method: "POST", url: "/api/push/subscribe", headers: m.headers, payload });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ code: 0, msg: expect.stringContaining(message) });
    }
    expect(await subscriptions(m.id)).toEqual([]);
    const anonymous = await t.app.inject({ method: "POST", url: "/api/push/subscribe", headers: { "think-lang": "en" }, payload: cases[0]![0] });
    expect(anonymous.json().code).not.toBe(1);
  });
});

describe("test notification", () => {
  it("reaches every device of the member, VAPID-signed and encrypted for each", async () => {
    const m = await createMember(t.database.db);
    const phone = browserSubscription();
    const laptop = browserSubscription();
    await subscribe(m, "phone-5678", phone);
    await subscribe(m, "laptop-5678", laptop);
    expect(await post(m, "/api/push/test")).toMatchObject({ code: 1, msg: "Test notification sent", data: { sent: 2, removed: 0, failed: 0 } });
    const [request] = push.to(phone.endpoint);
    expect(request).toMatchObject({ method: "POST", headers: { "Content-Encoding": "aes128gcm", TTL: expect.any(String) } });
    const { rows } = await t.database.db.query<{ public_key: string }>("select public_key from push_vapid");
    expect(request!.headers.Authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${rows[0]!.public_key}$`));
    expect(phone.decrypt(request!.body!)).toEqual({ title: "ExamHub", body: "This is a test notification: reminders reach this device.", url: "/user", tag: "test" });
    expect(laptop.decrypt(push.to(laptop.endpoint)[0]!.body!).tag).toBe("test");
  });

  it("a push service answering 410 Gone unsubscribes that device; 404 too; 500 keeps it", async () => {
    const m = await createMember(t.database.db);
    const gone = browserSubscription();
    const missing = browserSubscription();
    const flaky = browserSubscription();
    const fine = browserSubscription();
    push.answers.set(gone.endpoint, 410);
    push.answers.set(missing.endpoint, 404);
    push.answers.set(flaky.endpoint, 500);
    for (const [device, sub] of [["gone-1234", gone], ["missing-1234", missing], ["flaky-1234", flaky], ["fine-1234", fine]] as const) await subscribe(m, device, sub);
    expect(await post(m, "/api/push/test")).toMatchObject({ code: 1, data: { sent: 1, removed: 2, failed: 1 } });
    expect((await subscriptions(m.id)).map((s) => s.device)).toEqual(["flaky-1234", "fine-1234"]);
    // The failure is logged with the subscription's id, never its endpoint (a capability URL).
    expect(t.logs.text).toContain("push refused by the push service");
    expect(t.logs.text).not.toContain(flaky.endpoint);

    push.answers.set(fine.endpoint, 410);
    push.answers.set(flaky.endpoint, 410);
    expect(await post(m, "/api/push/test")).toMatchObject({ code: 0, msg: expect.stringContaining("could not be delivered") });
    expect(await subscriptions(m.id)).toEqual([]);
    expect(await post(m, "/api/push/test")).toMatchObject({ code: 0, msg: "Turn reminders on first" });
  });
});

describe("reminders", () => {
  // 2026-03-10 in Shanghai (UTC+8, no summer time): 20:00 local is 12:00 UTC.
  const at = (day: number, hour: number, minute = 0) => Date.UTC(2026, 2, day, hour, minute);
  const dailyTo = (run: Awaited<ReturnType<typeof runReminders>>, userId: number) => run.daily.filter((d) => d.userId === userId);

  it("'N reviews due today' once a day per member, in the member's chosen hour of their time zone", async () => {
    const m = await createMember(t.database.db);
    const sub = browserSubscription();
    await subscribe(m, "phone-daily", sub, 20, "Asia/Shanghai");
    const other = await createMember(t.database.db);
    const otherSub = browserSubscription();
    await subscribe(other, "phone-other", otherSub, 20, "Asia/Shanghai");
    await answerWrong(m, 3);

    // 19:59 in Shanghai: not yet.
    expect(dailyTo(await runReminders(t.app, at(10, 11, 59)), m.id)).toEqual([]);
    expect(push.to(sub.endpoint)).toHaveLength(0);
    // 20:05: sent, once, even with two server processes running the job at the same moment.
    const [one, two] = await Promise.all([runReminders(t.app, at(10, 12, 5)), runReminders(t.app, at(10, 12, 5))]);
    expect([...dailyTo(one, m.id), ...dailyTo(two, m.id)]).toEqual([{ userId: m.id, due: 3, outcome: { sent: 1, removed: 0, failed: 0 } }]);
    expect(push.to(sub.endpoint)).toHaveLength(1);
    expect(sub.decrypt(push.to(sub.endpoint)[0]!.body!)).toEqual({
      title: "ExamHub",
      body: "3 reviews are due today: a few minutes keep them in your memory.",
      url: "/exam/examTab/review",
      tag: "daily-review",
      badge: 3,
    });
    // Later that hour and that evening: not again.
    await runReminders(t.app, at(10, 12, 40));
    await runReminders(t.app, at(10, 13, 5));
    expect(push.to(sub.endpoint)).toHaveLength(1);
    // Nothing due for the other member: no reminder.
    expect(push.to(otherSub.endpoint)).toHaveLength(0);
    // The next day at 20:00 in Shanghai: again.
    expect(dailyTo(await runReminders(t.app, at(11, 12, 0)), m.id)).toHaveLength(1);
    expect(push.to(sub.endpoint)).toHaveLength(2);
    const claims = await t.database.db.query("select ref from push_sent where user_id = $1 and kind = 'daily' order by ref", [m.id]);
    expect(claims.rows).toEqual([{ ref: "2026-03-10" }, { ref: "2026-03-11" }]);
  });

  it("follows the member's own time zone and language, and a member without a subscription gets nothing", async () => {
    const m = await createMember(t.database.db);
    const sub = browserSubscription();
    // Subscribed in Chinese (the reminders are written in the language of the subscribe call).
    await t.app.inject({
      method: "POST",
      url: "/api/push/subscribe",
      headers: { ...m.headers, "think-lang": "zh-cn" },
      payload: { device: "paris-1234", subscription: { endpoint: sub.endpoint, keys: sub.keys }, hour: 7, timeZone: "Europe/Paris" },
    });
    await answerWrong(m, 2);
    // 07:30 in Paris in March (UTC+1): 06:30 UTC. 07:30 UTC is 08:30 in Paris.
    expect(dailyTo(await runReminders(t.app, at(10, 7, 30)), m.id)).toEqual([]);
    expect(dailyTo(await runReminders(t.app, at(10, 6, 30)), m.id)).toHaveLength(1);
    expect(sub.decrypt(push.to(sub.endpoint)[0]!.body!).body).toBe("今天有 2 道题待复习：花几分钟巩固记忆。");

    await post(m, "/api/push/unsubscribe", { device: "paris-1234" });
    expect(dailyTo(await runReminders(t.app, at(11, 6, 30)), m.id)).toEqual([]);
  });

  it("'exam room X opens' once per member and room, within the hour before it opens, for members who may sit it", async () => {
    const now = at(12, 3, 0);
    const nowSeconds = now / 1000;
    const paperBank = await createBankWithQuestions(t.database.db, 1);
    const paper = await createPaper(t.database.db, { rows: [{ fixed: paperBank.questionIds[0]! }] });
    const { rows: groups } = await t.database.db.query<{ id: number }>("insert into user_group (name) values ('room group'), ('other group') returning id");
    const soon = await createRoom(t.database.db, paper, { title: "Final", startTime: nowSeconds + 40 * 60, endTime: nowSeconds + 3 * 3600, userGroupId: groups[0]!.id });
    await createRoom(t.database.db, paper, { title: "Later", startTime: nowSeconds + 2 * 3600, endTime: nowSeconds + 4 * 3600 });

    const sitter = await createMember(t.database.db, { groupId: groups[0]!.id });
    const outsider = await createMember(t.database.db, { groupId: groups[1]!.id });
    const sitterSub = browserSubscription();
    const outsiderSub = browserSubscription();
    await subscribe(sitter, "sitter-1234", sitterSub, 9, "UTC");
    await subscribe(outsider, "outsider-1234", outsiderSub, 9, "UTC");

    const run = await runReminders(t.app, now);
    expect(run.rooms.filter((r) => r.userId === sitter.id || r.userId === outsider.id)).toEqual([{ userId: sitter.id, roomId: soon, outcome: { sent: 1, removed: 0, failed: 0 } }]);
    expect(sitterSub.decrypt(push.to(sitterSub.endpoint)[0]!.body!)).toEqual({
      title: "ExamHub",
      body: "Exam room “Final” opens in 40 minutes.",
      url: "/exam/examTab/officialTest",
      tag: `room-${soon}`,
    });
    // Once: the next minutes' runs send nothing more for that room.
    await runReminders(t.app, now + 60_000);
    await runReminders(t.app, now + 30 * 60_000);
    expect(push.to(sitterSub.endpoint)).toHaveLength(1);
    expect(push.to(outsiderSub.endpoint)).toHaveLength(0);
  });
});

// Keeps the helper honest: the decryption above reads what an aes128gcm record holds.
describe("the test's decryption", () => {
  it("fails on a record encrypted with other keys", () => {
    const sub = browserSubscription();
    const cipher = createCipheriv("aes-128-gcm", randomBytes(16), randomBytes(12));
    const record = Buffer.concat([cipher.update(Buffer.from('{"x":1}\x02')), cipher.final(), cipher.getAuthTag()]);
    const other = createECDH("prime256v1");
    other.generateKeys();
    const body = Buffer.concat([randomBytes(16), Buffer.from([0, 0, 16, 0]), Buffer.from([65]), other.getPublicKey(), record]);
    expect(() => sub.decrypt(body)).toThrow();
  });
});
