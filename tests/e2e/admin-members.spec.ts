import { expect, test, logInAdmin } from "./server.ts";

const DASHBOARD = /\/admin\/dashboard$/;

/**
 * The members screens in the real app (zh-cn): a super admin creates a member through the form,
 * edits it, finds it with the search form, adjusts its balance (the balance log shows the row)
 * and deletes it. The demo server is shared with other specs: the member's name is unique and
 * only its own rows are checked.
 */

test("a super admin creates, edits, finds, credits and deletes a member", async ({ page }) => {
  const username = `e2e${Date.now().toString(36)}`;
  await logInAdmin(page, { landing: DASHBOARD });
  // The dashboard shows real figures.
  await expect(page.getByTestId("dashboard-figures")).toContainText("会员");
  await page.goto("/admin/user/user");
  await expect(page.getByRole("heading", { name: "会员管理", exact: true })).toBeVisible();

  // Create through the form; a refused field is shown beside it first.
  await page.getByRole("button", { name: "添加", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("用户名").fill(username);
  await dialog.getByLabel("昵称").fill("E2E 会员");
  await dialog.getByLabel("密码").fill("1");
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(dialog.getByLabel("密码")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("密码").fill("secret-123");
  await dialog.getByLabel("男").check();
  await dialog.getByLabel("生日").fill("2001-02-03");
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(dialog).toBeHidden();

  // Quick search finds it; edit its nickname.
  const quick = page.getByRole("search", { name: "快速搜索" }).getByRole("searchbox");
  await quick.fill(username);
  await quick.press("Enter");
  const row = page.getByRole("row").filter({ hasText: username });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("E2E 会员");
  await row.getByRole("button", { name: /^编辑第 \d+ 行$/ }).click();
  await expect(dialog.getByLabel("用户名")).toHaveValue(username);
  await expect(dialog.getByLabel("生日")).toHaveValue("2001-02-03");
  await dialog.getByLabel("昵称").fill("E2E 已编辑");
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("E2E 已编辑");

  // The search form (text LIKE on the username) finds it with the quick search cleared.
  await quick.fill("");
  await quick.press("Enter");
  await page.getByRole("button", { name: "搜索表单" }).click();
  const form = page.getByRole("search", { name: "搜索表单" });
  await form.getByLabel("用户名").fill(username);
  await form.getByRole("button", { name: "搜索", exact: true }).click();
  await expect(page.getByRole("row")).toHaveCount(2); // header + the member
  await expect(row).toContainText("E2E 已编辑");

  // Adjust the balance: refused below zero, then credited.
  await row.getByRole("button", { name: /^调整余额 · \d+$/ }).click();
  await expect(dialog.getByTestId("adjust-current")).toHaveText("0.00");
  await dialog.getByLabel(/^金额/).fill("-1");
  await dialog.getByLabel("备注").fill("E2E 扣减");
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(dialog.getByText("余额不能小于零：该会员当前余额为 0.00")).toBeVisible();
  await dialog.getByLabel(/^金额/).fill("12.34");
  await dialog.getByLabel("备注").fill("E2E 充值");
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("12.34");

  // The balance log shows the one row.
  await page.goto("/admin/user/moneyLog");
  const logQuick = page.getByRole("search", { name: "快速搜索" }).getByRole("searchbox");
  await logQuick.fill(username);
  await logQuick.press("Enter");
  const logRow = page.getByRole("row").filter({ hasText: username });
  await expect(logRow).toHaveCount(1);
  await expect(logRow).toContainText("+12.34");
  await expect(logRow).toContainText("E2E 充值");
  await expect(page.getByRole("button", { name: "添加", exact: true })).toHaveCount(0);

  // Delete it.
  await page.goto("/admin/user/user");
  await quick.fill(username);
  await quick.press("Enter");
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: /^删除第 \d+ 行$/ }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "删除" }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("暂无数据")).toBeVisible();

  // The recycle bin kept it (members have a recycle rule): restored, with its balance and its log row.
  await page.goto("/admin/security/dataRecycleLog");
  const binQuick = page.getByRole("search", { name: "快速搜索" }).getByRole("searchbox");
  await binQuick.fill(username);
  await binQuick.press("Enter");
  const kept = page.getByRole("row").filter({ hasText: username });
  await expect(kept).toHaveCount(1);
  await kept.getByRole("checkbox").check();
  await page.getByRole("button", { name: "还原", exact: true }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "还原" }).click();
  await expect(kept).toHaveCount(0);
  await page.goto("/admin/user/user");
  await quick.fill(username);
  await quick.press("Enter");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("E2E 已编辑");
  await expect(row).toContainText("12.34");
  await page.goto("/admin/user/moneyLog");
  await logQuick.fill(username);
  await logQuick.press("Enter");
  await expect(logRow).toHaveCount(1);
  await expect(logRow).toContainText("E2E 充值");
});
