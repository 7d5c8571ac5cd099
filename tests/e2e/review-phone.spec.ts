import type { Page } from "@playwright/test";
import { PracticeScreen } from "./pages/exam.ts";
import { MemberShell } from "./pages/memberShell.ts";
import { ReviewScreen } from "./pages/review.ts";
import { expect, openMember, serviceWorkerInControl, startServer, test } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec reviews offline, from the service worker's cached shell.
test.use({ serviceWorkers: "allow" });

/**
 * Spaced review on a phone, offline: each rating button says when the question would come back
 * (FSRS's intervals in the language's units), a question answered wrong comes back in the same
 * session and the session ends only once it is answered right, the summary says when the
 * question comes back; back online the server holds each rating once. On a server of its own: the
 * member starts with an empty wrong book.
 */

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The member's data on the server, read with the app's own token. */
async function memberGet<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
    return (await (await fetch(u, { headers: { "ba-user-token": token } })).json()).data;
  }, url);
}

test("review on a phone: intervals on the buttons, a wrong answer asked again in the session, the summary says when", async ({ browser }) => {
  const server = await startServer();
  const context = await browser.newContext({ baseURL: server.url, ...PHONE });
  try {
    await reviewOnPhone(await context.newPage());
  } finally {
    await context.close();
    await server.stop();
  }
});

async function reviewOnPhone(page: Page): Promise<void> {
  const context = page.context();
  const shell = new MemberShell(page);
  await openMember(page);

  // Practice until a single-choice question is answered wrong (option D): it enters the wrong book, due at once.
  const practice = new PracticeScreen(page);
  await practice.openFirstBank();
  await serviceWorkerInControl(page);
  let wrong = false;
  for (let i = 0; !wrong && i < 10; i++) {
    await practice.answerCurrent();
    wrong = (await page.getByRole("radio").count()) >= 4 && (await page.getByText("回答错误").count()) > 0;
    if (!wrong) await practice.next();
  }
  expect(wrong).toBe(true);
  await expect(shell.pendingSync).toHaveCount(0, { timeout: 20_000 });
  const [bank] = (await memberGet<{ banks: { bankId: number }[] }>(page, "/api/exam/practiceStats")).banks;

  const review = new ReviewScreen(page);
  await review.open(bank!.bankId);
  await expect(page.getByText(/^1 道题到期/)).toBeVisible({ timeout: 15_000 });

  // The whole session offline: the scheduler runs on the device.
  await context.setOffline(true);
  await expect(shell.offlineNotice).toBeVisible();
  await review.start();
  await expect(review.position).toHaveText(/^复习第 1 题，共 1 题/);
  await review.answer("D");
  await expect(review.verdict).toContainText("回答错误");
  const right = await review.rightKey();
  // Wrong: the one button says the short relearning step.
  await expect(review.rating("下一步")).toHaveAccessibleName(/^下一步\s+10分钟$/);
  await review.rating("下一步").click();

  // It comes back in the same session, before the summary.
  await expect(review.summary).toHaveCount(0);
  await expect(review.position).toHaveText(/^复习第 2 题，共 2 题/);
  await review.answer(right);
  await expect(review.verdict).toContainText("回答正确");
  // Right: each rating says its interval, in days (just after a lapse FSRS may give all three the same day).
  const days: number[] = [];
  for (const name of ["困难", "良好", "简单"] as const) {
    const label = await review.rating(name).innerText();
    days.push(Number(/(\d+)\s*天/.exec(label)?.[1]));
  }
  expect(days.every((d) => d >= 1)).toBe(true);
  expect(days[0]! <= days[1]! && days[1]! <= days[2]!).toBe(true);
  await review.rating("良好").tap();

  // The summary: one right, one wrong, and one day the question comes back (its words: unit tests).
  await expect(review.summary).toBeVisible();
  await expect(review.summary).toContainText("答对：1 · 答错：1");
  await expect(review.summary.getByRole("listitem")).toHaveCount(1);

  // Back online: the two ratings reach the server, once each.
  await context.setOffline(false);
  await expect(shell.pendingSync).toHaveCount(0, { timeout: 20_000 });
  const logs = (await memberGet<{ logs: { opId: string; correct: boolean }[] }>(page, "/api/exam/review/state")).logs;
  expect(logs.map((l) => l.correct)).toEqual([false, true]);
  expect(new Set(logs.map((l) => l.opId)).size).toBe(2);
  const due = await memberGet<{ due: unknown[] }>(page, "/api/exam/review/due");
  expect(due.due).toHaveLength(0);
}
