import { AdminCrud } from "./pages/adminCrud.ts";
import { expect, test, openAdmin } from "./server.ts";

/**
 * The code generator in the real app: a super admin designs a resource, previews its
 * SQL, generates it, and the new screen is in the side menu at once, where a row is added
 * through the same list and form screen as the built-in ones.
 */

test("a super admin generates a resource and adds a row on its new screen", async ({ page }) => {
  await openAdmin(page, { path: "/admin/crud/crud" });
  await expect(page.getByRole("heading", { name: "代码生成" })).toBeVisible();
  await page.getByRole("button", { name: "新建设计" }).click();

  await page.getByLabel("表名").fill("shelf");
  await page.getByLabel("标题", { exact: true }).fill("书架");
  await page.getByLabel("英文标题").fill("Shelves");
  // The first field: a required name with a label; a second, an integer searched by range.
  await page.getByLabel("第 1 个字段名").fill("title");
  await page.getByLabel("title的注释").fill("名称");
  await page.getByRole("button", { name: "添加字段" }).click();
  await page.getByLabel("第 2 个字段名").fill("books");
  await page.getByLabel("books的类型").selectOption("int");
  await page.getByLabel("books的注释").fill("藏书数");
  await page.getByLabel("藏书数的搜索方式").selectOption("RANGE");

  // The preview shows the list's columns and the SQL before anything is created.
  await expect(page.getByRole("table", { name: "列表预览" }).getByRole("columnheader", { name: /藏书数/ })).toBeVisible();
  await page.getByRole("button", { name: "预览 SQL" }).click();
  await expect(page.getByTestId("codegen-sql")).toContainText('create table "gen_shelf"');

  await page.getByRole("button", { name: "生成", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "已生成。" })).toBeVisible();

  // The side menu lists the new screen at once; it opens with the engine's list and form.
  const crud = new AdminCrud(page);
  const menu = crud.menuLink("书架");
  await expect(menu).toBeVisible();
  await menu.click();
  await expect(page).toHaveURL(/\/admin\/gen\/shelf$/);
  await expect(page.getByRole("heading", { name: "书架" })).toBeVisible();
  await crud.openAdd();
  const dialog = crud.dialog;
  await dialog.getByLabel("名称").fill("历史");
  await dialog.getByLabel("藏书数").fill("42");
  await crud.saveAndClose();
  const row = crud.row("历史");
  await expect(row).toBeVisible();
  await expect(row).toContainText("42");
  await page.screenshot({ path: test.info().outputPath("codegen-generated.png") });
});
