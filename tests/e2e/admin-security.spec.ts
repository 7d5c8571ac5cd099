import type { APIRequestContext } from "@playwright/test";
import { expect, test, openAdmin } from "./server.ts";

/**
 * Data security in the browser: a watched field's edit is rolled back from its log (the recycle
 * bin's restore is in admin-members.spec.ts, after the member is deleted through its screen).
 * The specs share one demo server, so this one makes and checks only its own members.
 */

/** An admin session of the API (for making and checking data, not for what the test is about). */
async function api(request: APIRequestContext) {
  const login = await (await request.post("/admin/index/login", { data: { username: "admin", password: "admin123456", keep: false } })).json();
  const headers = { batoken: login.data.userInfo.token as string };
  return {
    async post(url: string, data: unknown) {
      return (await request.post(url, { headers, data })).json();
    },
    async get(url: string) {
      return (await request.get(url, { headers })).json();
    },
    async del(url: string) {
      return (await request.delete(url, { headers })).json();
    },
  };
}

test("a watched field's edit is rolled back from the sensitive data log", async ({ page, request }) => {
  const admin = await api(request);
  const username = `sd${Date.now().toString(36)}`;
  const added = await admin.post("/admin/user/user/add", { username, password: "secret-123" });
  const id = added.data.id as number;
  expect((await admin.post("/admin/user/user/edit", { id, username: `${username}x`, mobile: "13900001111", password: "" })).code).toBe(1);

  await openAdmin(page, { lang: "en", path: "/admin/security/sensitiveDataLog" });
  await page.getByRole("searchbox", { name: "ID, name, field, admin" }).fill(`${username}x`);
  await page.getByRole("searchbox", { name: "ID, name, field, admin" }).press("Enter");
  const table = page.getByRole("table", { name: "Sensitive data log" });
  const rows = table.getByRole("row").filter({ hasText: `${username}x` });
  await expect(rows).toHaveCount(2);
  const usernameRow = rows.filter({ hasText: "username" });
  await expect(usernameRow).toContainText(username);
  await usernameRow.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Roll back" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Roll back" }).click();
  await expect(usernameRow.getByText("Yes")).toBeVisible();
  const row = (await admin.get(`/admin/user/user/edit?id=${id}`)).data.row;
  expect(row).toMatchObject({ username, mobile: "13900001111" });
});
