import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec the install offer and hint are those of a worker-backed app.
test.use({ serviceWorkers: "allow" });

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/screenshots");
const PHONE = { width: 390, height: 844 };
const IPHONE_SAFARI = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

test.describe("installing the app", () => {
  test.describe("without the service worker", () => {
    // Nothing here is about the worker: its install would only cost the page's context CPU time.
    test.use({ serviceWorkers: "block" });

    test("the manifest speaks the site's language, and English for a member who chose it", async ({ page, request }) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("随时随地学习和考试");
      const zhHref = await page.locator('link[rel="manifest"]').getAttribute("href");
      const zh = await (await request.get(zhHref!)).json();
      expect(zh).toMatchObject({ id: "/", lang: "zh-CN", short_name: "ExamHub", name: "ExamHub 在线课程与考试", description: "在线课程、练习与考试，没有网络也能继续学。" });

      await page.getByRole("combobox").selectOption("en");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn and sit exams anywhere");
      await page.reload();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn and sit exams anywhere");
      const enHref = await page.locator('link[rel="manifest"]').getAttribute("href");
      expect(enHref).toBe("/manifest-en.webmanifest");
      const en = await (await request.get(enHref!)).json();
      // The same app (id), in English.
      expect(en).toMatchObject({ id: "/", lang: "en", short_name: "ExamHub", name: "ExamHub — courses and exams", icons: zh.icons, start_url: zh.start_url });
    });
  });

  test("a browser's install offer becomes the menu's install button, shown once", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/");
    await page.getByRole("button", { name: "菜单" }).click();
    await page.getByRole("dialog").getByRole("combobox").selectOption("en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn and sit exams anywhere");
    // Chromium offers the install only to an engaged visitor: the event it fires is simulated.
    await page.evaluate(() => {
      const offer = new Event("beforeinstallprompt", { cancelable: true }) as Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> };
      offer.prompt = async () => {
        (window as unknown as { prompted: number }).prompted = 1;
      };
      offer.userChoice = Promise.resolve({ outcome: "accepted" });
      window.dispatchEvent(offer);
    });
    await page.getByRole("button", { name: "Menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await menu.getByRole("button", { name: "Install the app" }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: number }).prompted)).toBe(1);
    await expect(menu.getByRole("button", { name: "Install the app" })).toHaveCount(0);
  });

  for (const language of ["zh-cn", "en"] as const) {
    test(`iOS Safari: the menu explains Share, then Add to Home Screen (${language})`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ baseURL, viewport: PHONE, userAgent: IPHONE_SAFARI, hasTouch: true, isMobile: true, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto("/");
      if (language === "en") {
        await page.getByRole("button", { name: "菜单" }).click();
        await page.getByRole("dialog").getByRole("combobox").selectOption("en");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn and sit exams anywhere");
      }
      const menuName = language === "en" ? "Menu" : "菜单";
      await page.getByRole("button", { name: menuName }).click();
      const menu = page.getByRole("dialog", { name: menuName });
      // The only button in the menu that opens and closes something in it.
      const install = menu.locator("button[aria-expanded]");
      if (language === "en") await expect(install).toHaveText("Install the app");
      await install.click();
      await expect(install).toHaveAttribute("aria-expanded", "true");
      const hint = menu.getByRole("note");
      await expect(hint.getByRole("listitem")).toHaveCount(2);
      if (language === "en") {
        await expect(hint.getByRole("listitem").first()).toHaveText("Tap Share in the browser's toolbar.");
        await expect(hint.getByRole("listitem").last()).toHaveText('Choose "Add to Home Screen", then Add.');
      }
      await expect(hint).toBeInViewport();
      // E2E_SCREENSHOTS=1 writes the screenshots docs/ shows (the catalogs must have the hint's words).
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `install-hint-${language}.png`) });
      await context.close();
    });
  }
});
