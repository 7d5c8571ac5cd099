import { msg } from "@lingui/core/macro";
import { afterEach, describe, expect, it } from "vitest";
import { activateLanguage, i18n, loadAdminCatalog, loadMemberCatalog } from "../../src/client/i18n/index.ts";
import { useConfig } from "../../src/client/stores/config.ts";

/**
 * The client catalog (the shell and the login pages), the member catalog (the member's screens,
 * loaded with their routes) and the admin catalog (src/client/admin, loaded with the admin
 * layout, with the member one) are merged into one language: in whichever order they arrive,
 * since the router starts loading a deep link's screen (and its catalog) before the app has
 * activated its language.
 */
const adminOnly = msg`This is the back office of your course and exam platform.`;
const clientOnly = msg`You are disconnected!`;
const memberOnly = msg`Start review`;

afterEach(() => {
  useConfig.getState().setLang("zh-cn");
});

describe("client, member and admin catalogs", () => {
  it("a member screen's catalog loaded before the language's activation survives it", async () => {
    useConfig.getState().setLang("zh-cn");
    // The client catalog alone does not have the member's messages (this test runs first).
    await activateLanguage("zh-cn");
    const before = i18n._(memberOnly);
    const member = loadMemberCatalog();
    await activateLanguage("zh-cn");
    await member;
    expect(before).not.toBe("开始复习");
    expect(i18n._(memberOnly)).toBe("开始复习");
    expect(i18n._(clientOnly)).toBe("您已断开网络连接！");
  });

  it("the admin catalog loaded first survives the language's activation", async () => {
    useConfig.getState().setLang("zh-cn");
    const admin = loadAdminCatalog();
    await activateLanguage("zh-cn");
    await admin;
    expect(i18n._(adminOnly)).toBe("这是您的课程与考试平台的管理后台。");
    expect(i18n._(clientOnly)).toBe("您已断开网络连接！");
    // The back office shows member parts (the question editor's preview): their catalog comes with it.
    expect(i18n._(memberOnly)).toBe("开始复习");
  });


  it("loads the stored language's admin catalog after activation too", async () => {
    useConfig.getState().setLang("en");
    await activateLanguage("en");
    await loadAdminCatalog();
    expect(i18n._(adminOnly)).toBe("This is the back office of your course and exam platform.");
    expect(i18n._(clientOnly)).toBe("You are disconnected!");
  });
});
