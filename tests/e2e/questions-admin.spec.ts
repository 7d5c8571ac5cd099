import type { Page } from "@playwright/test";
import { expect, test } from "./server.ts";

/**
 * The question back office in the real app (zh-cn): staff write a single-choice question with an
 * image in its stem (uploaded, opened in the previewer, shown in the live preview) and find it in
 * the list; then import a small CSV through the dry-run dialog: a bad row is reported by its line
 * and nothing is imported, the corrected file imports.
 */

/** A 2x2 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");

async function logInAdmin(page: Page): Promise<void> {
  await page.goto("/admin/login");
  await page.getByLabel("用户名").fill("admin");
  await page.getByLabel("密码").fill("admin123456");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test("staff write a question with an image and import questions through the dry run", async ({ page }) => {
  const tag = `e2e${Date.now().toString(36)}`;
  await logInAdmin(page);
  await page.goto("/admin/exam/question");
  await expect(page.getByRole("heading", { name: "题目", exact: true })).toBeVisible();

  await page.getByRole("button", { name: "添加", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("题库").click();
  await page.getByRole("option").nth(1).click();
  await dialog.getByLabel("题目", { exact: true }).fill(`${tag} 哪个是红色？`);
  await dialog.getByTestId("question-image-input").first().setInputFiles({ name: "red.png", mimeType: "image/png", buffer: PNG });
  await expect(dialog.getByRole("button", { name: "预览第 1 张图片" }).first()).toBeVisible();
  for (const [key, text] of [["A", "蓝"], ["B", "红"], ["C", "绿"], ["D", "黄"]] as const) await dialog.getByLabel(`选项${key}`, { exact: true }).fill(text);
  // Move option B (红) up: it becomes A and the answer follows once chosen.
  await dialog.getByRole("radio", { name: "B", exact: true }).check();
  await dialog.getByRole("button", { name: "上移选项 B" }).click();
  await expect(dialog.getByLabel("选项A", { exact: true })).toHaveValue("红");
  await expect(dialog.getByRole("radio", { name: "A", exact: true })).toBeChecked();
  // The live preview shows the question as members see it, image included.
  const preview = dialog.getByTestId("question-preview");
  await expect(preview).toContainText(`${tag} 哪个是红色？`);
  await expect(preview.getByRole("button", { name: "打开图片 1" })).toBeVisible();
  await preview.getByRole("button", { name: "打开图片 1" }).click();
  const previewer = page.getByRole("dialog", { name: "图片预览" });
  await expect(previewer).toBeVisible();
  await expect(previewer.getByText("第 1 张，共 1 张")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(previewer).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(dialog).toBeHidden();
  const quick = page.getByRole("search", { name: "快速搜索" }).getByRole("searchbox");
  await quick.fill(tag);
  await quick.press("Enter");
  await expect(page.getByRole("row").filter({ hasText: `${tag} 哪个是红色？` })).toHaveCount(1);

  // Import: a bad row is reported and nothing is imported; the corrected file imports.
  const header = "题型,题目,选项A,选项B,选项C,选项D,选项E,选项F,选项G,选项H,答案,参考答案,解析,难度,分值,状态";
  const csv = (answer: string) => Buffer.from(`\ufeff${header}\njudge,${tag} 导入判断,,,,,,,,,T\nsingle,${tag} 导入单选,甲,乙,丙,丁,,,,,${answer}\n`);
  await page.getByRole("button", { name: "导入", exact: true }).click();
  const importer = page.getByRole("dialog");
  await importer.getByLabel("题库").click();
  await page.getByRole("option").nth(1).click();
  await importer.getByLabel(/^文件/).setInputFiles({ name: "q.csv", mimeType: "text/csv", buffer: csv("E") });
  await importer.getByRole("button", { name: "检查文件" }).click();
  await expect(importer.getByTestId("import-errors")).toContainText("第 3 行：答案 E 不在选项中");
  await expect(importer.getByRole("button", { name: /^导入 \d+ 道题$/ })).toHaveCount(0);
  await importer.getByLabel(/^文件/).setInputFiles({ name: "q.csv", mimeType: "text/csv", buffer: csv("C") });
  await importer.getByRole("button", { name: "检查文件" }).click();
  await expect(importer).toContainText("将添加 2 道题，0 行有问题。");
  await importer.getByRole("button", { name: "导入 2 道题" }).click();
  await expect(importer).toBeHidden();
  await quick.fill(`${tag} 导入`);
  await quick.press("Enter");
  await expect(page.getByRole("row").filter({ hasText: `${tag} 导入` })).toHaveCount(2);
});
