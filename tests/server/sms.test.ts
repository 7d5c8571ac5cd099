import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, type TestAdmin } from "../helpers/factories.ts";

/**
 * The SMS provider (modules/routine/sms.ts) against a local HTTP test double: the config screen's
 * SMS group, the test button, mobile codes through it, a failure kept in the outbox, the token
 * never answered nor logged, and the public-address rule without the tests-only flag.
 */

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const TOKEN = "sms-bearer-secret-0123456789";
let double: Server;
let doubleUrl: string;
const received: Received[] = [];
/** What the double answers next: a status, or "hang" (never answers). */
let answer: number | "hang" = 200;

let t: TestApp;
let admin: TestAdmin;

beforeAll(async () => {
  double = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (answer === "hang") return;
      res.writeHead(answer, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: answer === 200, echo: req.headers.authorization }));
    });
  });
  await new Promise<void>((resolve) => double.listen(0, "127.0.0.1", resolve));
  doubleUrl = `http://127.0.0.1:${(double.address() as AddressInfo).port}`;
  t = await createTestApp({ deps: { smsAllowLocal: true } });
  admin = await createAdmin(t.database.db);
});

afterAll(async () => {
  await t.close();
  double.closeAllConnections();
  await new Promise((resolve) => double.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  answer = 200;
});

const post = (url: string, payload: object, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: "POST", url, payload, headers }).then((r) => r.json<{ code: number; msg: string; data: Record<string, unknown> | null }>());
const configure = (values: Record<string, unknown>) => post("/admin/routine/config/edit", values);
const outbox = (target: string) =>
  t.database.db.query<{ body: string; status: string; error: string }>("select body, status, error from outbox_message where target = $1 order by id", [target]).then((r) => r.rows);

