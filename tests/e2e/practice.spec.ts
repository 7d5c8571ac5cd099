import type { BrowserContext, Page } from "@playwright/test";
import { ExamScreen, PracticeScreen, questionPosition } from "./pages/exam.ts";
import { MemberShell } from "./pages/memberShell.ts";
import { expect, openMember, serviceWorkerInControl, startServer, test } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec practises and takes mock exams offline.
test.use({ serviceWorkers: "allow" });

/**
 * What the server holds for the member, read in a session of the test's own: the app's token
 * may expire at any moment in the short-lived-token test, and refreshing it behind the app's
 * back would rotate the app's refresh token away.
 */
async function memberGet<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const login = await fetch("/api/user/checkIn", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tab: "login", username: "member", password: "member123456", keep: false }),
    });
    const token = (await login.json()).data.userInfo.token as string;
    return (await (await fetch(u, { headers: { "ba-user-token": token } })).json()).data;
  }, url);
}

/**
 * The offline story: open a bank, go offline, answer 10 questions and favourite 2,
 * reload offline, close the page and open it again, come back online: the server ends with
 * exactly those 10 answers, 2 favourites and the wrong ones in the wrong book.
 */
async function practiseOffline(context: BrowserContext, first: Page, expireWhileOffline?: () => void): Promise<void> {
  let page = first;
  await openMember(page);

  const practice = new PracticeScreen(page);
  await practice.openFirstBank();
  await expect(questionPosition(page, 1, 66)).toBeVisible({ timeout: 15_000 });
  await serviceWorkerInControl(page);
  const practiceUrl = page.url();

  const tokenOf = (p: Page) => p.evaluate(() => JSON.parse(localStorage.getItem("userInfo")!).state.token as string);
  const tokenBefore = await tokenOf(page);
  await context.setOffline(true);
  await expect(new MemberShell(page).offlineNotice).toBeVisible();
  for (let i = 0; i < 10; i++) {
    if (i === 5) {
      // Reload with no network halfway: the app and the bank still work.
      await page.reload();
      await expect(questionPosition(page, 6, 66)).toBeVisible();
      await expect(practice.gridButton(/第 1 题，(已作答|答对|答错)/)).toBeVisible();
    }
    await practice.answerCurrent();
    if (i === 0 || i === 7) await practice.favourite();
    await practice.next();
  }
  await expect(questionPosition(page, 11, 66)).toBeVisible();
  await expect(new MemberShell(page).pendingSync).toBeVisible();

  // Close the page and open the app again, still offline: nothing is lost.
  await page.close();
  page = await context.newPage();
  await page.goto(practiceUrl);
  const shell = new MemberShell(page);
  await expect(questionPosition(page, 11, 66)).toBeVisible({ timeout: 15_000 });
  await expect(shell.offlineNotice).toBeVisible();
  // The reopened page counts what waits (so "nothing waits" below is the queue sent, not a badge not drawn yet).
  await expect(shell.pendingSync).toBeVisible();
  expireWhileOffline?.();

  await context.setOffline(false);
  await expect(shell.pendingSync).toHaveCount(0, { timeout: 20_000 });
  await expect(shell.offlineNotice).toHaveCount(0);
  // An expired token was refreshed on the way (not dropped with the queue).
  if (expireWhileOffline) expect(await tokenOf(page)).not.toBe(tokenBefore);

  const stats = await memberGet<{ banks: { bankId: number; answers: number; questions: number; wrong: number }[] }>(page, "/api/exam/practiceStats");
  expect(stats.banks).toHaveLength(1);
  expect(stats.banks[0]).toMatchObject({ bankId: 2, answers: 10, questions: 10 });
  const state = await memberGet<{ favourites: number[]; wrong: { questionId: number }[]; progress: { position: number }[] }>(page, "/api/exam/state");
  expect(state.favourites).toHaveLength(2);
  expect(state.progress[0]!.position).toBe(10);
  expect(stats.banks[0]!.wrong).toBeGreaterThan(0);
  expect(state.wrong).toHaveLength(stats.banks[0]!.wrong);

  // The favourite and wrong-question tabs read the device's copy.
  await page.goto("/exam/examTab/topicCollect?id=2");
  await expect(page.getByRole("button", { name: "取消收藏" })).toHaveCount(2);
  await page.getByRole("link", { name: "我的错题" }).click();
  await expect(page.getByRole("button", { name: "移出错题本" })).toHaveCount(state.wrong.length);

  // The bank's overview: saved for offline, continue where the member left off.
  await page.getByRole("link", { name: "顺序练习" }).click();
  await expect(page.getByText("已保存到本设备：可以离线练习。")).toBeVisible();
  await expect(page.getByRole("link", { name: "从第 11 题继续" })).toBeVisible();
}

test.describe("offline practice", () => {
  test("10 answers and 2 favourites made offline survive a reload and a closed page, and reach the server once", async ({ page, context }) => {
    await practiseOffline(context, page);
  });

  test("the same when the access token expires while offline", async ({ browser }) => {
    const server = await startServer({ ACCESS_TOKEN_TTL: "3600" });
    try {
      const context = await browser.newContext({ baseURL: server.url });
      // Offline for longer than the token lives (the server's clock moved past its hour): the
      // replay meets a 409 and refreshes once.
      await practiseOffline(context, await context.newPage(), () => server.setClockOffset(3_601_000));
      await context.close();
    } finally {
      await server.stop();
    }
  });
});

