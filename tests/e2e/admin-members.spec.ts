import { readFile } from "node:fs/promises";
import { AdminCrud } from "./pages/adminCrud.ts";
import { expect, test, openAdmin } from "./server.ts";

const DASHBOARD = /\/admin\/dashboard$/;

/**
 * The members screens in the real app (zh-cn): a super admin creates a member through the form,
 * edits it, finds it with the search form, adjusts its balance (the balance log shows the row)
 * and deletes it. The demo server is shared with other specs: the member's name is unique and
 * only its own rows are checked.
 */

test("a super admin creates, edits, finds, credits and deletes a member", async ({ page }) => {
  const username = `e2e${Date.now().toString(36)}`;
  await openAdmin(page, { landing: DASHBOARD });
  // The dashboard shows real figures.
  await expect(page.getByTestId("dashboard-figures")).toContainText("会员");
  const crud = new AdminCrud(page);
  const dialog = crud.dialog;
  await crud.open("/admin/user/user", "会员");

  // Create through the form; a refused field is shown beside it first.
  await crud.openAdd();
  await dialog.getByLabel("用户名").fill(username);
  await dialog.getByLabel("昵称").fill("E2E 会员");
  await dialog.getByLabel("密码", { exact: true }).fill("1");
  await crud.save();
  await expect(dialog.getByLabel("密码", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("密码", { exact: true }).fill("secret-123");
  await dialog.getByLabel("男").check();
  await dialog.getByLabel("生日").fill("2001-02-03");
  await crud.saveAndClose();

  // Quick search finds it; edit its nickname.
  await crud.quickFind(username);
  const row = crud.row(username);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("E2E 会员");
  await crud.edit(row);
  await expect(dialog.getByLabel("用户名")).toHaveValue(username);
  await expect(dialog.getByLabel("生日")).toHaveValue("2001-02-03");
  await dialog.getByLabel("昵称").fill("E2E 已编辑");
  await crud.saveAndClose();
  await expect(row).toContainText("E2E 已编辑");

  // The search form (text LIKE on the username) finds it with the quick search cleared.
  await crud.quickFind("");
  await crud.openSearchForm();
  await crud.searchForm.getByLabel("用户名").fill(username);
  await crud.runSearchForm();
  await expect(crud.rows()).toHaveCount(2); // header + the member
  await expect(row).toContainText("E2E 已编辑");

  // Adjust the balance: refused below zero, then credited.
  await row.getByRole("button", { name: /^调整余额 · \d+$/ }).click();
  await expect(dialog.getByTestId("adjust-current")).toHaveText("0.00");
  await dialog.getByLabel(/^金额/).fill("-1");
  await dialog.getByLabel("备注").fill("E2E 扣减");
  await crud.save();
  await expect(dialog.getByText("余额不能小于零：该会员当前余额为 0.00")).toBeVisible();
  await dialog.getByLabel(/^金额/).fill("12.34");
  await dialog.getByLabel("备注").fill("E2E 充值");
  await crud.saveAndClose();
  await expect(row).toContainText("12.34");

  // The balance log shows the one row.
  await crud.open("/admin/user/moneyLog");
  await crud.quickFind(username);
  const logRow = crud.row(username);
  await expect(logRow).toHaveCount(1);
  await expect(logRow).toContainText("+12.34");
  await expect(logRow).toContainText("E2E 充值");
  await expect(crud.addButton).toHaveCount(0);

  // Export the log as the quick search shows it: a CSV of that one row, named by the list and the day.
  await page.getByRole("button", { name: "导出", exact: true }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "导出为 .csv" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^user-moneyLog-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await download.path())!, "utf8")).replace(/^\ufeff/, "").trim().split(/\r?\n/);
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain(username);
  expect(csv[1]).toContain("12.34");

  // Delete it.
  await crud.open("/admin/user/user");
  await crud.quickFind(username);
  await expect(row).toHaveCount(1);
  await crud.delete(row);
  await expect(row).toHaveCount(0);
  await expect(crud.empty).toBeVisible();

  // The recycle bin kept it (members have a recycle rule): restored, with its balance and its log row.
  await crud.open("/admin/security/dataRecycleLog");
  await crud.quickFind(username);
  const kept = crud.row(username);
  await expect(kept).toHaveCount(1);
  await kept.getByRole("checkbox").check();
  await page.getByRole("button", { name: "还原", exact: true }).click();
  await crud.confirm("还原");
  await expect(kept).toHaveCount(0);
  await crud.open("/admin/user/user");
  await crud.quickFind(username);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("E2E 已编辑");
  await expect(row).toContainText("12.34");
  await crud.open("/admin/user/moneyLog");
  await crud.quickFind(username);
  await expect(logRow).toHaveCount(1);
  await expect(logRow).toContainText("E2E 充值");
});
