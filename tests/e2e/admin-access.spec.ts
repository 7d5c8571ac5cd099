import { AdminCrud } from "./pages/adminCrud.ts";
import { expect, test, logInAdmin, openAdmin } from "./server.ts";

/**
 * Access control in the real app: a super admin makes a group that grants only
 * Members > View and an admin in it; that admin sees only those menus and gets 401 on another
 * screen's URL; a menu rule added in the rules screen shows in the side menu without a reload.
 * The demo server is shared by the specs: every name here is unique and only they are checked.
 */

test("a group grants only its rules: its admin sees those menus, 401 elsewhere; a new menu rule shows at once", async ({ page, browser, baseURL }) => {
  const suffix = String(Date.now() % 1e8);
  const groupName = `只读会员组${suffix}`;
  const username = `ea${suffix}`;
  const password = "viewer-pass1";
  await openAdmin(page);
  const crud = new AdminCrud(page);
  const menu = crud.menu;

  // The group: only Members > View (the menu and its directory come along half-checked).
  await menu.getByRole("link", { name: "角色组管理" }).click();
  await expect(page).toHaveURL(/\/admin\/auth\/group$/);
  await crud.openAdd();
  const dialog = crud.dialog;
  await dialog.getByLabel("名称").fill(groupName);
  const rules = dialog.getByRole("group", { name: "权限" });
  await rules.getByRole("button", { name: "展开 会员", exact: true }).click();
  // The Members menu's own branch (inside the Members directory's): its View button.
  const membersMenu = rules.getByRole("treeitem").filter({ has: page.getByRole("button", { name: "收起 会员", exact: true }) }).last();
  await membersMenu.getByRole("checkbox", { name: "查看", exact: true }).check();
  await expect(rules.getByRole("checkbox", { name: "会员管理" }).first()).toHaveJSProperty("indeterminate", true);
  await crud.saveAndClose();
  await expect(page.getByRole("table").getByText(groupName)).toBeVisible();

  // The admin in it.
  await menu.getByRole("link", { name: "管理员管理" }).click();
  await expect(page).toHaveURL(/\/admin\/auth\/admin$/);
  await crud.openAdd();
  await dialog.getByLabel("用户名").fill(username);
  await dialog.getByLabel("密码").fill(password);
  await dialog.getByRole("button", { name: "角色组" }).click();
  await page.getByRole("checkbox", { name: groupName }).check();
  await page.keyboard.press("Escape");
  await expect(dialog.getByRole("list", { name: "已选择" })).toContainText(groupName);
  await crud.saveAndClose();
  await crud.quickFind(username);
  await expect(crud.row(username)).toContainText(groupName);

  // That admin, in a browser of their own: only the granted menus, and 401 on another screen.
  const other = await browser.newContext({ baseURL });
  const viewer = await other.newPage();
  await logInAdmin(viewer, { username, password });
  const viewerMenu = new AdminCrud(viewer).menu;
  await expect(viewerMenu.getByRole("link", { name: "会员", exact: true })).toBeVisible();
  for (const hidden of ["管理员管理", "角色组管理", "菜单规则管理", "会员分组", "题目"]) await expect(viewerMenu.getByRole("link", { name: hidden, exact: true })).toHaveCount(0);
  await viewer.goto("/admin/auth/admin");
  await expect(viewer).toHaveURL(/\/admin\/401$/);
  await expect(viewer.getByRole("heading", { name: "您没有权限访问此页面，或文件无效。" })).toBeVisible();
  // Still inside the back office: its menu stays, and home is the dashboard, not the member side.
  await expect(viewerMenu.getByRole("link", { name: "会员", exact: true })).toBeVisible();
  await viewer.getByRole("link", { name: "返回首页" }).click();
  // (Home of the back office is the admin's first menu: this one has only the members screen.)
  await expect(viewer).toHaveURL(/\/admin\/user\/user$/);
  // The server refuses the same admin's call too (not only the screen).
  const refused = await viewer.evaluate(async () => {
    const token = JSON.parse(localStorage.getItem("adminInfo") ?? "{}")?.state?.token ?? "";
    const res = await fetch("/admin/auth/admin/index", { headers: { batoken: token } });
    return (await res.json()) as { code: number };
  });
  expect(refused.code).toBe(401);
  await other.close();

  // A menu rule added in the rules screen shows in the side menu at once (no reload).
  await menu.getByRole("link", { name: "菜单规则管理" }).click();
  await expect(page).toHaveURL(/\/admin\/auth\/rule$/);
  await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));
  const title = `新菜单${suffix}`;
  await crud.openAdd();
  await dialog.getByRole("radio", { name: "菜单", exact: true }).check();
  await dialog.getByLabel("标题", { exact: true }).fill(title);
  await dialog.getByLabel("规则名称").fill(`e2e/menu${suffix}`);
  await dialog.getByLabel("路由路径").fill(`e2e/menu${suffix}`);
  await dialog.getByLabel("组件").fill(`e2e/menu${suffix}`);
  await crud.saveAndClose();
  await expect(menu.getByRole("link", { name: title })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
});
