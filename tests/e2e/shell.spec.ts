import { expect, test } from "./server.ts";

test.describe("app shell", () => {
  test("renders, installs a service worker that takes control, and loads offline", async ({ page, context }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("随时随地学习和考试");
    await expect(page.locator("#root")).not.toBeEmpty();

    // The service worker precaches the shell and controls the page (clientsClaim).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    const scriptURL = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    expect(scriptURL).toMatch(/\/sw\.js$/);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("随时随地学习和考试");
    await expect(page.getByRole("status")).toHaveText("您已断开网络连接！");

    // A deep link also opens from the cached shell while offline.
    await page.goto("/exam/detail");
    await expect(page.getByRole("link", { name: "顺序练习" })).toBeVisible();
    await expect(page.getByRole("link", { name: "选择题库" })).toBeVisible();
    await context.setOffline(false);
  });

  test("is installable: manifest with name, icons and standalone display", async ({ page, request }) => {
    await page.goto("/");
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBeTruthy();
    const manifest = await (await request.get(href!)).json();
    expect(manifest).toMatchObject({ short_name: "ExamHub", display: "standalone", start_url: "/" });
    expect(manifest.theme_color).toMatch(/^#/);
    expect(manifest.background_color).toMatch(/^#/);
    const sizes = manifest.icons.map((i: { sizes: string; purpose?: string }) => `${i.sizes}:${i.purpose ?? "any"}`);
    expect(sizes).toEqual(expect.arrayContaining(["192x192:any", "512x512:any", "512x512:maskable"]));
    for (const icon of manifest.icons as { src: string; type: string }[]) {
      const res = await request.get(icon.src);
      expect(res.status(), icon.src).toBe(200);
      expect(res.headers()["content-type"]).toBe("image/png");
    }
  });

  test("switches language, remembers it across reloads", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("combobox").selectOption("en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn and sit exams anywhere");
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn and sit exams anywhere");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("serves /api/health next to the app", async ({ request }) => {
    const res = await request.get("/api/health");
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ code: 1, data: { db: "ok" } });
  });
});
