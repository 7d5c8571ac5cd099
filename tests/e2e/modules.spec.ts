import { AdminCrud } from "./pages/adminCrud.ts";
import { expect, openAdmin, openMember, startServer, test } from "./server.ts";

/**
 * The module market in the real app: a super admin installs the bundled notice board,
 * its screen is in the side menu at once, a notice added there is shown to a member on the member
 * center's overview; disabled, the notice and the menu are gone. On a server of its own, so no
 * other test sees the module's menus.
 */

test("a super admin installs the notice board, adds a notice, and a member sees it", async ({ browser }) => {
  test.setTimeout(120_000);
  const server = await startServer();
  try {
    const admin = await browser.newPage({ baseURL: server.url });
    await openAdmin(admin, { path: "/admin/moduleStore/moduleStore" });
    await expect(admin.getByRole("heading", { name: "模块市场" })).toBeVisible();
    const card = admin.locator('[data-module="notice"]');
    await expect(card).toContainText("未安装");
    await card.getByRole("button", { name: "安装", exact: true }).click();
    await expect(card).toContainText("已启用");

    // The side menu lists the module's screen at once; a notice is added through the engine's form.
    const crud = new AdminCrud(admin);
    const menu = crud.menuLink("公告");
    await expect(menu).toBeVisible();
    await menu.click();
    await expect(admin).toHaveURL(/\/admin\/mod\/notice\/notice$/);
    await crud.openAdd();
    const dialog = crud.dialog;
    await dialog.getByLabel("标题", { exact: true }).fill("周五下午模拟考试");
    await dialog.getByLabel("内容", { exact: true }).fill("请提前十分钟进入考场。");
    await dialog.getByLabel("内部备注（会员不可见）").fill("只给员工看的备注");
    await crud.saveAndClose();
    await expect(crud.row("周五下午模拟考试")).toBeVisible();
    await admin.screenshot({ path: test.info().outputPath("module-notice-admin.png") });

    // The member sees the published notice on the overview, never the staff note.
    const member = await browser.newPage({ baseURL: server.url });
    await openMember(member, { path: "/user/account/overview" });
    const board = member.getByRole("region", { name: "公告" });
    await expect(board).toContainText("周五下午模拟考试");
    await expect(board).toContainText("请提前十分钟进入考场。");
    await expect(member.locator("body")).not.toContainText("只给员工看的备注");
    await member.screenshot({ path: test.info().outputPath("module-notice-member.png") });

    // Disabled: gone from the member's overview and from the admin's menu.
    await admin.goto("/admin/moduleStore/moduleStore");
    await admin.locator('[data-module="notice"]').getByRole("button", { name: "禁用" }).click();
    await expect(admin.locator('[data-module="notice"]')).toContainText("已禁用");
    await expect(crud.menuLink("公告")).toHaveCount(0);
    await member.reload();
    await expect(member.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(member.getByRole("region", { name: "公告" })).toHaveCount(0);
  } finally {
    await server.stop();
  }
});
