import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { menuRoutes, type MenuRule } from "../../src/client/routing/menus.ts";
import { HEADER_ADMIN_TOKEN } from "../../src/shared/constants.ts";
import { expect, signIn, test, useLanguage } from "./server.ts";

/**
 * axe-core over the main member pages and the back office's dashboard, in both languages, and
 * over every screen of the back office's menu with its add dialog: any critical or serious
 * violation fails, listed with the elements it was found on.
 */
async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  // The first screen's blocking loader is gone (it fades 1 s after the screen is there).
  await expect(page.getByTestId("block-loading")).toHaveCount(0);
  // axe.run() in the page itself (same rules on the same DOM and its same-origin frames; the app
  // embeds no other site's frame). The default runs each frame's part and then merges them in a
  // new blank page, which Chromium starts and closes on every call: the back-office sweep below
  // took 120 CPU-s that way, 62 in the page.
  const axe = new AxeBuilder({ page }).setLegacyMode();
  if (include) axe.include(include);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

for (const lang of ["zh-cn", "en"] as const) {
  test.describe(`accessibility (axe), ${lang}`, () => {
    test.beforeEach(async ({ page }) => useLanguage(page, lang));

    test("the login page", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("the member's exam list, course catalogue and member center overview", async ({ page }) => {
      await signIn(page, "member");
      await page.goto("/exam/myTest");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
      expect(await seriousViolations(page), "exam list").toEqual([]);

      await page.goto("/user/course/index");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.locator("main a[href^='/course/lesson']").first()).toBeVisible();
      expect(await seriousViolations(page), "course catalogue").toEqual([]);

      await page.goto("/user/account/overview");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByRole("navigation").last()).toBeVisible();
      expect(await seriousViolations(page), "member center overview").toEqual([]);
    });

    test("the back office dashboard", async ({ page }) => {
      await signIn(page, "admin");
      await page.goto("/admin/dashboard");
      await expect(page.getByTestId("greeting")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

/**
 * Every screen of the back office's menu, as the super admin's menu API lists it (so a screen
 * added to the menu is checked without touching this test), and the add dialog of each screen
 * that has one. One session, moving between screens as the side menu does (no page loads), to
 * keep the sweep short.
 */
test("every back-office screen and its add dialog (zh-cn)", async ({ page }) => {
  // About 35 screens and 20 dialogs: minutes on a 2-core machine shared with other test runs.
  test.setTimeout(600_000);
  await useLanguage(page, "zh-cn");
  const token = await signIn(page, "admin");
  const res = await page.request.get("/admin/index/index", { headers: { [HEADER_ADMIN_TOKEN]: token } });
  const menus = ((await res.json()) as { data: { menus: MenuRule[] } }).data.menus;
  // Outside pages (a link, or an iframe of another site) are not the back office's own screens.
  const screens = menuRoutes(menus, "admin").filter((r) => r.menuType === "tab");
  expect(screens.length).toBeGreaterThan(25);

  const found: string[] = [];
  let dialogs = 0;
  await page.goto("/admin/dashboard");
  await expect(page.getByTestId("greeting")).toBeVisible();
  const main = page.getByRole("main");
  for (const screen of screens) {
    await page.evaluate((path) => {
      history.pushState(null, "", path);
      dispatchEvent(new PopStateEvent("popstate"));
    }, screen.path);
    await expect(page).toHaveURL((url) => url.pathname === screen.path);
    // The screen is drawn (its heading) and has loaded what it lists (no spinner left).
    await expect(main.locator("h1:visible, [data-testid=greeting]:visible").first()).toBeVisible();
    await expect(main.locator(".animate-spin:visible")).toHaveCount(0);
    for (const v of await seriousViolations(page)) found.push(`${screen.path}: ${v}`);

    const add = main.getByRole("button", { name: "添加", exact: true });
    if ((await add.count()) === 1 && (await add.isVisible())) {
      await add.click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await expect(dialog.locator(".animate-spin:visible")).toHaveCount(0);
      for (const v of await seriousViolations(page, "[role=dialog]")) found.push(`${screen.path} (add dialog): ${v}`);
      dialogs++;
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
    }
  }
  test.info().annotations.push({ type: "checked", description: `${screens.length} screens, ${dialogs} add dialogs` });
  console.log(`axe: ${screens.length} screens, ${dialogs} add dialogs`);
  expect(found).toEqual([]);
});
