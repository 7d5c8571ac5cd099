import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./server.ts";

/**
 * axe-core over the main member pages and the back office's dashboard, in both languages:
 * any critical or serious violation fails, listed with the elements it was found on.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  // The first screen's blocking loader is gone (it fades 1 s after the screen is there).
  await expect(page.getByTestId("block-loading")).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function useLanguage(page: Page, lang: "zh-cn" | "en") {
  await page.addInitScript((lang) => {
    if (!localStorage.getItem("storeConfig")) localStorage.setItem("storeConfig", JSON.stringify({ state: { lang: { defaultLang: lang } }, version: 0 }));
  }, lang);
}

/** Logs in through the API and stores the session the way the app does after its login form. */
async function session(page: Page, area: "member" | "admin") {
  const res =
    area === "member"
      ? await page.request.post("/api/user/checkIn", { data: { tab: "login", username: "member", password: "member123456", keep: false } })
      : await page.request.post("/admin/index/login", { data: { username: "admin", password: "admin123456", keep: false } });
  const body = await res.json();
  expect(body.code, body.msg).toBe(1);
  const key = area === "member" ? "userInfo" : "adminInfo";
  await page.addInitScript(
    ({ key, info }) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify({ state: info, version: 0 }));
    },
    { key, info: body.data.userInfo },
  );
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
      await session(page, "member");
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
      await session(page, "admin");
      await page.goto("/admin/dashboard");
      await expect(page.getByTestId("greeting")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
