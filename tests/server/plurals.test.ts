import { msg, plural } from "@lingui/core/macro";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translator } from "../../src/server/i18n/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { bodyLimit: 1 } });
});
afterAll(() => t.close());

describe("server messages with counts", () => {
  it("use plural forms in both languages", async () => {
    const send = (lang: string) =>
      t.app.inject({ method: "POST", url: "/api/user/logout", headers: { "content-type": "application/json", "think-lang": lang }, payload: "{}" });
    expect((await send("en")).json().msg).toBe("The request body is too large (at most 1 byte)");
    expect((await send("zh-cn")).json().msg).toBe("请求体过大（最多 1 字节）");
  });

  it("the verification code's lifetime", () => {
    // The same message as src/server/auth/codes.ts sends.
    const body = (code: string, minutes: number) =>
      msg`Your verification code is ${code}. It is valid for ${plural(minutes, { one: "# minute", other: "# minutes" })}. If you did not ask for it, ignore this message.`;
    expect(translator("en")(body("123456", 1))).toContain("valid for 1 minute.");
    expect(translator("en")(body("123456", 10))).toContain("valid for 10 minutes.");
    expect(translator("zh-cn")(body("123456", 10))).toBe("您的验证码是 123456，10 分钟内有效。如非本人操作，请忽略本消息。");
  });
});
