import type { APIRequestContext } from "@playwright/test";
import { AdminCrud } from "./pages/adminCrud.ts";
import { ExamScreen } from "./pages/exam.ts";
import { expect, openAdmin, openMember, startServer, test } from "./server.ts";

/**
 * Papers, rooms and marking in the real app, on a server of its own (its room withholds a demo
 * question): staff compose a paper with a short-answer question and open a room in the back
 * office (English); a member sits it (zh-cn); staff mark the answer in the marking queue; the
 * member's record shows the marked score and the comment.
 */

async function adminApi(request: APIRequestContext, base: string) {
  const login = await (await request.post(`${base}/admin/index/login`, { data: { username: "admin", password: "admin123456", keep: false } })).json();
  const headers = { batoken: login.data.userInfo.token as string };
  return { post: async (url: string, data: unknown) => (await request.post(`${base}${url}`, { headers, data })).json() };
}

test("staff compose a paper with a short answer, open a room, mark the member's answer; the member sees the new score", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const server = await startServer();
  try {
    const base = server.url;
    const staff = await (await browser.newContext({ baseURL: base })).newPage();
    const learner = await (await browser.newContext({ baseURL: base })).newPage();
    const tag = Date.now().toString(36);
    const paperTitle = `Paper ${tag}`;
    const roomTitle = `Room ${tag}`;

    // The demo's short-answer question, found as a member sees the practice bank (before any room withholds it).
    await openMember(learner);
    const tokenOf = () => learner.evaluate(() => (JSON.parse(localStorage.getItem("userInfo") ?? "{}").state?.token as string | undefined) ?? "");
    await expect.poll(tokenOf).not.toBe("");
    const memberToken = await tokenOf();
    const headers = { "ba-user-token": memberToken };
    const catalog = await (await request.get(`${base}/api/exam/catalog`, { headers })).json();
    expect(catalog.code, JSON.stringify(catalog).slice(0, 300)).toBe(1);
    const bankIds: number[] = [];
    const walk = (nodes: { id: number; children: unknown[] }[]) => nodes.forEach((n) => (bankIds.push(n.id), walk(n.children as never)));
    walk(catalog.data.classify);
    let shortId = 0;
    for (const id of bankIds) {
      const bank = await (await request.get(`${base}/api/exam/bank?id=${id}`, { headers })).json();
      const found = (bank.data?.questions ?? []).find((q: { type: string; stem: string }) => q.type === "short" && q.stem === "简述加法交换律。");
      if (found) shortId = found.id;
    }
    expect(shortId).toBeGreaterThan(0);

    // Staff: a paper through its form, its question row (the bank picker belongs to the questions screen), the composer's total.
    await openAdmin(staff, { lang: "en", path: "/admin/exam/paper" });
    const crud = new AdminCrud(staff, "en");
    const dialog = crud.dialog;
    await crud.openAdd();
    await dialog.getByLabel("Title").fill(paperTitle);
    await dialog.getByLabel("Total score").fill("10");
    await dialog.getByLabel("Pass score").fill("6");
    await crud.saveAndClose();
    const paperRow = crud.row(paperTitle);
    await expect(paperRow).toHaveCount(1);
    const paperId = Number((await paperRow.getByRole("cell").nth(1).innerText()).trim());
    const admin = await adminApi(request, base);
    expect((await admin.post("/admin/exam/paperRow/add", { paper_id: paperId, kind: "fixed", question_id: shortId, score: 10 })).code).toBe(1);
    await paperRow.getByRole("button", { name: /^Compose questions · \d+$/ }).click();
    await expect(dialog.getByTestId("composer-rows")).toContainText("简述加法交换律。");
    await expect(dialog.getByTestId("composer-total")).toHaveText("Questions add up to 10 of 10 points");
    await dialog.getByRole("button", { name: "Close", exact: true }).first().click();

    // A room on that paper, open now, through its form.
    await crud.open("/admin/exam/room");
    await crud.openAdd();
    await dialog.getByLabel("Title").fill(roomTitle);
    await dialog.getByLabel("Paper").click();
    await dialog.getByLabel("Paper").fill(paperTitle);
    await staff.getByRole("option", { name: paperTitle }).click();
    const pad = (n: number) => String(n).padStart(2, "0");
    const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    await dialog.getByRole("textbox", { name: "Opens" }).fill(local(new Date(Date.now() - 3_600_000)));
    await dialog.getByRole("textbox", { name: "Closes" }).fill(local(new Date(Date.now() + 86_400_000)));
    await dialog.getByLabel("Pass score").fill("6");
    // The paper is a mock paper (a practice bank's question): the form names it as kept for the exam, and the save needs the tick.
    await expect(dialog.getByRole("alert")).toContainText(paperTitle);
    await dialog.getByRole("checkbox", { name: /mock/i }).check();
    await crud.saveAndClose();
    await expect(crud.row(roomTitle)).toHaveCount(1);

    // The member sits it: one short answer naming one of the two keywords (5 points until marked).
    const exam = new ExamScreen(learner);
    await exam.openOfficialRooms();
    await exam.enterRoom(roomTitle);
    // The introduction (time, questions, points, attempts left) starts nothing until its start button.
    await exam.startFromIntroduction();
    await expect(learner).toHaveURL(/\/exam\/my_test_detail\?official=/);
    await learner.getByRole("textbox").fill("交换两个加数的位置");
    await exam.submit();
    await exam.confirmSubmit();
    await expect(learner.getByRole("heading", { level: 1, name: roomTitle })).toBeVisible();

    // Staff mark it: 8 of 10, with a comment.
    await crud.open("/admin/exam/marking");
    const item = crud.row("交换两个加数的位置");
    await expect(item).toHaveCount(1);
    await item.getByRole("button", { name: /^Mark · \d+$/ }).click();
    await expect(dialog.getByTestId("mark-answer")).toHaveText("交换两个加数的位置");
    await dialog.getByLabel(/^Score/).fill("11");
    await dialog.getByRole("button", { name: "Save mark" }).click();
    await expect(dialog.getByText("Enter a score from 0 to 10, with at most 2 decimals")).toBeVisible();
    await dialog.getByLabel(/^Score/).fill("8");
    await dialog.getByLabel("Comment").fill("Say that the sum stays the same.");
    await dialog.getByRole("button", { name: "Save mark" }).click();
    await expect(dialog).toBeHidden();
    await expect(item).toContainText("8 / 10");

    // The room's results count the marked score.
    await crud.open("/admin/exam/room");
    await crud.row(roomTitle).getByRole("button", { name: /^Results · \d+$/ }).click();
    await expect(dialog.getByTestId("results-attempts")).toContainText("8");
    await expect(dialog.getByTestId("results-items")).toContainText("0% right (0 of 1)");

    // The member's record: the new score and the marker's comment.
    await learner.goto("/exam/examTab/testRecord");
    await learner.getByRole("link", { name: roomTitle }).click();
    await expect(learner.getByTestId("marker-review")).toContainText("Say that the sum stays the same.");
    await expect(learner.getByTestId("marker-review")).toContainText("8");
    await expect(learner.getByTestId("result-score")).toContainText("8");
  } finally {
    await server.stop();
  }
});
