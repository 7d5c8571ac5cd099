import { msg } from "@lingui/core/macro";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import papers from "../../src/client/admin/exam/papers.ts";
import questions from "../../src/client/admin/exam/questions.ts";
import members from "../../src/client/admin/user/members.ts";
import { activateLanguage, i18n, loadAdminCatalog } from "../../src/client/i18n/index.ts";
import { useConfig } from "../../src/client/stores/config.ts";
import { declarations } from "../../src/shared/admin/resources/index.ts";

/**
 * Words that meant two things: a screen's title is the subject of its dialogs ("添加 · 会员"),
 * so it names the records, not the screen that manages them ("添加 · 会员管理"); and an icon
 * button is named for what it does, not after a column it shares an English word with.
 */
describe("back-office wording in Chinese", () => {
  beforeAll(async () => {
    useConfig.getState().setLang("zh-cn");
    await activateLanguage("zh-cn");
    await loadAdminCatalog();
  });
  afterAll(() => useConfig.getState().setLang("zh-cn"));

  it("titles every resource by its records, as its dialogs say them", () => {
    const titles = declarations.map((d) => [d.rule, i18n._(d.title)] as const);
    expect(titles.filter(([, title]) => title.endsWith("管理"))).toEqual([]);
    expect(Object.fromEntries(titles)).toMatchObject({ "user/user": "会员", "auth/admin": "管理员" });
  });

  it("names the papers' composer button for what it does, not as the question count", () => {
    const compose = papers.rowActions!.find((a) => a.key === "compose")!;
    expect(i18n._(compose.label)).toBe("组卷");
    expect(i18n._(compose.label)).not.toBe(i18n._(msg`Questions`));
  });

  it("gives each toolbar one button per name: the list's export menu and a screen's own sheet export differ", () => {
    for (const screen of [questions, members]) {
      const labels = [i18n._(msg`Export`), ...screen.toolbarActions!.map((a) => i18n._(a.label))];
      expect(new Set(labels).size, labels.join(", ")).toBe(labels.length);
    }
    expect(i18n._(questions.toolbarActions!.find((a) => a.key === "export")!.label)).toBe("导出题库");
  });
});