describe("SMS provider settings", () => {
  it("keeps the token write-only: answered only as set, kept when left empty, never logged", async () => {
    const before = await t.app.inject({ method: "GET", url: "/admin/routine/config/index", headers: admin.headers });
    expect(before.json().data.config).toMatchObject({ sms_enabled: false, sms_url: "", sms_method: "POST", sms_token_set: false, sms_timeout: 10 });
    expect((await configure({ sms_enabled: true, sms_url: `${doubleUrl}/send`, sms_token: TOKEN, sms_headers: "X-App: exam", sms_timeout: 2 })).code).toBe(1);
    expect((await configure({ sms_token: "" })).code).toBe(1);
    const after = await t.app.inject({ method: "GET", url: "/admin/routine/config/index", headers: admin.headers });
    expect(after.json().data.config).toMatchObject({ sms_enabled: true, sms_url: `${doubleUrl}/send`, sms_token_set: true, sms_headers: "X-App: exam" });
    expect(after.body).not.toContain(TOKEN);
    expect(after.json().data.config).not.toHaveProperty("sms_token");

    // The test button reaches the double with the token (kept through the empty save above).
    const res = await post("/admin/routine/config/sendTestSms", { mobile: "13800138000" });
    expect(res).toMatchObject({ code: 1, msg: "The test text message was sent", data: { delivery: "sent" } });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: "POST", url: "/send" });
    expect(received[0]!.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, "x-app": "exam", "content-type": "application/json; charset=utf-8" });
    expect(JSON.parse(received[0]!.body)).toEqual({ mobile: "13800138000", text: "This is a test text message from ExamHub." });
    expect(t.logs.text).not.toContain(TOKEN);
    expect(await outbox("13800138000")).toEqual([]);
  });

  it("refuses bad settings with code 0 and a message", async () => {
    for (const values of [{ sms_url: "ftp://example.com/" }, { sms_method: "DELETE" }, { sms_timeout: 0 }, { sms_timeout: 61 }, { sms_headers: "no colon here" }]) {
      const res = await configure(values);
      expect(res.code, JSON.stringify(values)).toBe(0);
      expect(res.msg).not.toBe("");
    }
    expect((await post("/admin/routine/config/sendTestSms", { mobile: "12345" })).code).toBe(0);
  });

  it("fills the templates: form-encoded body, and GET into the URL", async () => {
    const en = { "think-lang": "en" };
    await configure({ sms_enabled: true, sms_url: `${doubleUrl}/form`, sms_method: "PUT", sms_body: "to={mobile}&msg={text}", sms_timeout: 2 });
    expect((await post("/api/Sms/send", { mobile: "13900000001", template_code: "user_register" }, en)).code).toBe(1);
    expect(received[0]).toMatchObject({ method: "PUT" });
    expect(received[0]!.body).toMatch(/^to=13900000001&msg=Your%20verification%20code%20is%20\d{6}\.%20/);
    expect(received[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded; charset=utf-8");

    await configure({ sms_url: `${doubleUrl}/get?to={mobile}&text={text}`, sms_method: "GET" });
    expect((await post("/api/Sms/send", { mobile: "13900000002", template_code: "user_register" }, en)).code).toBe(1);
    expect(received[1]).toMatchObject({ method: "GET", body: "" });
    expect(received[1]!.url).toMatch(/^\/get\?to=13900000002&text=Your%20verification%20code%20is%20\d{6}\./);
    await configure({ sms_url: `${doubleUrl}/send`, sms_method: "POST", sms_body: '{"mobile": "{mobile}", "text": "{text}"}' });
  });

  it("sends mobile codes through the provider; a failure is shown clearly and the code kept in the outbox as failed", async () => {
    await configure({ sms_enabled: true, sms_url: `${doubleUrl}/send`, sms_method: "POST", sms_timeout: 1 });
    const code = await post("/api/Sms/send", { mobile: "13700000001", template_code: "user_register" }, { "think-lang": "en" });
    expect(code).toMatchObject({ code: 1 });
    expect(JSON.parse(received[0]!.body).text).toMatch(/^Your verification code is \d{6}\./);
    expect(await outbox("13700000001")).toEqual([]);

    answer = 503;
    const refused = await post("/api/Sms/send", { mobile: "13700000002", template_code: "user_register" }, { "think-lang": "en" });
    expect(refused).toMatchObject({ code: 0, msg: "The code could not be sent: please try again in a minute" });
    const [kept] = await outbox("13700000002");
    expect(kept).toMatchObject({ status: "failed", error: "HTTP 503" });
    expect(kept!.body).toMatch(/^Your verification code is \d{6}\./);
    expect((await post("/admin/routine/config/sendTestSms", { mobile: "13700000003" })).msg).toBe("The test text message was not sent: The SMS provider answered HTTP 503");

    answer = "hang";
    const slow = await post("/admin/routine/config/sendTestSms", { mobile: "13700000004" });
    expect(slow).toMatchObject({ code: 0, msg: "The test text message was not sent: The SMS provider did not answer within 1 s" });
    expect(await outbox("13700000004")).toMatchObject([{ status: "failed", error: "timeout" }]);
    expect(t.logs.text).not.toContain(TOKEN);
  });

  it("switched off, texts go to the outbox as before (kept)", async () => {
    await configure({ sms_enabled: false });
    const res = await post("/api/Sms/send", { mobile: "13600000001", template_code: "user_register" });
    expect(res).toMatchObject({ code: 1 });
    expect(received).toEqual([]);
    expect(await outbox("13600000001")).toMatchObject([{ status: "kept", error: "" }]);
  });

  it("needs the config edit rule", async () => {
    const plain = await createAdmin(t.database.db, { isSuper: false });
    expect((await post("/admin/routine/config/sendTestSms", { mobile: "13800138000" }, plain.headers)).code).toBe(401);
  });
});

describe("SMS provider without the tests-only flag", () => {
  it("refuses a local address and says why, keeping the message", async () => {
    const other = await createTestApp();
    try {
      const boss = await createAdmin(other.database.db);
      const call = (url: string, payload: object) => other.app.inject({ method: "POST", url, payload, headers: boss.headers }).then((r) => r.json<{ code: number; msg: string }>());
      expect((await call("/admin/routine/config/edit", { sms_enabled: true, sms_url: `${doubleUrl}/send`, sms_timeout: 2 })).code).toBe(1);
      const res = await call("/admin/routine/config/sendTestSms", { mobile: "13500000001" });
      expect(res).toMatchObject({ code: 0, msg: "The test text message was not sent: The SMS provider's address is not public: only public addresses may be used" });
      expect(received).toEqual([]);
      const { rows } = await other.database.db.query("select status, error from outbox_message where target = '13500000001'");
      expect(rows).toEqual([{ status: "failed", error: "not public" }]);
    } finally {
      await other.close();
    }
  });
});
