import { AdminCrud } from "./pages/adminCrud.ts";
import { PracticeScreen } from "./pages/exam.ts";
import { MemberShell } from "./pages/memberShell.ts";
import { expect, openAdmin, openMember, serviceWorkerInControl, signIn, startServer, test } from "./server.ts";


/**
 * The question back office in the real app (zh-cn): Escape on an add form with typed work asks
 * before throwing it away; staff write a single-choice question with an
 * image in its stem (uploaded, opened in the previewer, shown in the live preview) and find it in
 * the list; then import a small CSV through the dry-run dialog: a bad row is reported by its line
 * and nothing is imported, the corrected file imports.
 */

/** A 2x2 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");

test("staff write a question with an image and import questions through the dry run", async ({ page }) => {
  const tag = `e2e${Date.now().toString(36)}`;
  await signIn(page, "admin");
  const crud = new AdminCrud(page);
  const dialog = crud.dialog;
  await crud.open("/admin/exam/question", "题目");

  // An untouched add form closes at once on Escape.
  await crud.openAdd();
  await expect(dialog.getByLabel("题目", { exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);

  await crud.openAdd();
  await dialog.getByLabel("题库").click();
  await page.getByRole("option").nth(1).click();
  await dialog.getByLabel("题目", { exact: true }).fill(`${tag} 哪个是红色？`);
  // Escape with typed work asks first; its focused answer (keep editing) keeps the text.
  await page.keyboard.press("Escape");
  const ask = page.getByRole("alertdialog");
  await expect(ask).toBeVisible();
  await expect(ask.getByRole("button").first()).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(ask).toHaveCount(0);
  await expect(dialog.getByLabel("题目", { exact: true })).toHaveValue(`${tag} 哪个是红色？`);
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
  await crud.saveAndClose();
  await crud.quickFind(tag);
  await expect(crud.row(`${tag} 哪个是红色？`)).toHaveCount(1);

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
  await crud.quickFind(`${tag} 导入`);
  await expect(crud.row(`${tag} 导入`)).toHaveCount(2);
});

/**
 * The round trip to a device: a member saves the maths bank for offline practice; staff
 * write a question with an image into that bank; the member's next online visit downloads the
 * bank again (its version changed) and shows the new question with its image — which then stays
 * on the device, image included, with no network.
 */
test("a bank saved for offline shows a question staff wrote, with its image, after the next online visit and then offline", async ({ browser }) => {
  test.setTimeout(180_000);
  const server = await startServer();
  try {
    // The member's browser has the service worker (the config blocks it): it reads the saved bank offline.
    const learnerContext = await browser.newContext({ baseURL: server.url, serviceWorkers: "allow" });
    const learner = await learnerContext.newPage();
    const staff = await (await browser.newContext({ baseURL: server.url })).newPage();
    const tag = `e2e${Date.now().toString(36)}`;

    await openMember(learner);
    await new PracticeScreen(learner).openFirstBank();
    await expect(learner.getByRole("heading", { name: "数学基础" })).toBeVisible({ timeout: 15_000 });
    const total = Number((await learner.getByText(/^第 1 题，共 \d+ 题$/).innerText()).match(/共 (\d+) 题/)![1]);
    await serviceWorkerInControl(learner);
    const practiceUrl = learner.url();

    await openAdmin(staff, { path: "/admin/exam/question" });
    const crud = new AdminCrud(staff);
    const dialog = crud.dialog;
    await crud.openAdd();
    await dialog.getByLabel("题库").click();
    await staff.getByRole("option", { name: "数学基础" }).click();
    await dialog.getByLabel("题目", { exact: true }).fill(`${tag} 哪个是红色？`);
    await dialog.getByTestId("question-image-input").first().setInputFiles({ name: "red.png", mimeType: "image/png", buffer: PNG });
    await expect(dialog.getByRole("button", { name: "预览第 1 张图片" }).first()).toBeVisible();
    for (const [key, text] of [["A", "红"], ["B", "蓝"], ["C", "绿"], ["D", "黄"]] as const) await dialog.getByLabel(`选项${key}`, { exact: true }).fill(text);
    await dialog.getByRole("radio", { name: "A", exact: true }).check();
    await crud.saveAndClose();

    // The member's next online visit: the bank is downloaded again, the new question is the last one.
    await learner.goto(practiceUrl);
    await expect(learner.getByText(`共 ${total + 1} 题`)).toBeVisible({ timeout: 15_000 });
    const showsNewQuestion = async () => {
      await learner.getByRole("button", { name: new RegExp(`^第 ${total + 1} 题`) }).click();
      await expect(learner.getByText(`${tag} 哪个是红色？`)).toBeVisible();
      const image = learner.getByRole("button", { name: "打开图片 1" }).locator("img");
      await expect(image).toBeVisible();
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    };
    await showsNewQuestion();

    // Offline, after a reload: the question and its image come from the device.
    await learnerContext.setOffline(true);
    await learner.reload();
    await expect(new MemberShell(learner).offlineNotice).toBeVisible();
    await expect(learner.getByText(`共 ${total + 1} 题`)).toBeVisible({ timeout: 15_000 });
    await showsNewQuestion();
  } finally {
    await server.stop();
  }
});
