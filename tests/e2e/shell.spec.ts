import { expect, logInMember, test } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec installs the service worker and goes offline.
test.use({ serviceWorkers: "allow" });

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

  test("paints the boot shell before any script; a visitor's first screen loads no offline module", async ({ browser, baseURL }) => {
    // Before any script: the shell of index.html is the first paint (brand, what the app is).
    const noScript = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const bare = await noScript.newPage();
    await bare.goto("/");
    await expect(bare.locator("#boot > h1")).toHaveText("ExamHub");
    await expect(bare.locator("#boot > p")).toHaveText("在线课程、练习与考试，离线也能用。");
    await noScript.close();

    // In English and dark when those are stored (index.html's inline script, before the first
    // paint; the app's own scripts are held back here so the shell stays).
    const english = await browser.newContext({ baseURL, serviceWorkers: "block" });
    await english.addInitScript(() =>
      localStorage.setItem("storeConfig", JSON.stringify({ state: { lang: { defaultLang: "en" }, layout: { isDark: true } }, version: 0 })),
    );
    const held = await english.newPage();
    await held.route("**/assets/*.js", (route) => route.abort());
    await held.goto("/");
    await expect(held.locator("#boot > p")).toHaveText("Courses, practice and exams that keep working offline.");
    await expect(held.locator("#boot-home .bs p")).toHaveText("Courses with video lessons, practice, mock and official tests. Practice keeps working when the network does not.");
    await expect(held.locator("#boot-home li b")).toHaveText(["Courses", "Practice", "Exams", "On every device"]);
    await expect(held.locator("html")).toHaveClass(/dark/);
    await expect(held.locator("html")).toHaveAttribute("lang", "en");
    // On `/` the shell is the member home (header, intro and benefits), as the app then draws it.
    await expect(held.locator("#boot-home h1")).toBeVisible();
    await expect(held.locator("#boot-home h1")).toHaveText("Learn and sit exams anywhere");
    await expect(held.locator("#boot > h1")).toBeHidden();
    // Elsewhere it is the brand and what the app is.
    await held.goto("/admin/login");
    await expect(held.locator("#boot > h1")).toBeVisible();
    await expect(held.locator("#boot-home")).toBeHidden();
    await english.close();

    const context = await browser.newContext({ baseURL, serviceWorkers: "block" });
    const page = await context.newPage();
    const scripts: { url: string; body: string }[] = [];
    page.on("response", async (response) => {
      if (response.request().resourceType() !== "script") return;
      scripts.push({ url: response.url(), body: (await response.body().catch(() => Buffer.alloc(0))).toString("utf8") });
    });
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("随时随地学习和考试");
    // The app takes over: the shell goes (SPEC: the blocking loader hides 1 s after the screen).
    await expect(page.getByTestId("block-loading")).toHaveCount(0);
    await page.waitForLoadState("networkidle");
    const withDexie = () => scripts.filter((s) => s.body.includes("DexieError")).map((s) => s.url);
    expect(withDexie()).toEqual([]);

    // A signed-in member's screens do load it (the offline database and its sync engine).
    await logInMember(page);
    await expect(page).toHaveURL(/\/user/);
    await expect.poll(() => withDexie().length).toBeGreaterThan(0);
    await context.close();
  });

  test.describe("without the service worker", () => {
    // Nothing here is about the worker: its install would only cost the page's context CPU time.
    test.use({ serviceWorkers: "block" });

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

    test("switches language without reloading the page, remembers it across reloads", async ({ page }) => {
      await page.goto("/");
      // A mark on this document: a reload would drop it.
      await page.evaluate(() => document.documentElement.setAttribute("data-same-document", "1"));
      await page.getByRole("combobox").selectOption("en");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn and sit exams anywhere");
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(page.locator("html")).toHaveAttribute("data-same-document", "1");
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest-en.webmanifest");
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
});
