import { expect, logInMember, test } from "./server.ts";

test.describe("offline practice", () => {
  test("answers and favourites made offline survive a reload and reach the server once back online", async ({ page, context }) => {
    await logInMember(page);
    await expect(page).toHaveURL(/\/user\/course\/my_course$/);

    await page.goto("/exam/myTest");
    await page.getByRole("link", { name: "练习" }).first().click();
    await expect(page.getByText("第 1 题，共 66 题")).toBeVisible({ timeout: 15_000 });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    await context.setOffline(true);
    await expect(page.getByText("您已断开网络连接！")).toBeVisible();
    // Three answers, always option D (some right, some wrong), and one favourite.
    for (let i = 0; i < 3; i++) {
      await page.getByRole("radio").nth(3).check();
      await page.getByRole("button", { name: "提交答案" }).click();
      await expect(page.getByText(/回答正确|回答错误/)).toBeVisible();
      if (i === 0) await page.getByRole("button", { name: "加入收藏" }).click();
      await page.getByRole("button", { name: "下一题" }).click();
    }
    await expect(page.getByText("第 4 题，共 66 题")).toBeVisible();
    await expect(page.getByText(/条待同步/)).toBeVisible();

    // Reload with no network: the app and the bank still work, the answers are still there.
    await page.reload();
    await expect(page.getByText("第 4 题，共 66 题")).toBeVisible();
    await expect(page.getByRole("button", { name: /第 1 题，(已作答|答错)/ })).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByText(/条待同步/)).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByText("您已断开网络连接！")).toHaveCount(0);
    const state = await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      return (await (await fetch("/api/exam/state", { headers: { "ba-user-token": token } })).json()).data;
    });
    expect(state.favourites).toHaveLength(1);
    expect(state.progress[0].position).toBe(3);
    const answers = await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      const bank = await (await fetch("/api/exam/bank?id=2", { headers: { "ba-user-token": token } })).json();
      return bank.data.questions.slice(0, 3).map((q: { answer: string }) => q.answer);
    });
    const wrongExpected = answers.filter((a: string) => a !== "D").length;
    expect(state.wrong).toHaveLength(wrongExpected);

    // The favourite and wrong-question tabs read the device's copy.
    await page.goto("/exam/examTab/topicCollect?id=2");
    await expect(page.getByRole("button", { name: "取消收藏" })).toHaveCount(1);
    await page.getByRole("link", { name: "我的错题" }).click();
    await expect(page.getByRole("button", { name: "移出错题本" })).toHaveCount(wrongExpected);

    // The bank's overview: saved for offline, continue where the member left off.
    await page.getByRole("link", { name: "顺序练习" }).click();
    await expect(page.getByText("已保存到本设备：可以离线练习。")).toBeVisible();
    await expect(page.getByRole("link", { name: "从第 4 题继续" })).toBeVisible();
  });
});

test.describe("mock exam offline", () => {
  test("a mock exam taken fully offline is graded at once and submitted on reconnect", async ({ page, context }) => {
    await logInMember(page);
    await expect(page).toHaveURL(/\/user\/course\/my_course$/);

    await page.goto("/exam/examTab/mockTest");
    await page.getByRole("button", { name: "开始考试" }).first().click();
    await expect(page).toHaveURL(/\/exam\/my_test_detail\?attempt=/, { timeout: 15_000 });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    await context.setOffline(true);
    await page.getByRole("radio").first().check();
    await page.getByRole("button", { name: "交卷" }).click();
    await page.getByRole("button", { name: "仍然交卷" }).click();
    await expect(page).toHaveURL(/\/exam\/examResult\?attempt=/);
    await expect(page.getByText(/条待同步/)).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByText(/条待同步/)).toHaveCount(0, { timeout: 20_000 });
    const records = await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      return (await (await fetch("/api/exam/records", { headers: { "ba-user-token": token } })).json()).data;
    });
    expect(records.total).toBe(1);
    expect(records.list[0]).toMatchObject({ kind: "mock", status: "submitted" });
  });
});

test.describe("official exam", () => {
  test("enters on the server's clock, saves answers to the server, submits and shows the result", async ({ page }) => {
    await logInMember(page);
    await expect(page).toHaveURL(/\/user\/course\/my_course$/);

    await page.goto("/exam/examTab/officialTest");
    await page.getByRole("button", { name: "进入考试" }).click();
    await expect(page).toHaveURL(/\/exam\/my_test_detail\?official=/);
    await expect(page.getByText(/^1[45]:\d\d$/)).toBeVisible();
    await page.getByRole("radio").first().check();
    await expect(page.getByText("已保存在本设备，尚未同步到服务器")).toBeVisible();
    await expect(page.getByText("已保存在本设备，尚未同步到服务器")).toHaveCount(0, { timeout: 10_000 });
    await page.getByRole("button", { name: "交卷" }).click();
    await expect(page).toHaveURL(/\/exam\/examResult\?uuid=/);
    const records = await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      return (await (await fetch("/api/exam/records", { headers: { "ba-user-token": token } })).json()).data;
    });
    expect(records.list.find((r: { kind: string }) => r.kind === "official")).toMatchObject({ status: "submitted" });
  });
});
