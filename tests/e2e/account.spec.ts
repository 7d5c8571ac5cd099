import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, logInMember, openMember, root, startServer, test, type RunningServer } from "./server.ts";

/** Clicks the captcha's targets (positions from the test-only answers file), scaled to the shown image. */
async function solveCaptcha(page: Page, server: RunningServer) {
  const dialog = page.getByRole("dialog");
  const image = dialog.locator("img").first();
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const answer = server.lastCaptcha();
  const box = (await image.boundingBox())!;
  for (const c of answer.centers) {
    await page.mouse.click(box.x + (c.x * box.width) / answer.width, box.y + (c.y * box.height) / answer.height);
  }
}


test.describe("member account", () => {
  test("registers with a captcha and an email code, logs out, logs in, edits the profile with an avatar", async ({ page, server }) => {
    await page.goto("/");
    await page.getByRole("tab", { name: "注册" }).click();
    const form = page.getByRole("tabpanel");
    await form.getByLabel("用户名").fill("learner1");
    await form.getByLabel("密码").fill("learner-pass-1");
    await form.getByRole("textbox", { name: "邮箱" }).fill("learner1@example.com");
    await form.getByRole("button", { name: "发送验证码" }).click();
    await expect(form.getByRole("button", { name: /秒后重新发送/ })).toBeVisible();
    await form.getByLabel("验证码").fill(server.lastCode("learner1@example.com"));
    await form.getByRole("button", { name: "注册" }).click();
    await solveCaptcha(page, server);
    await expect(page).toHaveURL(/\/user\/course\/my_course$/, { timeout: 15_000 });

    // Log out from the account menu, then log in again.
    await page.getByRole("button", { name: "learner1" }).click();
    await page.getByRole("menuitem", { name: "退出登录" }).click();
    await expect(page.getByRole("tab", { name: "登录" })).toBeVisible();
    await logInMember(page, "learner1", "learner-pass-1");
    await expect(page).toHaveURL(/\/user\/course\/my_course$/);

    // Profile: nickname and an avatar upload with preview.
    await page.goto("/user/account/profile");
    const nickname = page.getByLabel("昵称");
    await nickname.fill("Lin");
    await page.locator('input[type="file"]').setInputFiles(path.join(root, "public/icons/icon-192.png"));
    await expect(page.locator('img[src^="/storage/"], img[src^="blob:"]').first()).toBeVisible();
    await page.getByRole("button", { name: "保存" }).click();
    await expect(page.getByText("资料已保存")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("昵称")).toHaveValue("Lin");
    await expect(page.locator('img[src^="/storage/"]').first()).toBeVisible();
  });

  test("the demo member sees the balance and points logs, memos in the reader's language", async ({ page }) => {
    await openMember(page, { path: "/user/account/balance" });
    await expect(page.getByRole("table")).toContainText("充值");
    await expect(page.getByRole("table")).toContainText("+80.00");
    await page.goto("/user/account/integral");
    await expect(page.getByRole("table")).toContainText("新会员注册奖励");
    await page.getByRole("combobox").selectOption("en");
    await expect(page.getByRole("table")).toContainText("Welcome bonus for joining");
    await page.getByRole("combobox").selectOption("zh-cn");
    await expect(page.getByRole("table")).toContainText("新会员注册奖励");
  });
});

test.describe("sessions", () => {
  test("an access token that expires mid-session is refreshed without the member noticing", async ({ browser }) => {
    const server = await startServer({ ACCESS_TOKEN_TTL: "3600" });
    try {
      const page = await browser.newPage({ baseURL: server.url });
      await openMember(page);
      const stored = () => page.evaluate(() => JSON.parse(localStorage.getItem("userInfo")!).state as { token: string; refresh_token: string });
      const { token: before, refresh_token: refreshBefore } = await stored();
      // The server's clock moves past the token's hour.
      server.setClockOffset(3_601_000);
      await page.goto("/user/account/balance");
      await expect(page.getByRole("table")).toContainText("充值");
      await expect(page).toHaveURL(/\/user\/account\/balance$/);
      const { token: after, refresh_token: refreshAfter } = await stored();
      expect(after).not.toBe(before);
      // The refresh token was rotated and the new one kept.
      expect(refreshAfter).toMatch(/^[\w-]{40,}$/);
      expect(refreshAfter).not.toBe(refreshBefore);
      await page.close();
    } finally {
      await server.stop();
    }
  });
});
