import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { AdminCrud } from "./pages/adminCrud.ts";
import { expect, logInAdmin, openMember, test } from "./server.ts";

/**
 * Certificates in Chromium: staff give a free demo course a certificate template (through the
 * API), a member of the spec's own (in the demo member's group: the worker's server is shared
 * with specs that expect the demo member to have enrolled in nothing) completes its lessons (lesson.progress ops through the sync API), finds
 * the certificate in the member center and downloads its PDF, which then opens again offline from
 * the device; the public page /verify/<serial> (no login, on a phone) says valid, and after staff
 * revoke it in the back office (reason required), revoked.
 */

const MEMBER = { username: `cert_${randomUUID().slice(0, 8)}`, password: "cert-pass-123" };

async function apiLogin(request: APIRequestContext, area: "admin" | "member"): Promise<string> {
  const res =
    area === "member"
      ? await request.post("/api/user/checkIn", { data: { tab: "login", username: MEMBER.username, password: MEMBER.password, keep: false } })
      : await request.post("/admin/index/login", { data: { username: "admin", password: "admin123456", keep: false } });
  const body = await res.json();
  expect(body.code, body.msg).toBe(1);
  return body.data.userInfo.token as string;
}

test("a completed course's certificate: download, offline open, public check valid then revoked", async ({ page, request, browser, baseURL }) => {
  test.setTimeout(180_000);
  const admin = { batoken: await apiLogin(request, "admin"), "think-lang": "en" };
  const demo = (await (await request.get("/admin/user/user/index?quickSearch=member", { headers: admin })).json()).data.list.find((m: { username: string }) => m.username === "member") as { group_id: number };
  const created = await (
    await request.post("/admin/user/user/add", { headers: admin, data: { username: MEMBER.username, nickname: "Cert taker", password: MEMBER.password, group_id: demo.group_id, status: "enable" } })
  ).json();
  expect(created.code, created.msg).toBe(1);
  const member = { "ba-user-token": await apiLogin(request, "member"), "think-lang": "en" };

  // A free demo course with a certificate template.
  const courses = (await (await request.get("/api/course/list", { headers: member })).json()).data.list as { id: number; price: number; title: string }[];
  const course = courses.find((c) => c.price === 0)!;
  const added = await (await request.post("/admin/exam/certificateTemplate/add", { headers: admin, data: { course_id: course.id, title: "结业证书", wording: "{name} 已完成课程「{title}」。", text_color: "#1f2937", accent_color: "#b45309" } })).json();
  expect(added.code, added.msg).toBe(1);

  // The member enrols and completes every lesson.
  await request.post("/api/course/enrol", { headers: member, data: { courseId: course.id } });
  const detail = (await (await request.get(`/api/course/detail?id=${course.id}`, { headers: member })).json()).data as { lessons: { id: number }[] };
  const ops = detail.lessons.map((l) => ({ id: randomUUID(), type: "lesson.progress", at: Date.now(), payload: { lessonId: l.id, position: 1, completed: true } }));
  const synced = await (await request.post("/api/exam/sync", { headers: member, data: { ops } })).json();
  expect(synced.data.results.every((r: { status: string }) => r.status === "applied")).toBe(true);

  // The member center lists it; the PDF downloads and is kept on the device.
  await openMember(page, { username: MEMBER.username, password: MEMBER.password, path: "/user/exam/certificate" });
  const row = page.getByTestId("certificate-row").filter({ hasText: "结业证书" });
  await expect(row).toBeVisible();
  const serial = (await row.getByRole("link").textContent())!.trim();
  expect(serial).toMatch(/^[23456789A-HJ-NP-Z]{16}$/);
  const first = page.waitForEvent("download");
  await row.getByRole("button", { name: "下载 PDF" }).click();
  const pdf = await first;
  expect(pdf.suggestedFilename()).toBe(`certificate-${serial}.pdf`);
  const bytes = await (await pdf.createReadStream()).toArray();
  expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe("%PDF-");
  await expect(row.getByText("已保存到本设备")).toBeVisible();

  // Offline, it opens again from the device.
  await page.context().setOffline(true);
  const again = page.waitForEvent("download");
  await row.getByRole("button", { name: "打开 PDF" }).click();
  expect((await again).suggestedFilename()).toBe(`certificate-${serial}.pdf`);
  await page.context().setOffline(false);

  // Anyone, on a phone, without logging in: valid.
  const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const visitor = await phone.newPage();
  await visitor.goto(`/verify/${serial}`);
  await expect(visitor.getByTestId("certificate-state")).toHaveText("该证书有效");
  await expect(visitor.getByText("结业证书")).toBeVisible();
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Staff revoke it in the back office (a reason is required).
  const staff = await browser.newContext({ baseURL });
  const adminPage = await staff.newPage();
  await logInAdmin(adminPage, { lang: "en" });
  const crud = new AdminCrud(adminPage, "en");
  await crud.open("/admin/exam/certificate", "Certificates");
  await crud.quickFind(serial);
  const listed = crud.row(serial);
  await listed.getByRole("button", { name: "Revoke" }).click();
  await crud.dialog.getByRole("button", { name: "Revoke" }).click();
  await expect(crud.dialog.getByText("Please give the reason (at most 200 characters)")).toBeVisible();
  await crud.dialog.getByLabel("Reason").fill("Issued by mistake");
  await crud.dialog.getByRole("button", { name: "Revoke" }).click();
  await expect(crud.dialog).toBeHidden();
  await expect(listed.getByText("Revoked")).toBeVisible();

  await visitor.reload();
  await expect(visitor.getByTestId("certificate-state")).toContainText("该证书已于");
  await phone.close();
  await staff.close();
});
