import type { Page } from "@playwright/test";
import { PracticeScreen } from "./pages/exam.ts";
import { MemberShell } from "./pages/memberShell.ts";
import { expect, openMember, questionOnScreen, serviceWorkerInControl, startServer, test } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec reviews offline, from the service worker's cached shell.
test.use({ serviceWorkers: "allow" });

/**
 * Spaced review in Chromium, on a server of its own whose clock the test moves (the
 * test-only E2E_CLOCK_FILE) together with the page's (Playwright's clock): answer 5 questions
 * wrong, a day later the review tab shows them due; review them offline (one answered wrong again
 * comes back in the session); back online the server holds each review once; the mastery chart shows the topic, offline too.
 */

const DAY = 86_400_000;

/** The member's data on the server, read with the app's own token. */
async function memberGet<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
    return (await (await fetch(u, { headers: { "ba-user-token": token } })).json()).data;
  }, url);
}

/** Answers the practice question on screen; true when it was graded wrong. */
async function answerPractice(page: Page): Promise<boolean> {
  await questionOnScreen(page);
  const radios = page.getByRole("radio");
  const boxes = page.getByRole("checkbox");
  if ((await radios.count()) >= 4) await radios.nth(3).check();
  else if ((await radios.count()) > 0) await radios.last().check();
  else if ((await boxes.count()) > 0) await boxes.first().check();
  else await page.getByRole("textbox").first().fill("x");
  await new PracticeScreen(page).checkAnswer();
  const verdict = page.getByText(/回答正确|回答错误|答案已保存，将由老师评阅/).first();
  await expect(verdict).toBeVisible();
  return (await page.getByText("回答错误").count()) > 0;
}

/** The right options of each question answered wrong in this review session (by stem): a failed question comes back in the session. */
const rightAnswers = new Map<string, string>();

/**
 * One review in the session: any answer (the right one when the question comes back after a
 * wrong answer), checked on the device, then rated (or "I got it wrong"). True when it was wrong.
 */
async function reviewCurrent(page: Page): Promise<boolean> {
  await questionOnScreen(page);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "核对答案" }) });
  const stem = (await form.locator("legend").innerText()).trim();
  const known = rightAnswers.get(stem);
  const radios = page.getByRole("radio");
  const boxes = page.getByRole("checkbox");
  // The answer as the grading showed it: option keys ("B", "A、C") or a judge's word.
  const keys = known?.match(/\b[A-Z]\b/g);
  if (known && keys) for (const key of keys) await form.locator("fieldset label").filter({ hasText: new RegExp(`^\\s*${key}\\.`) }).click();
  else if (known) await form.locator("fieldset label").filter({ hasText: known }).click();
  else if ((await radios.count()) > 0) await radios.first().check();
  else if ((await boxes.count()) > 0) await boxes.first().check();
  else await page.getByRole("textbox").first().fill("x");
  await page.getByRole("button", { name: "核对答案" }).click();
  const next = page.getByRole("button", { name: /^(下一步\s|良好\s|我答错了$)/ }).first();
  await expect(next).toBeVisible();
  const wrong = (await page.getByText("回答错误").count()) > 0;
  if (wrong) {
    const graded = await page.getByRole("status").filter({ hasText: "回答错误" }).innerText();
    rightAnswers.set(stem, /答案：\s*(.+)/.exec(graded)![1]!.trim());
  }
  await next.click();
  return wrong;
}

