import { msg } from "@lingui/core/macro";
import { afterEach, describe, expect, it } from "vitest";
import { activateLanguage, i18n, loadAdminCatalog } from "../../src/client/i18n/index.ts";
import { useConfig } from "../../src/client/stores/config.ts";

/**
 * The client catalog (every screen but the back office's) and the admin catalog (src/client/admin,
 * loaded with the admin layout) are merged into one language: in whichever order they arrive,
 * since the router starts loading an /admin page's layout (and its catalog) before the app has
 * activated its language.
 */
const adminOnly = msg`This is the back office of your course and exam platform.`;
const clientOnly = msg`You are disconnected!`;

afterEach(() => {
  useConfig.getState().setLang("zh-cn");
});

describe("client and admin catalogs", () => {
  it("the admin catalog loaded first survives the language's activation", async () => {
    useConfig.getState().setLang("zh-cn");
    const admin = loadAdminCatalog();
    await activateLanguage("zh-cn");
    await admin;
    expect(i18n._(adminOnly)).toBe("这是您的课程与考试平台的管理后台。");
    expect(i18n._(clientOnly)).toBe("您已断开网络连接！");
  });

  it("loads the stored language's admin catalog after activation too", async () => {
    useConfig.getState().setLang("en");
    await activateLanguage("en");
    await loadAdminCatalog();
    expect(i18n._(adminOnly)).toBe("This is the back office of your course and exam platform.");
    expect(i18n._(clientOnly)).toBe("You are disconnected!");
  });
});
