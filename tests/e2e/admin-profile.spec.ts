import { expect, test, logInAdmin } from "./server.ts";

/**
 * An admin's own account in the browser: an admin whose group grants only the dashboard opens
 * "My account" from the header's account menu, changes their password, is sent to the login
 * page and logs in with the new one. The admin and group are made through the API (the admins'
 * screens have their own specs); the specs share one demo server, so the names are unique.
 */

test("a limited admin changes their own password and logs in with it", async ({ page, request }) => {
  const suffix = Date.now().toString(36);
  const username = `own${suffix}`;
  const oldPassword = "limited-old-1";
  const newPassword = "limited-new-2";

  const login = await (await request.post("/admin/index/login", { data: { username: "admin", password: "admin123456", keep: false } })).json();
  const headers = { batoken: login.data.userInfo.token as string };
  const index = await (await request.get("/admin/index/index", { headers })).json();
  const dashboard = (index.data.menus as { id: number; name: string }[]).find((m) => m.name === "dashboard");
  expect(dashboard).toBeTruthy();
  const group = await (await request.post("/admin/auth/group/add", { headers, data: { name: `Dashboard only ${suffix}`, rules: [dashboard!.id] } })).json();
  expect(group.code, group.msg).toBe(1);
  const added = await (await request.post("/admin/auth/admin/add", { headers, data: { username, password: oldPassword, group_ids: [group.data.id] } })).json();
  expect(added.code, added.msg).toBe(1);

  await logInAdmin(page, { username, password: oldPassword, lang: "en" });
  // The screen's own words are new to the catalogs: found here by role, place and autocomplete.
  await page.getByRole("button", { name: username }).click();
  const accountMenu = page.getByRole("menu", { name: username });
  await expect(accountMenu.getByRole("menuitem")).toHaveCount(2);
  await accountMenu.getByRole("menuitem").first().click();
  await expect(page).toHaveURL(/\/admin\/profile$/);
  // Inside the back office: its menu is still there.
  await expect(page.getByRole("navigation", { name: "Back office menu" })).toBeVisible();

  const form = page.getByRole("form").nth(1);
  await form.locator('input[autocomplete="current-password"]').fill(oldPassword);
  const fresh = form.locator('input[autocomplete="new-password"]');
  await fresh.nth(0).fill(newPassword);
  await fresh.nth(1).fill(newPassword);
  await form.getByRole("button").click();
  await expect(page).toHaveURL(/\/admin\/login$/);

  await logInAdmin(page, { username, password: newPassword, lang: "en", landing: /\/admin\/dashboard$/ });
});