test("5 wrong answers come back a day later, are reviewed offline, reach the server once, and show in the mastery chart", async ({ browser }) => {
  const server = await startServer();
  try {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    // The page's clock runs on from the real time; the test moves it (and the server's) below.
    const start = Date.now();
    await page.clock.install({ time: start });
    await openMember(page);

    // Practice: answer until 5 questions were graded wrong.
    const practice = new PracticeScreen(page);
    const shell = new MemberShell(page);
    await practice.openFirstBank();
    await expect(page.getByText(/第 1 题，共 \d+ 题/)).toBeVisible({ timeout: 15_000 });
    await serviceWorkerInControl(page);
    let wrong = 0;
    for (let i = 0; wrong < 5 && i < 40; i++) {
      if (await answerPractice(page)) wrong += 1;
      await practice.next();
    }
    expect(wrong).toBe(5);
    await expect(shell.pendingSync).toHaveCount(0, { timeout: 20_000 });
    const state = await memberGet<{ wrong: { questionId: number }[] }>(page, "/api/exam/state");
    expect(state.wrong).toHaveLength(5);
    const practised = await memberGet<{ banks: { bankId: number }[] }>(page, "/api/exam/practiceStats");
    expect(practised.banks).toHaveLength(1);
    const bankId = practised.banks[0]!.bankId;

    // A day later, on the server and in the page: the five are due.
    server.setClockOffset(DAY + 60_000);
    await page.clock.setSystemTime(start + DAY + 60_000);
    await page.goto(`/exam/examTab/review?id=${bankId}`);
    await expect(page.getByText(/^5 道题到期 · 约 \d+ 分钟$/)).toBeVisible({ timeout: 15_000 });
    const due = await memberGet<{ now: number; due: { questionId: number }[] }>(page, "/api/exam/review/due");
    expect(due.now).toBeGreaterThanOrEqual(start + DAY);
    expect(due.due.map((d) => d.questionId).sort()).toEqual(state.wrong.map((w) => w.questionId).sort());

    // On a phone the header's links are behind the menu button: the count shows on the button,
    // and inside the sheet once it is opened.
    await page.setViewportSize({ width: 390, height: 844 });
    const menuButton = page.getByRole("banner").getByRole("button", { name: /^菜单/ });
    await expect(menuButton).toHaveAccessibleName(/^菜单\s*,\s*5 道题待复习$/);
    await expect(page.getByTestId("menu-due-badge")).toBeVisible();
    await expect(page.getByTestId("menu-due-badge").locator("[aria-hidden]")).toHaveText("5");
    await menuButton.click();
    await expect(page.getByRole("dialog").getByRole("link", { name: /考试/ })).toContainText("5");
    await page.keyboard.press("Escape");
    await page.setViewportSize({ width: 1280, height: 720 });

    // Reviewed with no network at all.
    await context.setOffline(true);
    await expect(shell.offlineNotice).toBeVisible();
    await page.getByRole("button", { name: "开始复习" }).click();
    // Each question answered wrong comes back in the session (then answered right): 5 + the wrong ones.
    let ratings = 0;
    let wrongInReview = 0;
    for (; ratings < 5 + wrongInReview && ratings < 12; ratings++) {
      await expect(page.getByText(`复习第 ${ratings + 1} 题，共 ${5 + wrongInReview} 题`)).toBeVisible();
      if (await reviewCurrent(page)) wrongInReview += 1;
    }
    expect(ratings).toBe(5 + wrongInReview);
    await expect(page.getByText("复习完成")).toBeVisible();
    await page.getByRole("button", { name: "返回复习列表" }).click();
    await expect(page.getByText("今天没有到期的题目，做得好！")).toBeVisible();
    await expect(shell.pendingSync).toBeVisible();

    // Mastery works offline too: from the device's answers and cards.
    const mastery = page.getByRole("region", { name: "知识点掌握度" });
    await expect(mastery.getByRole("list", { name: "按知识点和题型的掌握度" }).getByRole("listitem").first()).toBeVisible();
    await expect(mastery.locator("canvas")).toBeVisible();

    // Back online: every rating reaches the server, once each.
    await context.setOffline(false);
    await expect(shell.pendingSync).toHaveCount(0, { timeout: 20_000 });
    const review = await memberGet<{ logs: { opId: string; questionId: number; at: number }[] }>(page, "/api/exam/review/state");
    expect(review.logs).toHaveLength(ratings);
    expect(new Set(review.logs.map((l) => l.opId)).size).toBe(ratings);
    expect([...new Set(review.logs.map((l) => l.questionId))].sort()).toEqual(state.wrong.map((w) => w.questionId).sort());
    expect(review.logs.every((l) => l.at >= start + DAY)).toBe(true);
    // Refresh, without a reload: the server's figures (every device's) replace the device's, chart included.
    await mastery.getByRole("button", { name: "刷新" }).click();
    await expect(mastery.getByText(/^离线：/)).toHaveCount(0);
    await expect(mastery.locator("canvas")).toBeVisible();
    await expect(mastery.getByRole("list", { name: "按知识点和题型的掌握度" }).getByRole("listitem").first()).toBeVisible();
    // A reload syncs nothing again.
    await page.reload();
    await expect(page.getByText("今天没有到期的题目，做得好！")).toBeVisible({ timeout: 15_000 });
    expect((await memberGet<{ logs: unknown[] }>(page, "/api/exam/review/state")).logs).toHaveLength(ratings);

    // The mastery chart (from the server, online) names the topic of the five.
    const topics = await memberGet<{ topics: { bankId: number; title: string }[] }>(page, "/api/exam/review/mastery");
    const topic = topics.topics.find((tp) => tp.bankId === bankId)!;
    expect(topic).toBeTruthy();
    await expect(mastery.getByRole("listitem").filter({ hasText: topic.title }).first()).toBeVisible();
    await expect(mastery.locator("canvas")).toBeVisible();
    await context.close();
  } finally {
    await server.stop();
  }
});
