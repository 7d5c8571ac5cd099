import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { ExamScreen, questionPosition } from "./pages/exam.ts";
import { expect, openMember, serviceWorkerInControl, startServer, test } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec reads a result offline.
test.use({ serviceWorkers: "allow" });

/** A member API call made by the page (its token, its cookies). */
async function memberApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<{ code: number; msg: string; data: T }> {
  return page.evaluate(
    async ([m, u, b]) => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      const init: RequestInit = { method: m as string, headers: { "ba-user-token": token, "content-type": "application/json" } };
      if (b !== undefined) init.body = JSON.stringify(b);
      return (await fetch(u as string, init)).json();
    },
    [method, url, body] as const,
  );
}

const ROOM = "数学基础正式考试";
const ROOM_PAPER = "数学基础正式考试卷（随机抽题）";

test.describe("the official exam screen", () => {
  // Its own server: the room allows 3 attempts, and other specs sit it too.
  test("has the room's title and a question grid, asks before submitting with the unanswered count; results and records name the room", async ({ browser }) => {
    test.setTimeout(180_000);
    const server = await startServer();
    try {
      const context = await browser.newContext({ baseURL: server.url, serviceWorkers: "block" });
      const page = await context.newPage();
      await openMember(page);
      const exam = new ExamScreen(page);
      await exam.openOfficialRooms();
      await exam.enterRoom();
      // The introduction (time, questions, points, attempts left) starts nothing until its start button.
      await exam.startFromIntroduction();
      await expect(page).toHaveURL(/\/exam\/my_test_detail\?official=/);

      await expect(page.getByRole("heading", { level: 1, name: ROOM })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(ROOM));

      // The grid: 10 questions, none answered; answering marks one, a jump moves to another.
      const grid = exam.grid;
      await expect(grid.getByRole("button")).toHaveCount(10);
      await expect(grid.getByRole("button", { name: /未作答$/ })).toHaveCount(10);
      await exam.chooseFirst();
      await expect(grid.getByRole("button", { name: "第 1 题，已作答" })).toBeVisible();
      await grid.getByRole("button", { name: "第 4 题，未作答" }).click();
      await expect(questionPosition(page, 4, 10)).toBeVisible();
      await expect(grid.getByRole("button", { name: "第 4 题，未作答" })).toHaveAttribute("aria-current", "step");
      await exam.chooseFirst();
      await expect(page.getByText("已答 2 题，共 10 题")).toBeVisible();
      await expect(exam.savedOnDeviceOnly).toHaveCount(0, { timeout: 10_000 });

      // "Submit" asks first, saying how many are unanswered; "keep answering" changes nothing.
      await exam.submit();
      const dialog = page.getByRole("alertdialog", { name: "确定交卷吗？" });
      await expect(dialog).toContainText("还有 8 道题未作答。");
      await dialog.getByRole("button", { name: "继续答题" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page).toHaveURL(/\/exam\/my_test_detail\?official=/);
      const open = await memberApi<{ list: { kind: string; status: string }[] }>(page, "GET", "/api/exam/records");
      expect(open.data.list.filter((r) => r.kind === "official").map((r) => r.status)).toEqual(["open"]);

      await exam.submit();
      await expect(dialog).toBeVisible();
      await exam.submitAnyway();
      await expect(page).toHaveURL(/\/exam\/examResult\?uuid=/);

      // The result is named by the room; the 8 untouched questions are "unanswered", never "wrong".
      await expect(page.getByRole("heading", { level: 1, name: ROOM })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(`成绩：${ROOM}`));
      const review = exam.review;
      await expect(review.getByTestId("question-outcome").filter({ hasText: "未作答" })).toHaveCount(8);
      // The demo room shows which answers were right once it has closed: until then the 2 answered
      // questions are not judged here.
      await expect(review.getByTestId("question-outcome")).toHaveCount(8);

      // Records: the room, not the paper.
      await page.goto("/exam/examTab/testRecord");
      await expect(page.getByRole("link", { name: ROOM })).toBeVisible();
      await expect(page.getByRole("link", { name: ROOM_PAPER })).toHaveCount(0);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});

test.describe("practice and result edge cases", () => {
  test.describe("without the service worker", () => {
    // Nothing here is about the worker: its install would only cost the page's context CPU time.
    test.use({ serviceWorkers: "block" });

    test("practice without a bank or with an unknown one ends in a clear message with a way back", async ({ page }) => {
      await openMember(page, { path: "/exam/myPractice" });
      await expect(page.getByRole("alert")).toContainText("没有选择题库。");
      await page.getByRole("link", { name: "返回题库" }).click();
      await expect(page).toHaveURL(/\/exam\/myTest$/);

      await page.goto("/exam/myPractice?bank=999");
      await expect(page.getByRole("alert")).toContainText("该题库不存在");
      // Said once, on the page (no toast repeating it).
      await expect(page.getByText("该题库不存在")).toHaveCount(1);
      await expect(page.getByText("此题库尚未保存到本设备")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "返回题库" })).toBeVisible();

      // Not a bank id at all: nothing to ask the server.
      await page.goto("/exam/myPractice?bank=abc");
      await expect(page.getByRole("alert")).toContainText("没有选择题库。");
    });
  });

  test("a result not on this device loads from the server online, and says how to get it offline; unanswered is not wrong", async ({ page, context }) => {
    await openMember(page);
    const catalog = await memberApi<{ papers: { id: number; title: string }[] }>(page, "GET", "/api/exam/catalog");
    const paper = catalog.data.papers.find((p) => p.title === "数学基础测验（固定）")!;
    // A mock exam taken on another device, every question left empty (as the app submits
    // unanswered ones): on the server, nothing on this one.
    const detail = await memberApi<{ rows: { kind: string; questionId?: number }[] }>(page, "GET", `/api/exam/paper?id=${paper.id}`);
    const ids = detail.data.rows.flatMap((r) => (r.kind === "fixed" && r.questionId ? [r.questionId] : []));
    expect(ids.length).toBeGreaterThan(0);
    const answers = Object.fromEntries(ids.map((id) => [String(id), ""]));
    const attemptId = randomUUID();
    const op = { id: randomUUID(), type: "attempt.submit", at: Date.now(), payload: { attemptId, paperId: paper.id, startedAt: Date.now() - 60_000, submittedAt: Date.now(), answers } };
    const sync = await memberApi<{ results: { status: string }[] }>(page, "POST", "/api/exam/sync", { ops: [op] });
    expect(sync.data.results[0]!.status).toBe("applied");

    await page.goto(`/exam/examResult?attempt=${attemptId}`);
    await expect(page.getByRole("heading", { level: 1, name: paper.title })).toBeVisible();
    await expect(page.getByTestId("result-score")).toContainText("0 / 20");
    const outcomes = new ExamScreen(page).review.getByTestId("question-outcome");
    await expect(outcomes.first()).toBeVisible();
    await expect(outcomes).toHaveCount(ids.length);
    await expect(outcomes.filter({ hasText: "未作答" })).toHaveCount(ids.length);
    await expect(outcomes.filter({ hasText: "回答错误" })).toHaveCount(0);

    // An attempt the server does not have: its "not found", not a spinner.
    await page.goto(`/exam/examResult?attempt=${randomUUID()}`);
    await expect(page.getByRole("alert")).toBeVisible();
    await expect(page.getByRole("alert").getByRole("link", { name: "考试记录" })).toBeVisible();

    // Offline, another result not on this device: what to do, not a spinner.
    await page.goto("/exam/examTab/testRecord");
    await serviceWorkerInControl(page);
    await context.setOffline(true);
    await page.evaluate((id) => {
      history.pushState(null, "", `/exam/examResult?attempt=${id}`);
      dispatchEvent(new PopStateEvent("popstate"));
    }, randomUUID());
    await expect(page.getByRole("alert")).toContainText("此考试结果不在本设备上。请连接网络，从服务器加载。");
    await context.setOffline(false);
  });
});
