import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, openMember, serviceWorkerInControl, startServer, test, type RunningServer } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec saves banks for offline use and reads them offline.
test.use({ serviceWorkers: "allow" });

/** A member API call made with the page's stored token (what a second device of the member did). */
async function memberCall<T>(page: Page, method: "GET" | "POST", url: string, data?: unknown): Promise<T> {
  return page.evaluate(
    async ([m, u, d]) => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      const res = await fetch(u as string, {
        method: m as string,
        headers: { "ba-user-token": token, "content-type": "application/json" },
        body: d === undefined ? undefined : JSON.stringify(d),
      });
      return (await res.json()).data;
    },
    [method, url, data] as const,
  );
}

// A server of its own: these tests need a member who has never saved a question.
let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server?.stop();
});
/** A page of a new browser (its own storage and offline database) on this file's server. */
async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.url });
  return { context, page: await context.newPage() };
}

test.describe.configure({ mode: "serial" });

test.describe("member lists", () => {
  test("a member who never saved a question sees the empty favourites and wrong-question tabs", async ({ browser }) => {
    const { context, page } = await newPage(browser);
    await openMember(page, { path: "/exam/examTab/topicCollect?id=2" });
    await expect(page.getByText("还没有收藏的题目：练习时点星标即可收藏。")).toBeVisible();
    await page.getByRole("link", { name: "我的错题" }).click();
    await expect(page.getByText("没有错题，继续保持！")).toBeVisible();
    // A fresh load of the tab, too (the first read of the device's database).
    await page.reload();
    await expect(page.getByText("没有错题，继续保持！")).toBeVisible();
    await context.close();
  });

  test("my exams lists the open demo room and a past attempt that opens its result", async ({ browser }) => {
    const { context, page } = await newPage(browser);
    await openMember(page);
    const catalog = await memberCall<{ rooms: { id: number; title: string }[] }>(page, "GET", "/api/exam/catalog");
    const room = catalog.rooms[0]!;
    const started = await memberCall<{ attempt: { uuid: string } }>(page, "POST", "/api/exam/official/start", { roomId: room.id });
    await memberCall(page, "POST", "/api/exam/official/submit", { uuid: started.attempt.uuid, answers: {}, answeredAt: {} });

    await page.getByRole("link", { name: "会员中心" }).click();
    await page.getByRole("link", { name: "我的考试" }).first().click();
    await expect(page).toHaveURL(/\/user\/exam\/my_exam$/);
    await expect(page.getByRole("heading", { level: 1, name: "我的考试" })).toBeVisible();
    // The rooms' list only: the attempts below are named after their room too.
    const roomRow = page.getByRole("region", { name: "正在进行和即将开始的考试" }).getByRole("listitem").filter({ hasText: room.title });
    await expect(roomRow).toContainText("进行中");
    await expect(roomRow.getByRole("button", { name: "进入考试" })).toBeEnabled();
    const attempts = page.getByRole("region", { name: "我的答卷" });
    const attempt = attempts.getByRole("listitem").first();
    await expect(attempt).toContainText("正式考试");
    await expect(attempt).toContainText(/得分 0 \/ \d+/);
    await attempt.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/exam/examResult\\?uuid=${started.attempt.uuid}$`));
    await expect(page.getByText(/未及格（及格分 \d+）/)).toBeVisible();
    await context.close();
  });

  test("a favourite whose bank is not on this device shows, and its bank can be saved for offline", async ({ browser }) => {
    // Another device marked the favourite: this browser has never opened the bank.
    const { context, page } = await newPage(browser);
    await openMember(page);
    const bank = await memberCall<{ questions: { id: number; stem: string }[] }>(page, "GET", "/api/exam/bank?id=2");
    const question = bank.questions[3]!;
    const ops = [{ id: crypto.randomUUID(), type: "favourite.set", at: Date.now(), payload: { questionId: question.id, on: true } }];
    await memberCall(page, "POST", "/api/exam/sync", { ops });

    await page.goto("/exam/examTab/topicCollect?id=2");
    const item = page.getByRole("listitem").filter({ hasText: question.stem });
    await expect(item).toBeVisible();
    await expect(page.getByText(/不在本设备上/)).toHaveCount(0);
    await expect(page.getByText("这里有 1 道题来自“数学基础”，该题库尚未保存到本设备。")).toBeVisible();

    await serviceWorkerInControl(page);
    await page.getByRole("button", { name: "保存“数学基础”以便离线使用" }).click();
    await expect(page.getByRole("button", { name: "保存“数学基础”以便离线使用" })).toHaveCount(0);
    await expect(item).toContainText("数学基础");
    await item.getByText("查看答案").click();
    await expect(item).toContainText("答案：");

    // Saved for offline: the question (and the bank) are there without a network.
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole("listitem").filter({ hasText: question.stem })).toBeVisible();
    await page.goto("/exam/myPractice?bank=2");
    await expect(page.getByText(/第 \d+ 题，共 \d+ 题/)).toBeVisible();
    await context.setOffline(false);
    await context.close();
  });
});

test.describe("failures end in an error or offline state", () => {
  test("server stopped: one toast, the log's error state; offline: the profile and a reloaded log say so", async ({ browser }) => {
    // Its own server (this test stops it), so a longer budget than the others.
    test.setTimeout(180_000);
    const own = await startServer();
    const context = await browser.newContext({ baseURL: own.url });
    try {
      const page = await context.newPage();
      await openMember(page);
      await serviceWorkerInControl(page);
      await expect(page.getByRole("link", { name: "余额记录" })).toBeVisible();

      own.process.kill("SIGTERM");
      // Longer than the server's own 10 s limit on a shutdown (src/server/main.ts), so a request
      // still in flight (the service worker's precache) cannot make the two budgets race.
      await expect.poll(() => own.process.exitCode !== null, { timeout: 15_000 }).toBe(true);
      await page.getByRole("link", { name: "余额记录" }).click();
      // The query tries twice; the member sees one toast and the table's error state.
      await expect(page.getByRole("alert").filter({ hasText: "记录加载失败。" })).toBeVisible({ timeout: 20_000 });
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: "服务器异常！" })).toHaveCount(1);

      await context.setOffline(true);
      await page.getByRole("link", { name: "个人资料" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "个人资料加载失败。" })).toBeVisible();
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: "您已断开网络连接！" })).toHaveCount(1);

      // A page load with no network: the member center's data cannot load; it says so.
      await page.goto("/user/account/balance");
      await expect(page.getByRole("alert").filter({ hasText: "您已离线：此页面需要联网才能加载。" })).toBeVisible();
      await expect(page.getByRole("button", { name: "重试" })).toBeVisible();
      await expect(page.getByText("加载中…")).toHaveCount(0);
    } finally {
      await context.close();
      await own.stop();
    }
  });
});
