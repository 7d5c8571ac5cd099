import { AdminCrud } from "./pages/adminCrud.ts";
import { expect, openAdmin, test } from "./server.ts";

/**
 * A back-office list on a phone (390 × 844, touch), in zh-cn: the questions are cards whose
 * question text has the card's width and whose edit button is on screen and opens the form
 * (full width, its save button in reach); the strip of open pages scrolls without a scrollbar.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("the questions list is cards on a phone, the edit button opens the form, the tab strip has no scrollbar", async ({ page }) => {
  await openAdmin(page, { landing: /\/admin\/dashboard$/ });
  // Pages opened one after another, so the strip of open pages is wider than the screen.
  for (const path of ["/admin/auth/admin", "/admin/auth/group", "/admin/user/user"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  const crud = new AdminCrud(page);
  await crud.open("/admin/exam/question", "题目");

  // The strip of open pages, wider than the screen, scrolls without a bar: none takes room under
  // the tabs, and none is asked for (the test browser hides scrollbars, so the style is what shows
  // that a browser drawing classic ones draws none; at this size one took 15 px).
  const strip = page.getByRole("navigation", { name: "已打开的页面" }).getByRole("list");
  const { overflow, bar, style } = await strip.evaluate((ul: HTMLElement) => ({ overflow: ul.scrollWidth - ul.clientWidth, bar: ul.offsetHeight - ul.clientHeight, style: getComputedStyle(ul).scrollbarWidth }));
  expect(overflow).toBeGreaterThan(0);
  expect(bar).toBe(0);
  expect(style).toBe("none");

  const cards = page.getByRole("list", { name: "题目" }).getByRole("listitem");
  await expect(cards.first()).toBeVisible();
  const card = cards.first();
  // The question text (its cell names the whole text in its title) spans the card.
  const stem = (await card.locator("[title]").first().boundingBox())!;
  expect(stem.width).toBeGreaterThan(100);
  const edit = card.getByRole("button", { name: crud.copy.edit });
  await expect(edit).toBeInViewport();
  const box = (await edit.boundingBox())!;
  expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);

  await edit.tap();
  await expect(crud.dialog).toBeVisible();
  const dialog = (await crud.dialog.boundingBox())!;
  expect(dialog.width).toBe(390);
  // The long question form scrolls; its save button stays on screen.
  await expect(crud.dialog.getByRole("button", { name: crud.copy.save })).toBeInViewport();
});
