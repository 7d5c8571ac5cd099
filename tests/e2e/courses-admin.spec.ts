import path from "node:path";
import { AdminCrud } from "./pages/adminCrud.ts";
import { expect, openMember, root, signIn, test } from "./server.ts";

/**
 * The courses back office in the real app (zh-cn): a super admin creates a category, a course
 * with a cover and a lesson with a small WebM video (uploaded with its length read by the
 * browser); the course's form lists the lesson; a member enrols and opens the lesson; the admin
 * changes the lesson's text and the member's next visit shows the new text. The demo server is
 * shared with other specs: names are unique and only this test's rows are checked.
 */

const MEDIA = path.join(root, "src/server/demo/media");

test("staff build a course with a video lesson; a member opens it and sees the next edit", async ({ page, browser }) => {
  // Two sessions, three uploads and a service worker on a loaded 2-core machine.
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);
  const categoryName = `E2E 分类 ${tag}`;
  const courseTitle = `E2E 课程 ${tag}`;
  const lessonTitle = `E2E 课时 ${tag}`;
  await signIn(page, "admin");
  const crud = new AdminCrud(page);
  const dialog = crud.dialog;

  // A category.
  await crud.open("/admin/course/category", "课程分类");
  await crud.openAdd();
  await dialog.getByLabel("名称", { exact: true }).fill(categoryName);
  await dialog.getByLabel("英文名称", { exact: true }).fill(`E2E category ${tag}`);
  await crud.saveAndClose();
  await expect(crud.row(categoryName)).toHaveCount(1);

  // A free course with a cover; the category must be chosen first.
  await crud.open("/admin/course/course");
  await crud.openAdd();
  await dialog.getByRole("textbox", { name: "标题", exact: true }).fill(courseTitle);
  await crud.save();
  await expect(dialog.getByLabel("分类", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("分类", { exact: true }).click();
  await page.getByRole("option", { name: categoryName }).click();
  await dialog.getByTestId("image-input").setInputFiles(path.join(MEDIA, "cover-study.jpg"));
  await expect(dialog.locator('img[src^="/storage/course/"]')).toBeVisible();
  await dialog.getByLabel("价格", { exact: true }).fill("abc");
  await dialog.getByLabel("简介", { exact: true }).fill("E2E 课程简介");
  await dialog.locator('[contenteditable="true"]').fill("这是 E2E 课程介绍。");
  await crud.save();
  await expect(dialog.getByLabel("价格", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("价格", { exact: true }).fill("0");
  // Saved, the new course's form stays open (as its edit form) for its lessons.
  await crud.save();
  await expect(page.getByRole("dialog", { name: /^编辑 · / })).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: "标题", exact: true })).toHaveValue(courseTitle);
  await crud.cancel();
  await expect(dialog).toBeHidden();
  const courseRow = crud.row(courseTitle);
  await expect(courseRow).toContainText("免费");
  await expect(courseRow.getByRole("img", { name: `${courseTitle} 的封面` })).toBeVisible();

  // A lesson with a small WebM: progress, then the video with its length read by the browser (20 s).
  await crud.open("/admin/course/lesson");
  await crud.openAdd();
  await dialog.getByRole("combobox", { name: "课程" }).fill(courseTitle);
  await dialog.getByRole("option", { name: courseTitle }).click();
  await dialog.getByRole("textbox", { name: "标题", exact: true }).fill(lessonTitle);
  await dialog.getByTestId("video-input").setInputFiles(path.join(MEDIA, "pattern.webm"));
  await expect(dialog.getByTestId("lesson-video")).toContainText("WEBM", { ignoreCase: true });
  await expect(dialog.getByTestId("lesson-video-duration")).toHaveValue("20");
  await dialog.locator('[contenteditable="true"]').fill("第一版讲义");
  await dialog.getByRole("switch", { name: "免费试看" }).click();
  await crud.saveAndClose();
  await crud.quickFind(lessonTitle);
  const lessonRow = crud.row(lessonTitle);
  await expect(lessonRow).toContainText("0:20");
  await expect(lessonRow).toContainText("WebM");

  // The course's form lists its lesson.
  await crud.open("/admin/course/course");
  await crud.edit(courseRow);
  await expect(dialog.getByTestId("course-lessons")).toContainText(lessonTitle);
  await expect(dialog.getByTestId("course-lessons")).toContainText("免费试看");
  await crud.cancel();

  // A member enrols and opens the lesson: the video and the text.
  const member = await browser.newContext({ baseURL: page.url().replace(/\/admin.*$/, "") });
  const memberPage = await member.newPage();
  await openMember(memberPage, { path: "/user/course/index" });
  await memberPage.getByRole("link", { name: new RegExp(courseTitle) }).first().click();
  await memberPage.getByRole("button", { name: "免费报名" }).click();
  await memberPage.getByRole("link", { name: new RegExp(lessonTitle) }).click();
  await expect(memberPage).toHaveURL(/\/player\/txPlayer\?id=\d+/);
  await expect(memberPage.getByRole("region", { name: "课时讲义" })).toContainText("第一版讲义");
  await expect(memberPage.locator("video")).toHaveAttribute("src", /\/storage\/course\/\d{8}\/[0-9a-f]{40}\.webm$/);
  await memberPage.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 1, undefined, { timeout: 15_000 });

  // Staff change the text; the member's next visit shows it.
  await crud.open("/admin/course/lesson");
  await crud.quickFind(lessonTitle);
  await crud.edit(lessonRow);
  await expect(dialog.getByTestId("lesson-video-duration")).toHaveValue("20");
  await dialog.locator('[contenteditable="true"]').fill("第二版讲义");
  await crud.saveAndClose();
  await memberPage.reload();
  await expect(memberPage.getByRole("region", { name: "课时讲义" })).toContainText("第二版讲义");
  await member.close();
});
