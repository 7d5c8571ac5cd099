import { expect, test } from "./server.ts";

test.describe("routing and navigation", () => {
  test("/admin goes through the loading route to the admin login", async ({ page }) => {
    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.goto("/admin/auth/admin?id=3");
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByRole("heading", { name: "后台登录" })).toBeVisible();
    await expect(page).toHaveTitle("登录 - ExamHub");
    // The original path travelled as JSON through /admin/loading/.
    const history = await page.evaluate(() => window.history.length);
    expect(history).toBeGreaterThan(0);
  });

  test("an admin logs in, sees menus from rules, opens tabs that persist, and the greeting", async ({ page }) => {
    await page.goto("/admin/login");
    await page.getByLabel("用户名").fill("admin");
    await page.getByLabel("密码").fill("wrong-password");
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page.getByText("用户名或密码错误")).toBeVisible();

    await page.getByLabel("密码").fill("admin123456");
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByTestId("greeting")).toContainText("欢迎回来");
    await expect(page).toHaveTitle("控制台 - ExamHub");

    const menu = page.getByRole("navigation", { name: "后台菜单" });
    await menu.getByRole("link", { name: "题目", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/exam\/question$/);
    const tabs = page.getByRole("navigation", { name: "已打开的页面" });
    await expect(tabs.getByTestId("admin-tab")).toHaveText(["控制台", "题目"]);
    await expect(tabs.getByRole("link", { name: "题目" })).toHaveAttribute("aria-current", "page");

    // Opening an open path with another query updates that tab instead of adding one.
    await page.goto("/admin/exam/question?page=2");
    await expect(tabs.getByTestId("admin-tab")).toHaveText(["控制台", "题目"]);
    await expect(tabs.getByRole("link", { name: "题目" })).toHaveAttribute("href", "/admin/exam/question?page=2");

    // A deep link after a reload goes through loading and comes back with the tabs.
    await page.reload();
    await expect(page).toHaveURL(/\/admin\/exam\/question\?page=2$/);
    await expect(tabs.getByTestId("admin-tab")).toHaveText(["控制台", "题目"]);

    // Collapse the side menu, dark mode, classic layout.
    await page.getByRole("button", { name: "收起菜单" }).click();
    await expect(page.locator("aside")).toHaveCSS("width", "64px");
    await page.getByRole("button", { name: "深色模式" }).click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await page.getByRole("button", { name: "切换到经典布局" }).click();
    await expect(page.locator("[data-layout]")).toHaveAttribute("data-layout", "Classic");
  });

  test("an unknown path shows /404 with a countdown and returns to the previous page", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.evaluate(() => {
      window.history.pushState({}, "", "/no/such/page");
      window.dispatchEvent(new PopStateEvent("popstate"));
    });
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText(/秒后返回上一页/)).toBeVisible();
    await expect(page).toHaveTitle("页面不存在 - ExamHub");
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/, { timeout: 10_000 });
  });

  test("/401 explains and offers home, and no dead mail link while the site has no contact", async ({ page }) => {
    await page.goto("/401");
    await expect(page.getByText("您没有权限访问此页面，或文件无效。")).toBeVisible();
    await expect(page.getByRole("link", { name: "返回首页" })).toBeVisible();
    await expect(page.getByRole("link", { name: "联系管理员" })).toHaveCount(0);
    await expect(page.locator('a[href^="mailto:"]')).toHaveCount(0);
  });

  test("/user without a member login goes through loading to the member login", async ({ page }) => {
    await page.goto("/user/account/profile");
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(page).toHaveTitle("会员登录 - ExamHub");
  });
});