test.describe("mock exam offline", () => {
  test("a mock exam taken fully offline is graded at once and submitted on reconnect", async ({ page, context }) => {
    await openMember(page);

    const exam = new ExamScreen(page);
    const shell = new MemberShell(page);
    await page.goto("/exam/examTab/mockTest");
    // The paper's introduction (time, questions, points, pass score) starts nothing until its own start button.
    await exam.startFirstMock();
    await expect(page).toHaveURL(/\/exam\/my_test_detail\?attempt=/, { timeout: 15_000 });
    await serviceWorkerInControl(page);

    await context.setOffline(true);
    await exam.chooseFirst();
    await exam.submit();
    await exam.submitAnyway();
    await expect(page).toHaveURL(/\/exam\/examResult\?attempt=/);
    await expect(shell.pendingSync).toBeVisible();
    const attemptId = new URL(page.url()).searchParams.get("attempt");

    await context.setOffline(false);
    await expect(shell.pendingSync).toHaveCount(0, { timeout: 20_000 });
    const records = await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      return (await (await fetch("/api/exam/records", { headers: { "ba-user-token": token } })).json()).data;
    });
    // Other tests on this server may have left attempts of their own: this one arrived, once.
    const mine = (records.list as { uuid: string }[]).filter((r) => r.uuid === attemptId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ kind: "mock", status: "submitted" });
  });
});

test.describe("official exam", () => {
  // Online only: the worker's install would only cost the page's context CPU time.
  test.use({ serviceWorkers: "block" });

  test("enters on the server's clock, saves answers to the server, submits and shows the result", async ({ page }) => {
    await openMember(page);

    const exam = new ExamScreen(page);
    await exam.openOfficialRooms();
    await exam.enterRoom();
    // The introduction (time, questions, points, attempts left) starts nothing until its start button.
    await exam.startFromIntroduction();
    await expect(page).toHaveURL(/\/exam\/my_test_detail\?official=/);
    await expect(page.getByText(/^1[45]:\d\d$/)).toBeVisible();
    await exam.chooseFirst();
    await expect(exam.savedOnDeviceOnly).toBeVisible();
    await expect(exam.savedOnDeviceOnly).toHaveCount(0, { timeout: 10_000 });
    await exam.submit();
    // Submitting asks first (9 of 10 unanswered).
    await exam.submitAnyway();
    await expect(page).toHaveURL(/\/exam\/examResult\?uuid=/);
    const records = await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      return (await (await fetch("/api/exam/records", { headers: { "ba-user-token": token } })).json()).data;
    });
    expect(records.list.find((r: { kind: string }) => r.kind === "official")).toMatchObject({ status: "submitted" });
  });
});

test.describe("official exam offline", () => {
  test("answers made offline, page closed, reach the server when the app opens online again", async ({ browser }) => {
    const server = await startServer();
    try {
      const context = await browser.newContext({ baseURL: server.url });
      let page = await context.newPage();
      await openMember(page);
      const exam = new ExamScreen(page);
      await exam.openOfficialRooms();
      await exam.enterRoom();
      // The introduction (time, questions, points, attempts left) starts nothing until its start button.
      await exam.startFromIntroduction();
      await expect(page).toHaveURL(/\/exam\/my_test_detail\?official=/);
      const uuid = new URL(page.url()).searchParams.get("official")!;
      await serviceWorkerInControl(page);

      // The connection drops: two answers are kept on the device only.
      await context.setOffline(true);
      await exam.chooseFirst();
      await exam.next();
      await exam.chooseFirst();
      await expect(exam.savedOnDeviceOnly).toBeVisible();
      // They wait in the member's one outbox, counted with every other change.
      await expect(new MemberShell(page).pendingSync).toHaveAccessibleName("2 条待同步");
      await page.close();

      // Later, online, the member opens the app anywhere: the answers go out on their own.
      await context.setOffline(false);
      page = await context.newPage();
      await page.goto("/user/course/my_course");
      const saved = async () =>
        page.evaluate(async (id) => {
          const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
          const headers = { "ba-user-token": token, "content-type": "application/json" };
          const catalog = (await (await fetch("/api/exam/catalog", { headers })).json()).data;
          // Entering again returns the open attempt with what the server has saved.
          const start = await fetch("/api/exam/official/start", { method: "POST", headers, body: JSON.stringify({ roomId: catalog.rooms[0].id }) });
          const attempt = (await start.json()).data.attempt;
          return attempt.uuid === id ? Object.keys(attempt.answers).length : -1;
        }, uuid);
      await expect.poll(saved, { timeout: 15_000 }).toBe(2);
      // Nothing waits any more, and nothing of the exam was kept in localStorage.
      await expect(new MemberShell(page).pendingSync).toHaveCount(0);
      expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("examhub.official.")))).toEqual([]);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});
